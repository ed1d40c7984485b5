package dev.portico.proxy.encoding;

import dev.portico.http.coding.BodyEncoder;
import dev.portico.http.coding.CompressionPolicy;
import dev.portico.http.negotiation.AcceptEncoding;
import dev.portico.proxy.core.BodyFilter;
import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.Slot;
import dev.portico.proxy.core.Stage;
import dev.portico.proxy.core.StageFactory;
import dev.portico.proxy.core.SubRequest;
import dev.portico.proxy.core.SubResponse;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;

/**
 * Compresses what the upstreams answer (gzip, Brotli, Zstandard, as the client accepts and the vhost allows), like
 * nginx's gzip filter: in the upstream response phase it decides and rewrites the head ({@code Content-Encoding},
 * {@code Vary}, a weakened {@code ETag}, no {@code Content-Length}); in the response body phase its filter streams the
 * body through the codec. It sits inside the cache, which so stores the response as the client gets it, and outside
 * the static files, which choose their representation themselves (precompressed siblings, compressed copies of small
 * files) with the same policy, as nginx's gzip_static does. A background refresh passing through is compressed as a
 * client with the triggering request's {@code Accept-Encoding} would get it.
 */
public final class CompressionStage implements Stage {

    /** On a vhost that compresses. */
    public static final StageFactory FACTORY = context -> context.compression() == null ? null
            : new CompressionStage(context.compression());

    /** The coding chosen for this request's upstream response, and the body's declared length. */
    private static final Slot<Exchange, CompressionPolicy.Decision> CHOSEN = Slot.declare(Exchange.class,
            "response coding");

    private final CompressionPolicy policy;

    public CompressionStage(CompressionPolicy policy) {
        this.policy = policy;
    }

    @Override
    public Flow onUpstreamResponse(Exchange exchange, int status) {
        HttpServerRequest request = exchange.request();
        CompressionPolicy.Decision decision = policy.decide(request.method(), request.version(),
                exchange.clientAcceptEncoding(), status, exchange.response().headers(), -1);
        if (decision != null) {
            exchange.put(CHOSEN, decision);
        }
        return Flow.NEXT;
    }

    @Override
    public BodyFilter onResponseBody(Exchange exchange) {
        CompressionPolicy.Decision chosen = exchange.get(CHOSEN);
        if (chosen == null) {
            return null;
        }
        // Asked once per response: the encoder (native memory) exists only for a body that is really streamed.
        exchange.put(CHOSEN, null);
        return new Encoding(policy.encoder(chosen.coding(), chosen.length()));
    }

    /**
     * The refreshed body as an HTTP/1.1 client with the triggering request's {@code Accept-Encoding} gets it,
     * compressed on a worker thread, since the whole body (up to the cache's object size) is at hand; only a body
     * the sub-request's maker keeps (a cache stores it), and whatever its status, as the policy allows (a 304 or an
     * error the cache ignores is left alone).
     */
    @Override
    public Future<SubResponse> onSubRequest(SubRequest request, SubRequest.Next next) {
        // Taken before the stages inside edit the sub-request, as for a client's request.
        String acceptEncoding = AcceptEncoding.of(request.headers());
        return next.proceed(request).compose(response -> {
            if (response.body() == null || response.status() == 304 || response.status() >= 500
                    || !request.keeps(response)) {
                return Future.succeededFuture(response);
            }
            BodyEncoder encoder = policy.begin(HttpMethod.GET, HttpVersion.HTTP_1_1, acceptEncoding,
                    response.status(), response.headers(), response.body().length());
            if (encoder == null) {
                return Future.succeededFuture(response);
            }
            Buffer body = response.body();
            return request.parent().loop().context()
                    .executeBlocking(() -> {
                        try {
                            return encoder.encode(body).appendBuffer(encoder.finish());
                        } finally {
                            // Idempotent after finish; frees the codec's native memory when encoding failed.
                            encoder.release();
                        }
                    }, false)
                    .onFailure(rejected -> encoder.release())
                    .map(response::withBody);
        });
    }

    /**
     * Whether an eligible response went out uncompressed only because the request was HTTP/1.0: a cache must not
     * store it, or HTTP/1.1 clients with the same {@code Accept-Encoding} would be answered uncompressed.
     */
    public boolean withheldFromHttp10(HttpVersion version, MultiMap requestHeaders, MultiMap responseHeaders) {
        return policy.withheldFromHttp10(version, requestHeaders, responseHeaders);
    }

    /** The response body phase's part: the codec, fed piece by piece. */
    private static final class Encoding implements BodyFilter {
        private final BodyEncoder encoder;

        Encoding(BodyEncoder encoder) {
            this.encoder = encoder;
        }

        @Override
        public Buffer piece(Buffer piece) {
            return encoder.encode(piece);
        }

        @Override
        public Buffer end() {
            return encoder.finish();
        }

        @Override
        public boolean ended() {
            return encoder.finished();
        }

        @Override
        public void broken() {
            encoder.release();
        }

        /** Every codec copies its input into its own state and returns new bytes. */
        @Override
        public boolean keepsPieces() {
            return false;
        }
    }
}
