package dev.portico.proxy.forwardauth;

import dev.portico.proxy.core.LazyHttpClient;
import dev.portico.proxy.core.RuntimeKey;
import dev.portico.vhost.ForwardAuthSpec;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;

/**
 * What one vhost's (or route's) forward auth keeps across routing snapshots while its settings stay the same: the
 * HTTP client whose pooled keep-alive connections reach the auth service, and the decision cache.
 */
final class AuthServiceClient {

    static final RuntimeKey<AuthServiceClient> KEY = RuntimeKey.create("forward auth", AuthServiceClient.class);
    /** Enough connections for bursts on every loop; the service is asked once per request not decided from cache. */
    private static final int MAX_CONNECTIONS = 64;
    private static final int IDLE_SECONDS = 30;

    private final LazyHttpClient client;
    private final DecisionCache decisions;

    AuthServiceClient(ForwardAuthSpec spec) {
        this.client = new LazyHttpClient(new HttpClientOptions().setKeepAlive(true).setMaxPoolSize(MAX_CONNECTIONS)
                .setConnectTimeout((int) Math.max(1, spec.timeout().toMillis())).setKeepAliveTimeout(IDLE_SECONDS)
                .setVerifyHost(true));
        this.decisions = new DecisionCache(spec.cacheFor().toNanos());
    }

    DecisionCache decisions() {
        return decisions;
    }

    HttpClient client(Vertx vertx) {
        return client.get(vertx);
    }
}
