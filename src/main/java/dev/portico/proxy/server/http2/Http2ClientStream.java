package dev.portico.proxy.server.http2;

import dev.portico.http.HopByHopHeaders;
import dev.portico.proxy.core.ClientConnection;
import dev.portico.proxy.core.ClientTls;
import dev.portico.proxy.core.Exchange;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.impl.headers.HeadersMultiMap;

import java.util.Locale;
import java.util.Map;

/**
 * The client side of one HTTP/2 stream, as the pipeline sees its connection. What HTTP/1 does to its connection
 * (close it behind an unread body, probe a half-closed socket) happens here to the stream alone, since the
 * connection carries other streams; flow control, not the connection, holds back a client that sends too much.
 */
public final class Http2ClientStream implements ClientConnection {

    private static final int EARLY_HINTS = 103;

    private final HttpServerRequest request;
    private final ClientTls tls;
    private final HeldBackTails tails;

    /**
     * @param tls   what the connection's TLS handshake settled, or null in cleartext
     * @param tails the loop's watch on responses written in full that the client's window still holds back
     */
    Http2ClientStream(HttpServerRequest request, ClientTls tls, HeldBackTails tails) {
        this.request = request;
        this.tls = tls;
        this.tails = tails;
    }

    /**
     * The reply is complete and the request body unread: read the rest and drop it, so the client's stream ends
     * normally. A RST_STREAM here could cut the reply's own DATA frames still waiting for flow-control credit.
     */
    @Override
    public void lingerThenClose() {
        request.handler(null);
        request.resume();
    }

    @Override
    public void completed(Exchange exchange) {
        // Streams are independent: nothing waits on this one's end, but its last frames may still wait for the
        // client's window, past every stage's own send timeout.
        tails.watch(request);
    }

    /**
     * {@code 103 Early Hints} goes to the client as an HTTP/2 interim HEADERS frame, with the upstream's end-to-end
     * fields (names in lower case, as HTTP/2 requires) and this hop's {@code Via}, so a browser can start loading
     * what it names. Other 1xx are not relayed: {@code 102 Processing} tells an HTTP/2 client nothing its open stream
     * does not.
     */
    @Override
    public boolean sendInterim(int status, String reasonPhrase, MultiMap headers, CharSequence via) {
        if (status != EARLY_HINTS) {
            return false;
        }
        MultiMap endToEnd = HeadersMultiMap.httpHeaders();
        HopByHopHeaders.of(headers).copyEndToEnd(headers, endToEnd, null, null);
        MultiMap hints = HeadersMultiMap.httpHeaders();
        for (Map.Entry<String, String> field : endToEnd) {
            hints.add(field.getKey().toLowerCase(Locale.ROOT), field.getValue());
        }
        hints.add("via", via);
        request.response().writeEarlyHints(hints);
        return true;
    }

    /** HTTP/2 has no half-closed socket to probe: a client that leaves resets its stream or closes the connection. */
    @Override
    public boolean probeHalfClosed() {
        return false;
    }

    @Override
    public ClientTls tls() {
        return tls;
    }
}
