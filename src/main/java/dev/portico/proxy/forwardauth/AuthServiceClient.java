package dev.portico.proxy.forwardauth;

import dev.portico.proxy.core.RuntimeKey;
import dev.portico.vhost.ForwardAuthSpec;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;

import java.util.concurrent.atomic.AtomicReference;

/**
 * What one vhost's (or route's) forward auth keeps across routing snapshots while its settings stay the same: the
 * HTTP client whose pooled keep-alive connections reach the auth service, and the decision cache. The client is
 * made on the first request, from its event loop's Vert.x (the compiler has none); two loops racing to make it keep
 * the first and close the other. A client left behind by a settings change is closed by Vert.x once unreachable,
 * and its idle connections time out before that.
 */
final class AuthServiceClient {

    static final RuntimeKey<AuthServiceClient> KEY = RuntimeKey.create("forward auth", AuthServiceClient.class);
    /** Enough connections for bursts on every loop; the service is asked once per request not decided from cache. */
    private static final int MAX_CONNECTIONS = 64;
    private static final int IDLE_SECONDS = 30;

    private final AtomicReference<HttpClient> client = new AtomicReference<>();
    private final int connectTimeoutMillis;
    private final DecisionCache decisions;

    AuthServiceClient(ForwardAuthSpec spec) {
        this.connectTimeoutMillis = (int) Math.max(1, spec.timeout().toMillis());
        this.decisions = new DecisionCache(spec.cacheFor().toNanos());
    }

    DecisionCache decisions() {
        return decisions;
    }

    HttpClient client(Vertx vertx) {
        HttpClient made = client.get();
        if (made != null) {
            return made;
        }
        HttpClient fresh = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true)
                .setMaxPoolSize(MAX_CONNECTIONS).setConnectTimeout(connectTimeoutMillis)
                .setKeepAliveTimeout(IDLE_SECONDS).setTrustAll(false).setVerifyHost(true));
        if (client.compareAndSet(null, fresh)) {
            return fresh;
        }
        fresh.close();
        return client.get();
    }
}
