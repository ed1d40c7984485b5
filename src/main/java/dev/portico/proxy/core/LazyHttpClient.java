package dev.portico.proxy.core;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;

import java.util.concurrent.atomic.AtomicReference;

/**
 * An HTTP client a stage's state across snapshots owns (the forward-auth service's, a JWKS endpoint's), made on the
 * first request from that request's event loop, since the snapshot compiler has no Vert.x. Two loops racing to make
 * it keep the first and close the other; no lock. A client left behind when its state is dropped is closed by Vert.x
 * once unreachable, and its idle connections time out before that.
 */
public final class LazyHttpClient {

    private final AtomicReference<HttpClient> client = new AtomicReference<>();
    private final HttpClientOptions options;

    public LazyHttpClient(HttpClientOptions options) {
        this.options = new HttpClientOptions(options);
    }

    /** The client, made with {@code vertx} if this is the first call. */
    public HttpClient get(Vertx vertx) {
        HttpClient made = client.get();
        if (made != null) {
            return made;
        }
        HttpClient fresh = vertx.createHttpClient(options);
        if (client.compareAndSet(null, fresh)) {
            return fresh;
        }
        fresh.close();
        return client.get();
    }
}
