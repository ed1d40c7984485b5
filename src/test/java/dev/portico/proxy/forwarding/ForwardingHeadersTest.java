package dev.portico.proxy.forwarding;

import dev.portico.testing.DataPlaneTestSupport;
import dev.portico.testing.OriginServer;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient;
import dev.portico.testing.RawHttp;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * RFC 7239 Forwarded and the X-Forwarded-* family. The test profile trusts 127.0.0.2 only; requests from
 * 127.0.0.1 and ::1 are ordinary clients whose forwarding headers must be replaced.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class ForwardingHeadersTest extends DataPlaneTestSupport {

    private static Map<String, String> spoofed() {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Forwarded", "for=6.6.6.6;proto=https");
        headers.put("X-Forwarded-For", "6.6.6.6");
        headers.put("X-Forwarded-Proto", "https");
        headers.put("X-Forwarded-Host", "evil.example");
        headers.put("X-Real-IP", "6.6.6.6");
        return headers;
    }

    private JsonObject seenFrom(ProxyClient client, String host, Map<String, String> headers) {
        return client.send(HttpMethod.GET, host, "/echo", headers, null).json().getJsonObject("headers");
    }

    /** Asserts the five forwarding headers the upstream saw. */
    private static void assertForwarding(JsonObject seen, String forwarded, String forwardedFor, String proto,
                                         String host, String realIp) {
        assertEquals(forwarded, seen.getString("forwarded"));
        assertEquals(forwardedFor, seen.getString("x-forwarded-for"));
        assertEquals(proto, seen.getString("x-forwarded-proto"));
        assertEquals(host, seen.getString("x-forwarded-host"));
        assertEquals(realIp, seen.getString("x-real-ip"));
    }

    @Test
    void setsAllForwardingHeadersForAPlainClient() {
        vhost("fwd", "fwd.test", origin("a"));
        assertForwarding(seenFrom(client(), "fwd.test", Map.of()),
                "for=127.0.0.1;host=fwd.test;proto=http", "127.0.0.1", "http", "fwd.test", "127.0.0.1");
    }

    @Test
    void replacesSpoofedHeadersFromAnUntrustedPeer() {
        vhost("fwd", "fwd.test", origin("a"));
        assertForwarding(seenFrom(client(), "fwd.test", spoofed()),
                "for=127.0.0.1;host=fwd.test;proto=http", "127.0.0.1", "http", "fwd.test", "127.0.0.1");
    }

    @Test
    void extendsHeadersFromATrustedProxy() {
        vhost("fwd", "fwd.test", origin("a"));
        assertForwarding(seenFrom(client("127.0.0.1", "127.0.0.2"), "fwd.test", spoofed()),
                "for=6.6.6.6;proto=https, for=127.0.0.2;host=fwd.test;proto=http", "6.6.6.6, 127.0.0.2", "https",
                "evil.example", "6.6.6.6");
    }

    @Test
    void fillsMissingHeadersForATrustedProxy() {
        vhost("fwd", "fwd.test", origin("a"));
        assertForwarding(seenFrom(client("127.0.0.1", "127.0.0.2"), "fwd.test", Map.of()),
                "for=127.0.0.2;host=fwd.test;proto=http", "127.0.0.2", "http", "fwd.test", "127.0.0.2");
    }

    @Test
    void quotesAndBracketsIpv6ClientsAndQuotesHostsWithPorts() {
        vhost("fwd", "fwd.test", origin("a"));
        assertForwarding(seenFrom(client("::1", null), "fwd.test:8080", Map.of()),
                "for=\"[::1]\";host=\"fwd.test:8080\";proto=http", "::1", "http", "fwd.test:8080", "::1");
    }

    @Test
    void routesAbsoluteFormByItsAuthorityAndForwardsOriginForm() throws Exception {
        OriginServer origin = origin("a");
        vhost("absolute", "absolute.test", origin);
        String raw = RawHttp.exchange(dataPlane.port(), "GET http://absolute.test/echo?x=1 HTTP/1.1\r\n"
                + "Host: ignored.test\r\nConnection: close\r\n\r\n");
        assertEquals(200, RawHttp.status(raw));
        OriginServer.Seen seen = origin.nextSeen();
        assertEquals("/echo?x=1", seen.uri());
        assertEquals("absolute.test", seen.headers().get("Host"));
        assertTrue(seen.headers().get("Forwarded").contains("host=absolute.test"));
    }
}
