package dev.portico.proxy.upstream;

import dev.portico.http.HopByHopHeaders;
import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.outcome.LocalReason;
import dev.portico.proxy.core.outcome.TunnelClose;
import dev.portico.proxy.tunnel.Tunnel;
import dev.portico.proxy.upstream.pool.HeaderEntries;
import dev.portico.proxy.upstream.pool.SwitchedConnection;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.net.NetSocket;
import org.jboss.logging.Logger;

/**
 * The upstream agreed to switch protocols (a {@code 101} to the client's forwarded Upgrade): its head goes to the
 * client as a {@code 101} of this hop, then both connections leave HTTP and become a {@link Tunnel}. The upstream
 * response phase does not run (no stage may answer instead of a switch the upstream already made); the response head
 * phase does, as for any response, so the vhost's header rules see the {@code 101}.
 */
final class UpgradeForwarding {

    private static final Logger LOG = Logger.getLogger(UpgradeForwarding.class);

    private UpgradeForwarding() {
    }

    static void switchProtocols(UpstreamCall call, HttpClientResponse upstream) {
        Exchange exchange = call.exchange();
        String protocol = upstream.getHeader(HttpHeaders.UPGRADE);
        // The upstream's socket, held paused: bytes it sent right after its 101 wait until the tunnel reads them.
        NetSocket upstreamSocket = upstream.netSocket().pause();
        SwitchedConnection upstreamConnection = SwitchedConnection.of(upstream.request().connection());
        if (protocol == null) {
            // RFC 9110 section 15.2.2: a 101 names the protocol switched to. The client could not know what to speak.
            upstreamSocket.close();
            call.releasePool();
            exchange.replyLocal(LocalReason.UPSTREAM_PROTOCOL_ERROR, "The upstream switched protocols without naming one");
            return;
        }
        HttpServerResponse response = exchange.response();
        response.setStatusCode(101);
        MultiMap upHeaders = upstream.headers();
        HopByHopHeaders.of(upHeaders).copyEndToEnd(HeaderEntries.of(upHeaders), response.headers(), null, null);
        response.headers().add(UpstreamCall.VIA, call.stage().via(upstream.version()));
        call.stage().group().responding(exchange, call.target(), response.headers());
        exchange.switchProtocols();
        // After the response head phase: the switch is this hop's too, so these two are written by this hop.
        response.headers().set(HttpHeaders.CONNECTION, HttpHeaders.UPGRADE);
        response.headers().set(HttpHeaders.UPGRADE, protocol);
        exchange.request().toNetSocket().onComplete(switched -> {
            if (switched.failed()) {
                LOG.debugf("request %s: the client connection could not switch protocols: %s", exchange.requestId(),
                        switched.cause());
                upstreamSocket.close();
                call.releasePool();
                exchange.tunnelClosed(TunnelClose.ERROR, 0, 0);
                return;
            }
            Tunnel.start(exchange, switched.result().pause(), upstreamSocket, upstreamConnection,
                    call.stage().websocketIdleTimeoutMillis(), call::releasePool,
                    protocol.trim().equalsIgnoreCase("websocket"));
        });
    }
}
