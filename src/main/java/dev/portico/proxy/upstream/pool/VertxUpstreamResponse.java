package dev.portico.proxy.upstream.pool;

import io.vertx.core.Handler;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpVersion;

/** An {@link UpstreamResponse} from Vert.x's client, with its connection's {@link BodyHandoff} when it has one. */
final class VertxUpstreamResponse implements UpstreamResponse {

    private final HttpClientResponse response;

    VertxUpstreamResponse(HttpClientResponse response) {
        this.response = response;
    }

    @Override
    public int statusCode() {
        return response.statusCode();
    }

    @Override
    public String statusMessage() {
        return response.statusMessage();
    }

    @Override
    public MultiMap headers() {
        return response.headers();
    }

    @Override
    public MultiMap trailers() {
        return response.trailers();
    }

    @Override
    public HttpVersion version() {
        return response.version();
    }

    @Override
    public BodySource bodySource() {
        return BodyHandoff.of(response.request().connection());
    }

    @Override
    public HttpClientResponse vertx() {
        return response;
    }

    @Override
    public UpstreamResponse exceptionHandler(Handler<Throwable> handler) {
        response.exceptionHandler(handler);
        return this;
    }

    @Override
    public UpstreamResponse handler(Handler<Buffer> handler) {
        response.handler(handler);
        return this;
    }

    @Override
    public UpstreamResponse pause() {
        response.pause();
        return this;
    }

    @Override
    public UpstreamResponse resume() {
        response.resume();
        return this;
    }

    @Override
    public UpstreamResponse fetch(long amount) {
        response.fetch(amount);
        return this;
    }

    @Override
    public UpstreamResponse endHandler(Handler<Void> endHandler) {
        response.endHandler(endHandler);
        return this;
    }
}
