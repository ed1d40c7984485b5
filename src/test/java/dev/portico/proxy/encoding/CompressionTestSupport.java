package dev.portico.proxy.encoding;

import dev.portico.proxy.server.DataPlaneServer;
import dev.portico.testing.Api;
import dev.portico.testing.Decode;
import dev.portico.testing.ProxyClient;
import dev.portico.testing.TextOrigin;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** Shared set-up of the compression tests: a text origin on loopback, a real client, a clean configuration. */
abstract class CompressionTestSupport {

    @Inject
    DataPlaneServer dataPlane;

    TextOrigin origin;
    ProxyClient client;

    @BeforeEach
    void startOrigin() {
        origin = TextOrigin.start();
        client = new ProxyClient(dataPlane.port());
    }

    @AfterEach
    void cleanUp() {
        Api.deleteAll();
        origin.close();
        client.close();
    }

    /** A compression block with {@code enabled: true} and the given settings. */
    static JsonObject compression(Object... settings) {
        return Api.enabled(settings);
    }

    /** A vhost named after {@code host} in front of the origin. */
    JsonObject vhost(String host, JsonObject compression) {
        return Api.vhost(host.replace('.', '-'), host, origin.url()).put("compression", compression);
    }

    ProxyClient.Reply get(String host, String uri, String... headerPairs) {
        return send(HttpMethod.GET, host, uri, headerPairs);
    }

    ProxyClient.Reply send(HttpMethod method, String host, String uri, String... headerPairs) {
        return client.send(method, host, uri, headerPairs);
    }

    /** The body decoded per its Content-Encoding. */
    static byte[] decoded(ProxyClient.Reply reply) {
        return Decode.body(reply.header("Content-Encoding"), reply.body().getBytes());
    }
}
