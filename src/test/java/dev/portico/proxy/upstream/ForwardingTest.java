package dev.portico.proxy.upstream;

import dev.portico.testing.Api;
import dev.portico.testing.DataPlaneTestSupport;
import dev.portico.testing.OriginServer;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient;
import dev.portico.testing.RawHttp;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What reaches the upstream and what comes back: methods, targets, headers, bodies, header rules. */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class ForwardingTest extends DataPlaneTestSupport {

    @Test
    void forwardsEveryMethodWithItsBody() throws Exception {
        OriginServer origin = origin("a");
        vhost("methods", "methods.test", origin);
        ProxyClient client = client();
        byte[] body = "payload-Ω".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
        for (HttpMethod method : new HttpMethod[]{HttpMethod.POST, HttpMethod.PUT, HttpMethod.PATCH,
                HttpMethod.DELETE}) {
            ProxyClient.Reply reply = client.send(method, "methods.test", "/echo", Map.of(), Buffer.buffer(body));
            assertEquals(200, reply.status(), method.name());
            assertEquals(method.name(), reply.json().getString("method"));
            assertEquals(body.length, reply.json().getLong("bodyLength"));
            assertEquals(sha, reply.json().getString("bodySha256"));
        }
        for (HttpMethod method : new HttpMethod[]{HttpMethod.GET, HttpMethod.OPTIONS}) {
            ProxyClient.Reply reply = client.send(method, "methods.test", "/echo", Map.of(), null);
            assertEquals(method.name(), reply.json().getString("method"));
            assertEquals(0, reply.json().getLong("bodyLength"));
        }
        ProxyClient.Reply head = client.send(HttpMethod.HEAD, "methods.test", "/bytes/1234", Map.of(), null);
        assertEquals(200, head.status());
        assertEquals("1234", head.header("Content-Length"));
        assertEquals(0, head.body().length());
    }

    @Test
    void relaysTheStatusCodeAndAnyCustomReasonPhrase() throws Exception {
        vhost("reasons", "reasons.test", origin("a"));
        assertEquals("HTTP/1.1 200 OK", statusLine("/reason/200/OK"));
        assertEquals("HTTP/1.1 200 Fine", statusLine("/reason/200/Fine"));
        assertEquals("HTTP/1.1 404 Not Found", statusLine("/status/404"));
        assertEquals("HTTP/1.1 299 Custom", statusLine("/reason/299/Custom"));
    }

    private String statusLine(String path) throws Exception {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), dataPlane.port())) {
            socket.setSoTimeout(5000);
            socket.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: reasons.test\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            String head = RawHttp.readUntil(socket.getInputStream(), "\r\n");
            return head.substring(0, head.length() - 2);
        }
    }

    @Test
    void keepsPathAndQueryExactlyAsSent() {
        OriginServer origin = origin("a");
        vhost("query", "query.test", origin);
        String uri = "/echo/a%2Fb/%C3%A9?q=1&q=2&empty=&sp=a%20b&plus=a+b";
        assertEquals(uri, client().get("query.test", uri).json().getString("uri"));
    }

    @Test
    void prependsTheUpstreamBasePath() {
        OriginServer origin = origin("a");
        vhost(Api.vhost("base", "base.test", origin.url() + "/echo/base/"));
        assertEquals("/echo/base/x/y?z=1", client().get("base.test", "/x/y?z=1").json().getString("uri"));
    }

    @Test
    void forwardsEndToEndHeadersAndRepeatedValues() throws Exception {
        OriginServer origin = origin("a");
        vhost("headers", "headers.test", origin);
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("X-Custom", "one");
        headers.put("Accept", "text/plain");
        headers.put("Cookie", "a=1; b=2");
        headers.put("Authorization", "Bearer upstream-token");
        ProxyClient.Reply reply = client().send(HttpMethod.GET, "headers.test", "/echo", headers, null);
        JsonObject seen = reply.json().getJsonObject("headers");
        assertEquals("one", seen.getString("x-custom"));
        assertEquals("text/plain", seen.getString("accept"));
        assertEquals("a=1; b=2", seen.getString("cookie"));
        assertEquals("Bearer upstream-token", seen.getString("authorization"));
    }

    @Test
    void preservesTheClientHostByDefaultAndCanSendTheUpstreamsInstead() {
        OriginServer origin = origin("a");
        vhost("keep-host", "keep.test", origin);
        assertEquals("keep.test:8443", client().get("keep.test:8443", "/echo").json().getJsonObject("headers")
                .getString("host"));

        vhost(Api.vhost("upstream-host", "upstream-host.test", origin.url()).put("preserveHost", false));
        assertEquals("127.0.0.1:" + origin.port(), client().get("upstream-host.test", "/echo").json()
                .getJsonObject("headers").getString("host"));
    }

    @Test
    void removesHopByHopHeadersInBothDirections() throws Exception {
        OriginServer origin = origin("a");
        vhost("hop", "hop.test", origin);
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Connection", "X-Hop-One, x-hop-two, keep-alive");
        headers.put("X-Hop-One", "1");
        headers.put("X-Hop-Two", "2");
        headers.put("Keep-Alive", "timeout=5");
        headers.put("Proxy-Connection", "keep-alive");
        headers.put("TE", "trailers");
        headers.put("Upgrade", "h2c");
        headers.put("X-Kept", "yes");
        ProxyClient client = client();
        JsonObject seen = client.send(HttpMethod.GET, "hop.test", "/echo", headers, null).json()
                .getJsonObject("headers");
        for (String name : new String[]{"connection", "x-hop-one", "x-hop-two", "keep-alive", "proxy-connection",
                "te", "upgrade", "transfer-encoding"}) {
            assertFalse(seen.containsKey(name), name + " reached the upstream");
        }
        assertEquals("yes", seen.getString("x-kept"));

        ProxyClient.Reply reply = client.get("hop.test", "/hop");
        assertEquals("hop", reply.text());
        assertNull(reply.header("X-Private"));
        assertNull(reply.header("Keep-Alive"));
        assertNull(reply.header("Proxy-Connection"));
        assertEquals("kept", reply.header("X-End-To-End"));
    }

    @Test
    void addsViaBothWays() {
        OriginServer origin = origin("a");
        vhost("via", "via.test", origin);
        String pseudonym = Api.given().get("/api/v1/status").then().extract().path("via");
        ProxyClient.Reply reply = client().send(HttpMethod.GET, "via.test", "/echo", Map.of("Via", "1.0 edge"), null);
        assertEquals("1.0 edge\n1.1 " + pseudonym, reply.json().getJsonObject("headers").getString("via"));
        assertEquals("1.1 " + pseudonym, reply.header("Via"));
    }

    @Test
    void keepsAValidRequestIdAndReplacesAnInvalidOne() throws Exception {
        OriginServer origin = origin("a");
        vhost("rid", "rid.test", origin);
        ProxyClient client = client();

        ProxyClient.Reply kept = client.send(HttpMethod.GET, "rid.test", "/echo", Map.of("X-Request-Id", "abc-123.x"),
                null);
        assertEquals("abc-123.x", kept.header("X-Request-Id"));
        assertEquals("abc-123.x", kept.json().getJsonObject("headers").getString("x-request-id"));

        for (String bad : new String[]{"has space", "quote\"d", "x".repeat(129), ""}) {
            ProxyClient.Reply replaced = client.send(HttpMethod.GET, "rid.test", "/echo", Map.of("X-Request-Id", bad),
                    null);
            String id = replaced.header("X-Request-Id");
            assertTrue(id.matches("[0-9a-f]{32}"), "generated id " + id + " for " + bad);
            assertEquals(id, replaced.json().getJsonObject("headers").getString("x-request-id"));
        }

        ProxyClient.Reply first = client.get("rid.test", "/echo");
        ProxyClient.Reply second = client.get("rid.test", "/echo");
        assertTrue(first.header("X-Request-Id").matches("[0-9a-f]{32}"));
        assertFalse(first.header("X-Request-Id").equals(second.header("X-Request-Id")));
    }

    @Test
    void addsSecurityHeadersUnlessTheOriginOrTheVhostSaysOtherwise() {
        OriginServer origin = origin("a");
        vhost("secure", "secure.test", origin);
        ProxyClient client = client();
        ProxyClient.Reply reply = client.get("secure.test", "/echo");
        assertEquals("nosniff", reply.header("X-Content-Type-Options"));
        assertEquals("SAMEORIGIN", reply.header("X-Frame-Options"));
        assertEquals("strict-origin-when-cross-origin", reply.header("Referrer-Policy"));

        vhost(Api.vhost("insecure", "insecure.test", origin.url()).put("securityHeaders", false));
        ProxyClient.Reply off = client.get("insecure.test", "/echo");
        assertNull(off.header("X-Content-Type-Options"));
        assertNull(off.header("X-Frame-Options"));
        assertNull(off.header("Referrer-Policy"));

        vhost(Api.vhost("override", "override.test", origin.url()).put("responseHeaders", new JsonObject()
                .put("set", new JsonObject().put("X-Frame-Options", "DENY").put("Cache-Control", "no-cache"))
                .put("add", new JsonObject().put("X-Added", "1"))
                .put("remove", new JsonArray().add("Referrer-Policy").add("X-Origin"))));
        ProxyClient.Reply overridden = client.get("override.test", "/echo");
        assertEquals("DENY", overridden.header("X-Frame-Options"));
        assertEquals("no-cache", overridden.header("Cache-Control"));
        assertEquals("1", overridden.header("X-Added"));
        assertNull(overridden.header("Referrer-Policy"));
        assertNull(overridden.header("X-Origin"));
        assertEquals("nosniff", overridden.header("X-Content-Type-Options"));
    }

    @Test
    void appliesRequestHeaderRulesIncludingAFixedHost() {
        OriginServer origin = origin("a");
        vhost(Api.vhost("rules", "rules.test", origin.url()).put("requestHeaders", new JsonObject()
                .put("set", new JsonObject().put("Host", "internal.example").put("X-Env", "prod"))
                .put("add", new JsonObject().put("X-Tag", "portico"))
                .put("remove", new JsonArray().add("Cookie"))));
        JsonObject seen = client().send(HttpMethod.GET, "rules.test", "/echo",
                        Map.of("Cookie", "secret=1", "X-Env", "dev"), null)
                .json().getJsonObject("headers");
        assertEquals("internal.example", seen.getString("host"));
        assertEquals("prod", seen.getString("x-env"));
        assertEquals("portico", seen.getString("x-tag"));
        assertFalse(seen.containsKey("cookie"));
    }

    @Test
    void anOptionsRequestsMaxForwardsIsDecrementedAndAtZeroAnsweredHere() throws Exception {
        OriginServer origin = origin("a");
        vhost("hops", "hops.test", origin);
        ProxyClient client = client();
        ProxyClient.Reply forwarded = client.send(HttpMethod.OPTIONS, "hops.test", "/echo", "Max-Forwards", "5");
        assertEquals(200, forwarded.status());
        assertEquals("4", forwarded.json().getJsonObject("headers").getString("max-forwards"));
        assertEquals("99999999999999999998", client.send(HttpMethod.OPTIONS, "hops.test", "/echo",
                "Max-Forwards", "99999999999999999999").json().getJsonObject("headers").getString("max-forwards"));
        int reached = origin.requestCount();

        // RFC 9110 section 7.6.2: at zero the intermediary answers as the final recipient.
        ProxyClient.Reply here = client.send(HttpMethod.OPTIONS, "hops.test", "/echo", "Max-Forwards", "0");
        assertEquals(200, here.status());
        assertEquals("GET, HEAD, POST, PUT, DELETE, PATCH, OPTIONS", here.header("Allow"));
        assertEquals(0, here.body().length());
        assertEquals(reached, origin.requestCount(), "not forwarded");

        // The field means something for OPTIONS and TRACE only: a GET takes it along untouched.
        assertEquals("0", client.send(HttpMethod.GET, "hops.test", "/echo", "Max-Forwards", "0").json()
                .getJsonObject("headers").getString("max-forwards"));
        reached = origin.requestCount();
        // A value that can be neither checked nor decremented is refused, not forwarded.
        assertEquals(400, client.send(HttpMethod.OPTIONS, "hops.test", "/echo", "Max-Forwards", "-1").status());
        assertEquals(400, client.send(HttpMethod.OPTIONS, "hops.test", "/echo", "Max-Forwards", "two").status());
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), dataPlane.port())) {
            socket.setSoTimeout(5000);
            socket.getOutputStream().write(("OPTIONS /echo HTTP/1.1\r\nHost: hops.test\r\nMax-Forwards: 1\r\n"
                    + "Max-Forwards: 2\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            String head = RawHttp.readUntil(socket.getInputStream(), "\r\n");
            assertTrue(head.startsWith("HTTP/1.1 400 "), head);
        }
        assertEquals(reached, origin.requestCount(), "none of the refused ones was forwarded");
    }
}
