package dev.portico.proxy.server;

import dev.portico.proxy.route.RoutingSnapshot;
import dev.portico.proxy.route.TlsTable;
import dev.portico.proxy.server.tls.TlsTermination;
import io.vertx.core.http.HttpServer;
import org.jboss.logging.Logger;

/**
 * The certificates one loop's TLS server presents, kept in step with the routing snapshots: when an adopted snapshot
 * would present other certificates, the server's TLS options are replaced ({@code updateSSLOptions}). New handshakes
 * get the new certificates; open connections keep their session and are not dropped. Confined to its loop.
 */
final class ListenerCertificates {

    private static final Logger LOG = Logger.getLogger(ListenerCertificates.class);

    private final String listener;
    private final TlsTermination tls;
    private TlsTable presented;
    private HttpServer server;

    /** @param atStart the snapshot the server's first options are built from */
    ListenerCertificates(String listener, TlsTermination tls, RoutingSnapshot atStart) {
        this.listener = listener;
        this.tls = tls;
        this.presented = tls.presented(atStart.tls());
    }

    /** What the server presents now. */
    TlsTable presented() {
        return presented;
    }

    /** The server whose options follow the snapshots, once created. */
    void bind(HttpServer server) {
        this.server = server;
    }

    /** Swaps in {@code snapshot}'s certificates when they differ from those presented; runs on the loop. */
    void adopt(RoutingSnapshot snapshot) {
        TlsTable next = tls.presented(snapshot.tls());
        if (server == null || next.presentsTheSameAs(presented)) {
            return;
        }
        presented = next;
        server.updateSSLOptions(tls.sslOptions(next), true).onComplete(updated -> {
            if (updated.failed()) {
                LOG.errorf(updated.cause(), "Listener %s keeps its previous certificates: the new ones of snapshot "
                        + "%d could not be applied", listener, snapshot.version());
            }
        });
    }
}
