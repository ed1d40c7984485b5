package dev.portico.proxy.upstream;

import dev.portico.testing.Api;
import dev.portico.testing.DataPlaneTestSupport;
import dev.portico.testing.Eventually;
import dev.portico.testing.LoopbackDns;
import dev.portico.testing.OriginServer;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Upstream host names resolved by Portico (a real DNS server on loopback answers them): a name with several
 * addresses is several upstreams, a changed record moves the traffic within its TTL, and a DNS outage keeps the
 * last addresses serving while {@code /api/v1/status} reports it.
 */
@QuarkusTest
@TestProfile(UpstreamDnsTest.WithLoopbackDns.class)
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class UpstreamDnsTest extends DataPlaneTestSupport {

    /** The DNS server outlives the tests of the class: Portico reads its address once, at start. */
    static final LoopbackDns DNS = LoopbackDns.start();

    /** Portico asks the loopback DNS server, and keeps answers one to two seconds. */
    public static final class WithLoopbackDns implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("portico.upstream.dns.servers", DNS.address(), "portico.upstream.dns.min-ttl", "1s",
                    "portico.upstream.dns.max-ttl", "2s", "portico.upstream.dns.timeout", "300ms");
        }
    }

    private OriginServer first;
    private OriginServer second;

    /** Two origins on one port of two loopback addresses, as two pods behind one headless Service. */
    @BeforeEach
    void origins() {
        first = OriginServer.start("pod-a", "127.0.0.2");
        second = OriginServer.start("pod-b", "127.0.0.3", first.port());
        DNS.silent(false);
    }

    @AfterEach
    void stopOrigins() {
        first.close();
        second.close();
    }

    private void vhost(String name, String upstreamHost) {
        vhost(new JsonObject().put("name", name).put("hostnames", new JsonArray().add(name + ".test"))
                .put("upstreams", new JsonArray().add(new JsonObject()
                        .put("url", "http://" + upstreamHost + ":" + first.port()))));
    }

    private void send(ProxyClient client, String host, int requests) {
        for (int i = 0; i < requests; i++) {
            assertEquals(200, client.get(host, "/echo").status());
        }
    }

    @Test
    void aNameWithSeveralAddressesIsSeveralUpstreamsAndAChangedRecordMovesTrafficWithinItsTtl() {
        DNS.answer("pods.portico.test", 1, "127.0.0.2", "127.0.0.3");
        vhost("pods", "pods.portico.test");
        ProxyClient client = client();

        Eventually.within(Duration.ofSeconds(15), () -> {
            send(client, "pods.test", 10);
            assertTrue(first.requestCount() > 0 && second.requestCount() > 0,
                    "both addresses served: " + first.requestCount() + " / " + second.requestCount());
        });

        DNS.answer("pods.portico.test", 1, "127.0.0.3");
        Eventually.within(Duration.ofSeconds(15), () -> {
            int before = first.requestCount();
            send(client, "pods.test", 10);
            assertEquals(before, first.requestCount(), "the removed address gets no more requests");
        });
    }

    @Test
    void aDnsOutageKeepsTheLastAddressesAndIsReported() throws Exception {
        DNS.answer("outage.portico.test", 1, "127.0.0.2", "127.0.0.3");
        vhost("outage", "outage.portico.test");
        ProxyClient client = client();
        Eventually.within(Duration.ofSeconds(15), () -> {
            send(client, "outage.test", 10);
            assertTrue(first.requestCount() > 0 && second.requestCount() > 0, "both addresses served");
        });

        DNS.silent(true);
        int queries = DNS.queries();
        Eventually.within(Duration.ofSeconds(15), () -> assertTrue(Api.given().get("/api/v1/status").then()
                .statusCode(200).extract().jsonPath().getList("dnsProblems.name").contains("outage.portico.test"),
                "the outage is reported"));
        assertTrue(DNS.queries() > queries, "asked again after the TTL");

        int firstBefore = first.requestCount();
        int secondBefore = second.requestCount();
        send(client, "outage.test", 20);
        assertTrue(first.requestCount() > firstBefore && second.requestCount() > secondBefore,
                "both last addresses still served");

        DNS.silent(false);
        Eventually.within(Duration.ofSeconds(15), () -> assertTrue(Api.given().get("/api/v1/status").then()
                .statusCode(200).extract().jsonPath().getList("dnsProblems").isEmpty(), "resolved again"));
    }
}
