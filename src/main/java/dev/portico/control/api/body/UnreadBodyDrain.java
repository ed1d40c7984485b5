package dev.portico.control.api.body;

import io.quarkus.vertx.http.runtime.RouteConstants;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

/**
 * What happens to a request body the API answered without reading all of it: a 401 before the body, a 413, a 404
 * for a path that takes none. On HTTP/1.1 the rest of the body is still on its way, in front of the next request on
 * the connection, so it is read and thrown away once the answer is out.
 *
 * <ul>
 *   <li>A body within the limit is discarded and the connection kept alive (what Quarkus does while its own limit is
 *       on; it is off, see the package documentation).</li>
 *   <li>A body over the limit (declared, or counted while discarding), and any 413, get {@code Connection: close}
 *       on the answer, and the connection is closed once the body has arrived, or {@value #LINGER_MS} ms after the
 *       answer, like nginx's lingering close ({@code lingering_time 30s}). Closing at once could reset the
 *       connection while the client is still sending, and a client that writes its whole body before reading would
 *       lose the answer.</li>
 * </ul>
 */
@Singleton
public class UnreadBodyDrain {

    static final long LINGER_MS = 30_000;

    private final ApiBodyLimit limit;

    public UnreadBodyDrain(ApiBodyLimit limit) {
        this.limit = limit;
    }

    void register(@Observes Router router) {
        // Where Quarkus' own body limit would sit: before the REST handlers, so every answer gets the hooks.
        router.route().order(RouteConstants.ROUTE_ORDER_UPLOAD_LIMIT).handler(this::watch);
    }

    private void watch(RoutingContext ctx) {
        HttpServerRequest request = ctx.request();
        if (request.version() != HttpVersion.HTTP_2 && !request.isEnded()) {
            ctx.addHeadersEndHandler(v -> {
                // nginx also ends keep-alive after every 413: the client sent what the server will not take.
                if (ctx.response().getStatusCode() == 413 || overLimit(request)) {
                    ctx.response().putHeader(HttpHeaders.CONNECTION, HttpHeaders.CLOSE);
                }
            });
            // The answer may end on a worker thread; the request's handlers belong on its event loop.
            Context eventLoop = Vertx.currentContext();
            ctx.addEndHandler(done -> {
                if (done.succeeded()) {
                    eventLoop.runOnContext(v -> drain(ctx));
                }
            });
        }
        ctx.next();
    }

    private boolean overLimit(HttpServerRequest request) {
        long declared = DeclaredBodyLimit.declaredLength(request.getHeader(HttpHeaders.CONTENT_LENGTH));
        return !request.isEnded() && (declared > limit.bytes() || request.bytesRead() > limit.bytes());
    }

    private void drain(RoutingContext ctx) {
        HttpServerRequest request = ctx.request();
        boolean closing = HttpHeaders.CLOSE.toString().equalsIgnoreCase(ctx.response().headers()
                .get(HttpHeaders.CONNECTION));
        long timer = -1;
        if (!request.isEnded()) {
            timer = closing ? ctx.vertx().setTimer(LINGER_MS, id -> request.connection().close()) : -1;
            long lingering = timer;
            // The client going away meanwhile is expected, not an error to report.
            request.exceptionHandler(ignored -> {
            });
            request.handler(discarded -> {
                if (!closing && request.bytesRead() > limit.bytes()) {
                    // A chunked body that grew past the limit after a keep-alive answer: stop reading it.
                    request.connection().close();
                }
            });
            request.endHandler(ended -> finished(ctx, closing, lingering));
            request.resume();
        }
        // Also true now for a request whose end a reader had taken before it stopped: only the pause hid it.
        if (request.isEnded()) {
            finished(ctx, closing, timer);
        }
    }

    private static void finished(RoutingContext ctx, boolean closing, long timer) {
        if (closing) {
            // RFC 9112 section 9.6: after answering "Connection: close" the server closes the connection.
            ctx.vertx().cancelTimer(timer);
            ctx.request().connection().close();
        }
    }
}
