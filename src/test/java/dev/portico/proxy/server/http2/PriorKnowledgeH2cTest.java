package dev.portico.proxy.server.http2;

import dev.portico.proxy.server.tls.RawH2;
import dev.portico.telemetry.accesslog.AccessLog;
import dev.portico.testing.DataPlaneTestSupport;
import dev.portico.testing.AccessLogLines;
import dev.portico.testing.Curl;
import dev.portico.testing.Eventually;
import dev.portico.testing.H2cProfile;
import dev.portico.testing.OriginServer;
import dev.portico.testing.Pacing;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.RawHttp;
import dev.portico.testing.Scrape;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.RequestOptions;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Collections;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The cleartext listener with {@code portico.dataplane.h2c=true}: a client that opens with the HTTP/2 preface (prior
 * knowledge: curl {@code --http2-prior-knowledge}, the Vert.x h2c client, a raw one) speaks HTTP/2 through the same
 * pipeline and limits as over TLS, while every other client is still read as HTTP/1.1 through the strict guard, its
 * very first request included.
 */
@QuarkusTest
@TestProfile(H2cProfile.class)
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class PriorKnowledgeH2cTest extends DataPlaneTestSupport {

    private static final String PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

    @Inject
    Vertx vertx;

    @Inject
    AccessLog accessLog;

    @TestHTTPResource(value = "/metrics", management = true)
    URL metrics;

    private static String curl(String... args) throws Exception {
        return Curl.run(List.of(args));
    }

    private String url(String host, String path) {
        return "http://" + host + ":" + dataPlane.port() + path;
    }

    private String resolve(String host) {
        return host + ":" + dataPlane.port() + ":127.0.0.1";
    }

    @Test
    void curlWithPriorKnowledgeIsProxiedOverHttp2() throws Exception {
        OriginServer origin = origin("h2c-plain");
        vhost("h2c-plain", "h2c.test", origin);

        String out = curl("--http2-prior-knowledge", "--resolve", resolve("h2c.test"), "-D", "-",
                "-w", "\n%{http_version}", url("h2c.test", "/echo/a?b=1"));

        assertTrue(out.startsWith("HTTP/2 200"), out);
        assertTrue(out.endsWith("\n2"), "spoke HTTP/2: " + out);
        OriginServer.Seen seen = origin.nextSeen();
        assertEquals("/echo/a?b=1", seen.uri());
        assertEquals("h2c.test:" + dataPlane.port(), seen.headers().get("Host"));
        assertEquals("http", seen.headers().get("X-Forwarded-Proto"));
        assertTrue(seen.headers().get("Via").startsWith("2 "), seen.headers().get("Via"));
        String id = seen.headers().get("X-Request-Id");
        assertNotNull(id);
        assertEquals("HTTP/2.0", AccessLogLines.ofRequest(accessLog.file().orElseThrow(), id).getString("protocol"));
    }

    @Test
    void curlWithoutPriorKnowledgeStillGetsHttp11() throws Exception {
        OriginServer origin = origin("h2c-h1");
        vhost("h2c-h1", "h1.test", origin);

        String out = curl("--http1.1", "--resolve", resolve("h1.test"), "-o", "/dev/null",
                "-w", "%{http_version} %{http_code}", url("h1.test", "/echo"));

        assertEquals("1.1 200", out);
    }

    @Test
    void anH2cClientMultiplexesStreamsOnOneConnection() throws Exception {
        OriginServer origin = origin("h2c-many");
        vhost("h2c-many", "many.test", origin);
        HttpClient client = vertx.createHttpClient(new HttpClientOptions().setProtocolVersion(HttpVersion.HTTP_2)
                .setHttp2ClearTextUpgrade(false).setHttp2MultiplexingLimit(100).setHttp2MaxPoolSize(1));
        try {
            Set<HttpConnection> connections = Collections.newSetFromMap(new IdentityHashMap<>());
            List<Future<Integer>> answers = new ArrayList<>();
            for (int i = 0; i < 32; i++) {
                RequestOptions get = new RequestOptions().setMethod(HttpMethod.GET).setHost("many.test")
                        .setPort(dataPlane.port()).setURI("/echo/" + i)
                        .setServer(io.vertx.core.net.SocketAddress.inetSocketAddress(dataPlane.port(), "127.0.0.1"));
                answers.add(client.request(get).compose(request -> request.send()).compose(response -> {
                    assertEquals(HttpVersion.HTTP_2, response.version());
                    connections.add(response.request().connection());
                    return response.body().map(body -> response.statusCode());
                }));
            }
            for (Future<Integer> answer : answers) {
                assertEquals(200, answer.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS));
            }
            assertEquals(1, connections.size(), "one connection, many streams");
            assertEquals(32, origin.requestCount());
        } finally {
            client.close();
        }
    }

    @Test
    void theHttp2LimitsApplyInCleartextToo() throws Exception {
        try (RawH2 client = RawH2.cleartext(dataPlane.port())) {
            client.readTimeout(5000);
            RawH2.Frame settings = client.await(RawH2.SETTINGS, 0);
            assertNotNull(settings, "the server's SETTINGS");
            Map<Integer, Long> values = new java.util.HashMap<>();
            byte[] p = settings.payload();
            for (int i = 0; i + 6 <= p.length; i += 6) {
                values.put((p[i] & 0xff) << 8 | (p[i + 1] & 0xff), (p[i + 2] & 0xffL) << 24
                        | (p[i + 3] & 0xffL) << 16 | (p[i + 4] & 0xffL) << 8 | (p[i + 5] & 0xffL));
            }
            assertEquals(128L, values.get(0x3), "SETTINGS_MAX_CONCURRENT_STREAMS: " + values);
            assertEquals(32768L, values.get(0x6), "SETTINGS_MAX_HEADER_LIST_SIZE: " + values);
        }
    }

    @Test
    void rapidResetOverH2cClosesTheConnection() throws Exception {
        OriginServer origin = origin("h2c-reset");
        vhost("h2c-reset", "reset.test", origin);
        double before = Scrape.of(metrics).valueOrZero("portico_local_replies_total{reason=\"h2_rapid_reset\"}");
        long goAway;
        try (RawH2 client = RawH2.cleartext(dataPlane.port())) {
            try {
                for (int stream = 1; stream < 2 * 400; stream += 2) {
                    client.frame(RawH2.HEADERS, RawH2.END_HEADERS | RawH2.END_STREAM, stream,
                            RawH2.get("reset.test", "/echo"));
                    client.frame(RawH2.RST_STREAM, 0, stream, RawH2.errorCode(RawH2.CANCEL));
                }
                client.flush();
            } catch (IOException closedUnderUs) {
                // The server gave up on the connection while the attack was still being written.
            }
            goAway = client.awaitGoAway();
        }
        assertTrue(goAway == RawH2.ENHANCE_YOUR_CALM || goAway == -1, "GOAWAY ENHANCE_YOUR_CALM, got " + goAway);
        Eventually.within(Duration.ofSeconds(10), () -> assertTrue(Scrape.of(metrics)
                .valueOrZero("portico_local_replies_total{reason=\"h2_rapid_reset\"}") >= before + 1));
    }

    /**
     * The point of reading the first bytes before Vert.x does: the first request of an HTTP/1.1 connection meets
     * the strict guard like every later one. A {@code POST} shares its first byte with the preface, so the sniffer
     * has to wait for the second, sent apart here.
     */
    @Test
    void theFirstHttp11RequestOfAConnectionMeetsTheStrictGuard() throws Exception {
        OriginServer origin = origin("h2c-guard");
        vhost("h2c-guard", "guard.test", origin);
        String smuggling = "OST /echo HTTP/1.1\r\nHost: guard.test\r\nTransfer-Encoding: xchunked\r\n"
                + "Content-Length: 40\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: guard.test\r\n\r\n";

        String answer = exchangeInTwoParts("P", smuggling);

        assertEquals(400, RawHttp.status(answer), answer);
        assertTrue(answer.contains("\"reason\":\"invalid_framing\""), answer);
        assertEquals(0, origin.requestCount(), "nothing reached the origin");
    }

    @Test
    void anUpgradeToH2cIsNotHonoured() throws Exception {
        OriginServer origin = origin("h2c-upgrade");
        vhost("h2c-upgrade", "upgrade.test", origin);

        String answer = RawHttp.exchange(dataPlane.port(), "GET /echo HTTP/1.1\r\nHost: upgrade.test\r\n"
                + "Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAAP__\r\n"
                + "Connection: close\r\n\r\n");

        assertEquals(200, RawHttp.status(answer), answer);
        OriginServer.Seen seen = origin.nextSeen();
        assertNull(seen.headers().get("Upgrade"), "the upgrade is hop-by-hop, not forwarded");
        assertNull(seen.headers().get("HTTP2-Settings"));
    }

    @Test
    void aSilentConnectionIsClosedAfterTheHeadTimeout() throws Exception {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), dataPlane.port())) {
            socket.setSoTimeout(8000);
            long start = System.nanoTime();
            String read = RawHttp.readToClose(socket.getInputStream());
            long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertEquals("", read, "closed without an answer");
            assertTrue(waited >= 900, "not before the timeout: " + waited + " ms");
        }
    }

    /** A client that stops inside the preface is read as an HTTP/1.1 request line, which HTTP/2.0 is not. */
    @Test
    void aClientStallingInsideThePrefaceGetsAnHttp11Refusal() throws Exception {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), dataPlane.port())) {
            socket.setSoTimeout(8000);
            socket.getOutputStream().write(PREFACE.substring(0, 18).getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            String answer = RawHttp.readToClose(socket.getInputStream());
            int status = RawHttp.status(answer);
            assertTrue(status == 505 || status == 408, answer);
        }
    }

    private String exchangeInTwoParts(String first, String rest) throws IOException, InterruptedException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), dataPlane.port())) {
            socket.setSoTimeout(8000);
            socket.setTcpNoDelay(true);
            OutputStream out = socket.getOutputStream();
            out.write(first.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            Pacing.pause(Duration.ofMillis(200), "the first byte arriving on its own");
            out.write(rest.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return RawHttp.readToClose(socket.getInputStream());
        }
    }
}
