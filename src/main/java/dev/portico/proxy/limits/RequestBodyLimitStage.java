package dev.portico.proxy.limits;

import dev.portico.http.DeclaredLength;
import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.Stage;
import dev.portico.proxy.core.StageFactory;
import dev.portico.proxy.core.outcome.LocalReason;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.streams.ReadStream;

/**
 * A vhost's {@code maxRequestBody}, like nginx's {@code client_max_body_size}: a request that declares a longer body
 * with {@code Content-Length} gets 413 at once, before any upstream is connected and before an
 * {@code Expect: 100-continue} is answered (RFC 9110 section 10.1.1 lets a server answer the final status instead),
 * and its connection is closed, since the body is left unread. A chunked body cannot be judged from its head: it is
 * counted as it is forwarded ({@link CountedRequestBody}). Only in the pipeline of a vhost that has a limit.
 */
public final class RequestBodyLimitStage implements Stage {

    private final long maxBytes;

    /** @param maxBytes the largest body accepted, at least 1 */
    /** No stage at all without a limit. */
    public static final StageFactory FACTORY = context -> context.maxRequestBody() > 0
            ? new RequestBodyLimitStage(context.maxRequestBody()) : null;

    public RequestBodyLimitStage(long maxBytes) {
        if (maxBytes < 1) {
            throw new IllegalArgumentException("a body limit must be at least one byte");
        }
        this.maxBytes = maxBytes;
    }

    @Override
    public Flow onRequest(Exchange exchange) {
        HttpServerRequest request = exchange.request();
        long declared = DeclaredLength.of(request.headers());
        if (declared > maxBytes) {
            exchange.replyLocal(LocalReason.REQUEST_BODY_TOO_LARGE, "The request body (" + declared
                    + " bytes) is larger than this vhost accepts (" + maxBytes + " bytes)", true);
            return Flow.TAKEN;
        }
        return Flow.NEXT;
    }

    @Override
    public ReadStream<Buffer> onRequestBody(Exchange exchange, ReadStream<Buffer> body) {
        // Netty drops a Content-Length sent along with Transfer-Encoding, so a chunked body has no declared length.
        HttpServerRequest request = exchange.request();
        if (DeclaredLength.of(request.headers()) < 0 && request.headers().contains(HttpHeaders.TRANSFER_ENCODING)) {
            return new CountedRequestBody(exchange, body, maxBytes);
        }
        return body;
    }

    /** The largest body accepted, in bytes. */
    public long maxBytes() {
        return maxBytes;
    }
}
