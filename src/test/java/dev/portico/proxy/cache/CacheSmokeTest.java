package dev.portico.proxy.cache;

import dev.portico.proxy.server.DataPlaneServer;
import dev.portico.testing.Api;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient;
import dev.portico.testing.ScriptedOrigin;
import dev.portico.testing.ScriptedOrigin.Reply;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class CacheSmokeTest {

    @Inject
    DataPlaneServer dataPlane;

    ScriptedOrigin origin;
    ProxyClient client;

    @AfterEach
    void cleanUp() {
        Api.deleteAll();
        if (origin != null) {
            origin.close();
        }
        if (client != null) {
            client.close();
        }
    }

    @Test
    void secondRequestIsAHit() {
        origin = ScriptedOrigin.start().on("/a", Reply.of(200, "hello", "Cache-Control", "max-age=60",
                "Content-Type", "text/plain"));
        JsonObject vhost = Api.vhost("cached", "cached.test", origin.url())
                .put("cache", new JsonObject().put("enabled", true));
        Api.create(vhost);
        client = new ProxyClient(dataPlane.port());
        ProxyClient.Reply first = client.get("cached.test", "/a");
        assertEquals(200, first.status());
        assertEquals("hello", first.text());
        assertEquals("Portico; fwd=miss; stored", first.header("Cache-Status"));
        ProxyClient.Reply second = client.get("cached.test", "/a");
        assertEquals(200, second.status());
        assertEquals("hello", second.text());
        assertTrue(second.header("Cache-Status").startsWith("Portico; hit; ttl="), second.header("Cache-Status"));
        assertEquals("text/plain", second.header("Content-Type"));
        assertEquals(1, origin.count("/a"));
    }
}
