package dev.portico.dataplane;

import dev.portico.testing.Api;
import dev.portico.testing.OriginServer;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class SmokeTest {

    @Inject
    DataPlaneServer dataPlane;

    @Test
    void proxies() throws Exception {
        try (OriginServer origin = OriginServer.start("a"); ProxyClient client = new ProxyClient(dataPlane.port())) {
            String id = Api.create(Api.vhost("smoke", "smoke.test", origin.url()));
            ProxyClient.Reply reply = client.get("smoke.test", "/echo?x=1");
            System.out.println(reply.status() + " " + reply.headers() + " " + reply.text());
            assertEquals(200, reply.status());
            ProxyClient.Reply missing = client.get("nothing.test", "/");
            System.out.println(missing.status() + " " + missing.headers() + " " + missing.text());
            Api.delete(id);
        }
    }
}
