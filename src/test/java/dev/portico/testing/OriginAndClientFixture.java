package dev.portico.testing;

import dev.portico.proxy.server.DataPlaneServer;
import io.vertx.core.http.HttpMethod;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import java.util.function.Supplier;

/**
 * The set-up the cache and compression tests share: a fresh origin of the kind the feature needs, started on loopback
 * before each test, a real client of the data plane, and a clean configuration (every vhost deleted, so an empty
 * store) after each test. Feature supports extend it with their own vhost helpers and assertions.
 *
 * @param <O> the origin the feature's tests script ({@link ScriptedOrigin}, {@link TextOrigin} ...)
 */
public abstract class OriginAndClientFixture<O extends AutoCloseable> {

    private final Supplier<O> startOrigin;

    @Inject
    protected DataPlaneServer dataPlane;

    protected O origin;
    protected ProxyClient client;

    protected OriginAndClientFixture(Supplier<O> startOrigin) {
        this.startOrigin = startOrigin;
    }

    @BeforeEach
    void startOriginAndClient() {
        origin = startOrigin.get();
        client = new ProxyClient(dataPlane.port());
    }

    @AfterEach
    void cleanUp() throws Exception {
        Api.deleteAll();
        origin.close();
        client.close();
    }

    protected ProxyClient.Reply get(String host, String uri, String... headerPairs) {
        return send(HttpMethod.GET, host, uri, headerPairs);
    }

    protected ProxyClient.Reply send(HttpMethod method, String host, String uri, String... headerPairs) {
        return client.send(method, host, uri, headerPairs);
    }
}
