package dev.portico.proxy.upstream.balance;

import dev.portico.testing.DataPlaneTestSupport;
import dev.portico.testing.Eventually;
import dev.portico.testing.OriginServer;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Sticky sessions through the data plane: the cookie issued, honoured, a forged one ignored, and a fallback with a new
 * cookie when its upstream is out; and a slow start that gives an upstream coming back a small share.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class StickyCookieTest extends DataPlaneTestSupport {

    /** The value the response's sticky cookie sets, or null when it sets none. */
    private static String cookie(ProxyClient.Reply reply, String name) {
        for (String field : reply.headers().getAll("Set-Cookie")) {
            if (field.startsWith(name + "=")) {
                assertTrue(field.contains("; Max-Age=1800") && field.contains("HttpOnly"), field);
                return field.substring(name.length() + 1, field.indexOf(';'));
            }
        }
        return null;
    }

    private static ProxyClient.Reply get(ProxyClient client, String cookie) {
        return cookie == null ? client.get("sticky.test", "/echo")
                : client.send(HttpMethod.GET, "sticky.test", "/echo", "Cookie", "theme=dark; lb=" + cookie);
    }

    @Test
    void theCookieKeepsAClientOnItsUpstreamUntilThatOneIsOut() {
        OriginServer a = origin("a");
        OriginServer b = origin("b");
        vhost(BalancingPoliciesTest.balanced("sticky", "sticky", a, b)
                .put("sticky", new JsonObject().put("cookie", "lb").put("ttl", "30m")));
        ProxyClient client = new ProxyClient(dataPlane.port(), "127.0.0.1", null, 1);

        ProxyClient.Reply first = get(client, null);
        String issued = cookie(first, "lb");
        assertNotNull(issued, "the first response names its upstream");
        String home = first.header("X-Origin");
        for (int i = 0; i < 10; i++) {
            ProxyClient.Reply again = get(client, issued);
            assertEquals(home, again.header("X-Origin"), "request " + i + " with the cookie");
            assertNull(cookie(again, "lb"), "a fresh valid cookie is not sent again");
        }

        // A forged cookie: one character inside the MAC changed (all 6 of its bits are MAC bits). Ignored, so
        // requests go round robin, each re-issued.
        int inMac = issued.length() - 5;
        String forged = issued.substring(0, inMac) + (issued.charAt(inMac) == 'A' ? 'B' : 'A')
                + issued.substring(inMac + 1);
        assertForgeryIgnored(client, forged, "a forged cookie");
        // The genuine cookie spelt with its last character's padding bits set: the JDK decodes it to the same bytes,
        // but it is not what was issued, and a cookie is one string.
        char last = issued.charAt(issued.length() - 1);
        String padded = issued.substring(0, issued.length() - 1) + (char) (last + 1);
        assertForgeryIgnored(client, padded, "a cookie with padding bits set");

        // Its upstream out: the other one answers and the cookie moves with it.
        (home.equals("a") ? a : b).close();
        // A keep-alive connection to it may linger in the pool for a moment; a request on it fails without a retry.
        ProxyClient.Reply fallback = Eventually.value(Duration.ofSeconds(5), () -> get(client, issued),
                reply -> reply.status() == 200);
        String other = home.equals("a") ? "b" : "a";
        assertEquals(other, fallback.header("X-Origin"));
        String moved = cookie(fallback, "lb");
        assertNotNull(moved, "the cookie is re-issued for the upstream that answered");
        assertNotEquals(issued, moved);
        for (int i = 0; i < 5; i++) {
            assertEquals(other, get(client, moved).header("X-Origin"));
        }
        client.close();
    }

    private static void assertForgeryIgnored(ProxyClient client, String forged, String what) {
        Set<String> reached = new HashSet<>();
        for (int i = 0; i < 4; i++) {
            ProxyClient.Reply reply = get(client, forged);
            reached.add(reply.header("X-Origin"));
            assertNotNull(cookie(reply, "lb"), what + " is replaced: " + forged);
        }
        assertEquals(Set.of("a", "b"), reached, what + " named nobody");
    }

    @Test
    void anUpstreamComingBackGetsASmallShareDuringItsSlowStart() throws Exception {
        OriginServer steady = origin("steady");
        OriginServer returning = origin("returning");
        int port = returning.port();
        vhost(new JsonObject().put("name", "ramp").put("hostnames", new JsonArray().add("ramp.test"))
                .put("upstreams", new JsonArray().add(new JsonObject().put("url", steady.url()))
                        .add(new JsonObject().put("url", returning.url())))
                .put("slowStart", "1h"));
        ProxyClient client = new ProxyClient(dataPlane.port(), "127.0.0.1", null, 1);
        Map<String, Integer> before = BalancingPoliciesTest.spread(client, "ramp.test", 10, 1);
        assertTrue(before.getOrDefault("returning", 0) >= 4, "never out: its full weight, " + before);

        returning.close();
        for (int i = 0; i < 4; i++) {
            // Takes it out (connection refused, and the request retried on the other one).
            client.get("ramp.test", "/echo");
        }
        OriginServer back = OriginServer.start("returning", port);
        try {
            // Passive health lets it be probed after the fail timeout (10 s); the probe's success is its return.
            Eventually.within(Duration.ofSeconds(30), () -> {
                client.get("ramp.test", "/echo");
                assertTrue(back.requestCount() > 0);
            });
            int probed = back.requestCount();
            Map<String, Integer> ramping = BalancingPoliciesTest.spread(client, "ramp.test", 200, 1);
            int share = ramping.getOrDefault("returning", 0);
            // 10% of its weight against the other's 100%: about 9 in 100; 100 without slow start.
            assertTrue(share >= 1 && share <= 40, "returning upstream got " + share + " of 200: " + ramping
                    + " (after " + probed + " probe)");
        } finally {
            back.close();
            client.close();
        }
    }
}
