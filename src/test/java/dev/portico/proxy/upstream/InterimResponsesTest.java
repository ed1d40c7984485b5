package dev.portico.proxy.upstream;

import dev.portico.testing.Api;
import dev.portico.testing.DataPlaneTestSupport;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.RawHttp;
import dev.portico.testing.RawOrigin;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Interim (1xx) responses from the upstream (RFC 9110 section 15.2): forwarded to HTTP/1.1 clients ahead of the final
 * response, without hop-by-hop fields, never to HTTP/1.0 clients, never taken for the final response and never
 * stored by a cache. An upstream's {@code 100 Continue} stays Portico's own business (it answers {@code Expect}
 * itself), and a {@code 101} it never asked for is an error.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class InterimResponsesTest extends DataPlaneTestSupport {

    private static final String PROCESSING = "HTTP/1.1 102 Processing\r\n\r\n";
    private static final String EARLY_HINTS = "HTTP/1.1 103 Early Hints\r\n"
            + "Link: </style.css>; rel=preload; as=style\r\n"
            + "Link: </app.js>; rel=preload; as=script\r\n"
            + "Connection: X-Hint-Secret\r\n"
            + "X-Hint-Secret: for-the-proxy-only\r\n\r\n";
    private static final String FINAL = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 4\r\n\r\ndone";

    private Socket connect() throws IOException {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), dataPlane.port());
        socket.setSoTimeout(10_000);
        return socket;
    }

    private static void send(Socket socket, String request) throws IOException {
        socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
        socket.getOutputStream().flush();
    }

    private static String get(String host, String path) {
        return "GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\n\r\n";
    }

    private static void assertDone(RawHttp.Response response) {
        assertEquals(200, response.status(), response.head());
        assertEquals("done", response.body());
        assertTrue(response.header("X-Request-Id") != null, response.head());
    }

    @Test
    void a102IsForwardedAheadOfTheFinalResponseAndTheConnectionGoesOn() throws Exception {
        try (RawOrigin origin = RawOrigin.start(request -> request.write(PROCESSING + FINAL))) {
            vhost(Api.vhost("processing", "processing.test", origin.url()));
            try (Socket socket = connect()) {
                InputStream in = socket.getInputStream();
                for (int i = 0; i < 2; i++) {
                    send(socket, get("processing.test", "/slow-work"));
                    RawHttp.Response interim = RawHttp.readResponse(in);
                    assertEquals(102, interim.status(), interim.head());
                    assertTrue(interim.header("Via").endsWith(pseudonym()), interim.head());
                    assertNull(interim.header("Cache-Status"), interim.head());
                    assertNull(interim.header("Content-Length"), interim.head());
                    assertNull(interim.header("X-Request-Id"), "an interim response is not the answer: "
                            + interim.head());
                    assertDone(RawHttp.readResponse(in));
                }
            }
        }
    }

    @Test
    void earlyHintsReachTheClientWithTheirLinksAndWithoutHopByHopFields() throws Exception {
        try (RawOrigin origin = RawOrigin.start(request -> request.write(EARLY_HINTS + FINAL))) {
            vhost(Api.vhost("hints", "hints.test", origin.url()));
            try (Socket socket = connect()) {
                InputStream in = socket.getInputStream();
                send(socket, get("hints.test", "/page"));
                RawHttp.Response hints = RawHttp.readResponse(in);
                assertEquals(103, hints.status(), hints.head());
                assertTrue(hints.head().contains("\r\nLink: </style.css>; rel=preload; as=style\r\n"), hints.head());
                assertTrue(hints.head().contains("\r\nLink: </app.js>; rel=preload; as=script\r\n"), hints.head());
                assertNull(hints.header("X-Hint-Secret"), hints.head());
                assertNull(hints.header("Connection"), hints.head());
                RawHttp.Response done = RawHttp.readResponse(in);
                assertDone(done);
                assertNull(done.header("Link"), "the hints are not part of the final response: " + done.head());
            }
        }
    }

    @Test
    void http10ClientsGetOnlyTheFinalResponse() throws Exception {
        try (RawOrigin origin = RawOrigin.start(request -> request.write(EARLY_HINTS + PROCESSING + FINAL))) {
            vhost(Api.vhost("old-client", "old-client.test", origin.url()));
            try (Socket socket = connect()) {
                send(socket, "GET /page HTTP/1.0\r\nHost: old-client.test\r\n\r\n");
                assertDone(RawHttp.readResponse(socket.getInputStream()));
            }
        }
    }

    @Test
    void anUpstreamContinueIsNotForwardedAndPorticoAnswersExpectOnce() throws Exception {
        try (RawOrigin origin = RawOrigin.start(request -> request.write("HTTP/1.1 100 Continue\r\n\r\n" + FINAL))) {
            vhost(Api.vhost("continue", "continue.test", origin.url()));
            try (Socket socket = connect()) {
                InputStream in = socket.getInputStream();
                send(socket, get("continue.test", "/"));
                assertDone(RawHttp.readResponse(in));
                send(socket, "POST / HTTP/1.1\r\nHost: continue.test\r\nContent-Length: 5\r\n"
                        + "Expect: 100-continue\r\n\r\n");
                assertEquals(100, RawHttp.readResponse(in).status());
                send(socket, "hello");
                assertDone(RawHttp.readResponse(in));
            }
        }
    }

    @Test
    void aCacheStoresTheFinalResponseOnly() throws Exception {
        String cacheable = "HTTP/1.1 200 OK\r\nCache-Control: max-age=60\r\nContent-Length: 6\r\n\r\ncached";
        try (RawOrigin origin = RawOrigin.start(request -> request.write(EARLY_HINTS + PROCESSING + cacheable))) {
            vhost(Api.vhost("cached-hints", "cached-hints.test", origin.url())
                    .put("cache", new JsonObject().put("enabled", true)));
            try (Socket socket = connect()) {
                InputStream in = socket.getInputStream();
                send(socket, get("cached-hints.test", "/page"));
                assertEquals(103, RawHttp.readResponse(in).status());
                assertEquals(102, RawHttp.readResponse(in).status());
                RawHttp.Response miss = RawHttp.readResponse(in);
                assertEquals(200, miss.status(), miss.head());
                assertEquals("cached", miss.body());
                assertEquals("Portico; fwd=miss; stored", miss.header("Cache-Status"));
                send(socket, get("cached-hints.test", "/page"));
                RawHttp.Response hit = RawHttp.readResponse(in);
                assertEquals(200, hit.status(), hit.head());
                assertEquals("cached", hit.body());
                assertTrue(hit.header("Cache-Status").startsWith("Portico; hit"), hit.head());
                assertNull(hit.header("Link"), "an interim response's fields are not stored: " + hit.head());
            }
            assertEquals(1, origin.heads().size(), "the hit came from the store");
        }
    }

    @Test
    void aSwitchingProtocolsNobodyAskedForIs502() throws Exception {
        // A 101 may only answer a request that asked to switch (RFC 9110 section 15.2.2); this one did not.
        try (RawOrigin origin = RawOrigin.start(request -> request.write(
                "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\nbinary..."))) {
            vhost(Api.vhost("switch", "switch.test", origin.url()));
            try (Socket socket = connect()) {
                long start = System.nanoTime();
                send(socket, "GET /socket HTTP/1.1\r\nHost: switch.test\r\n\r\n");
                RawHttp.Response response = RawHttp.readResponse(socket.getInputStream());
                assertEquals(502, response.status(), response.head());
                assertTrue(response.body().contains("\"reason\":\"upstream_protocol_error\""), response.body());
                assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(4), "the client waited for the 502");
            }
        }
    }

    private static String pseudonym() {
        return Api.given().get("/api/v1/status").then().extract().path("via");
    }
}
