package dev.portico.telemetry.accesslog;

import dev.portico.proxy.server.DataPlaneServer;
import dev.portico.testing.Api;
import dev.portico.testing.BrokenOrigins;
import dev.portico.testing.Eventually;
import dev.portico.testing.OriginServer;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient;
import dev.portico.testing.RawHttp;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The access log of the running proxy: real requests through real origins, read back from the file. */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class AccessLogTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Inject
    DataPlaneServer dataPlane;

    @Inject
    AccessLog accessLog;

    private final List<AutoCloseable> closeables = new ArrayList<>();
    private Path file;
    private long offset;

    @BeforeEach
    void rememberWhereTheLogEnds() throws IOException {
        file = accessLog.file().orElseThrow();
        offset = Files.exists(file) ? Files.size(file) : 0;
    }

    @AfterEach
    void cleanUp() throws Exception {
        Api.deleteAll();
        for (AutoCloseable closeable : closeables) {
            closeable.close();
        }
        closeables.clear();
    }

    private OriginServer origin(String name) {
        OriginServer origin = OriginServer.start(name);
        closeables.add(origin);
        return origin;
    }

    private ProxyClient client() {
        ProxyClient client = new ProxyClient(dataPlane.port());
        closeables.add(client);
        return client;
    }

    /** The lines written since the test started. */
    private List<JsonObject> lines() {
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            in.seek(offset);
            byte[] bytes = new byte[(int) (in.length() - offset)];
            in.readFully(bytes);
            List<JsonObject> lines = new ArrayList<>();
            for (String line : new String(bytes, StandardCharsets.UTF_8).split("\n")) {
                if (!line.isEmpty()) {
                    lines.add(new JsonObject(line));
                }
            }
            return lines;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private List<JsonObject> linesWhere(Predicate<JsonObject> filter) {
        return lines().stream().filter(filter).toList();
    }

    /** Waits for the line of request {@code id} (lines reach the file within about 200 ms) and returns it. */
    private JsonObject lineOf(String id) {
        JsonObject[] found = new JsonObject[1];
        Eventually.within(WAIT, () -> {
            List<JsonObject> matching = linesWhere(l -> id.equals(l.getString("requestId")));
            assertEquals(1, matching.size(), "lines for request " + id);
            found[0] = matching.get(0);
        });
        return found[0];
    }

    private static Map<String, String> id(String id) {
        return Map.of("X-Request-Id", id);
    }

    @Test
    void aProxiedRequestHasEveryField() {
        OriginServer origin = origin("a");
        Api.create(Api.vhost("al-proxied", "al-proxied.test", origin.url()));
        Instant before = Instant.now();
        ProxyClient.Reply reply = client().send(HttpMethod.POST, "al-proxied.test", "/echo?x=1&y=%C3%A9",
                Map.of("X-Request-Id", "al-proxied-1", "User-Agent", "portico-test/1.0 \"quoted\"",
                        "Referer", "https://ref.test/page?from=1"), Buffer.buffer("hello"));
        Instant after = Instant.now();
        assertEquals(200, reply.status());

        JsonObject line = lineOf("al-proxied-1");
        Instant time = Instant.parse(line.getString("time"));
        assertFalse(time.isBefore(before.minusMillis(1)) || time.isAfter(after), line.encode());
        assertTrue(line.getString("time").matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z"));
        assertEquals("al-proxied", line.getString("vhost"));
        assertEquals("127.0.0.1", line.getString("client"));
        assertEquals("POST", line.getString("method"));
        assertEquals("/echo?x=1&y=%C3%A9", line.getString("path"));
        assertEquals("HTTP/1.1", line.getString("protocol"));
        assertEquals(200, line.getInteger("status"));
        assertEquals(5, line.getLong("bytesIn"));
        assertEquals(reply.body().length(), line.getLong("bytesOut"));
        double duration = line.getDouble("durationMs");
        double upstream = line.getDouble("upstreamDurationMs");
        assertTrue(upstream > 0 && upstream <= duration, line.encode());
        assertEquals(origin.url() , line.getString("upstream"));
        assertTrue(line.containsKey("reason"));
        assertNull(line.getString("reason"));
        assertEquals("portico-test/1.0 \"quoted\"", line.getString("userAgent"));
        assertEquals("https://ref.test/page?from=1", line.getString("referrer"));
    }

    @Test
    void localRepliesAreLoggedWithTheirReason() throws Exception {
        Api.create(Api.vhost("al-refused", "al-refused.test", "http://127.0.0.1:" + BrokenOrigins.refusingPort()));
        Api.create(Api.vhost("al-disabled", "al-disabled.test", origin("a").url()).put("enabled", false));
        ProxyClient client = client();
        assertEquals(404, client.send(HttpMethod.GET, "nobody.al.test", "/x", id("al-404"), null).status());
        assertEquals(502, client.send(HttpMethod.GET, "al-refused.test", "/y", id("al-502"), null).status());
        assertEquals(404, client.send(HttpMethod.GET, "al-disabled.test", "/z", id("al-off"), null).status());

        JsonObject unknown = lineOf("al-404");
        assertTrue(unknown.containsKey("vhost"));
        assertNull(unknown.getString("vhost"), "no vhost serves the host");
        assertEquals(404, unknown.getInteger("status"));
        assertEquals("vhost_not_found", unknown.getString("reason"));
        assertEquals("/x", unknown.getString("path"));
        assertNull(unknown.getString("upstream"));
        assertNull(unknown.getValue("upstreamDurationMs"));
        assertTrue(unknown.getLong("bytesOut") > 0, "the problem document");

        JsonObject refused = lineOf("al-502");
        assertEquals("al-refused", refused.getString("vhost"));
        assertEquals(502, refused.getInteger("status"));
        assertEquals("upstream_connect_failure", refused.getString("reason"));
        assertTrue(refused.getString("upstream").startsWith("http://127.0.0.1:"), refused.encode());
        assertNull(refused.getValue("upstreamDurationMs"), "no response head arrived");

        JsonObject disabled = lineOf("al-off");
        assertEquals("al-disabled", disabled.getString("vhost"));
        assertEquals("vhost_disabled", disabled.getString("reason"));
    }

    /** A raw UTF-8 target is logged as the text the client sent, the same string the origin and cache key get. */
    @Test
    void aRawUtf8TargetIsLoggedAsTheClientSentIt() throws Exception {
        OriginServer origin = origin("a");
        Api.create(Api.vhost("al-utf8", "al-utf8.test", origin.url()));
        String target = "/echo/caf\u00e9?q=\u20ac";
        String raw = RawHttp.exchange(dataPlane.port(), "GET "
                + new String(target.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1)
                + " HTTP/1.1\r\nHost: al-utf8.test\r\nX-Request-Id: al-utf8-1\r\nConnection: close\r\n\r\n");
        assertEquals(200, RawHttp.status(raw), raw);
        assertEquals(target, lineOf("al-utf8-1").getString("path"));
    }

    @Test
    void aClientThatLeavesIsLoggedAs499() throws Exception {
        OriginServer origin = origin("a");
        Api.create(Api.vhost("al-abort", "al-abort.test", origin.url()));
        try (Socket socket = new Socket("127.0.0.1", dataPlane.port())) {
            socket.getOutputStream().write(("GET /slow/5000 HTTP/1.1\r\nHost: al-abort.test\r\n"
                    + "X-Request-Id: al-abort-1\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            Eventually.within(Duration.ofSeconds(5), () -> assertTrue(origin.requestCount() >= 1));
        }
        JsonObject line = lineOf("al-abort-1");
        assertEquals(499, line.getInteger("status"));
        assertEquals("client_aborted", line.getString("reason"));
        assertEquals(origin.url(), line.getString("upstream"));
        assertNull(line.getValue("upstreamDurationMs"));
        assertEquals(0, line.getLong("bytesOut"));
        assertTrue(line.getDouble("durationMs") < 5000, line.encode());
    }

    @Test
    void aVhostCanTurnItsLogOff() {
        OriginServer origin = origin("a");
        Api.create(Api.vhost("al-quiet", "al-quiet.test", origin.url())
                .put("accessLog", new JsonObject().put("enabled", false)));
        Api.create(Api.vhost("al-loud", "al-loud.test", origin.url()));
        ProxyClient client = client();
        for (int i = 0; i < 5; i++) {
            assertEquals(200, client.send(HttpMethod.GET, "al-quiet.test", "/echo", id("al-quiet-" + i), null)
                    .status());
        }
        assertEquals(200, client.send(HttpMethod.GET, "al-loud.test", "/echo", id("al-loud-1"), null).status());
        // Same connection, same event loop, same batch: once the later line is there, the earlier ones would be.
        lineOf("al-loud-1");
        assertEquals(List.of(), linesWhere(l -> "al-quiet".equals(l.getString("vhost"))));
    }

    @Test
    void aVhostCanRedactQueryStrings() throws IOException {
        OriginServer origin = origin("a");
        Api.create(Api.vhost("al-private", "al-private.test", origin.url())
                .put("accessLog", new JsonObject().put("redactQuery", true)));
        assertEquals(200, client().send(HttpMethod.GET, "al-private.test", "/echo/search?q=s3cr3t-query",
                Map.of("X-Request-Id", "al-private-1", "Referer", "https://al-private.test/?token=s3cr3t-ref"),
                null).status());
        JsonObject line = lineOf("al-private-1");
        assertEquals("/echo/search?REDACTED", line.getString("path"));
        assertEquals("https://al-private.test/?REDACTED", line.getString("referrer"));
        assertFalse(Files.readString(file).contains("s3cr3t"));
    }

    @Test
    void noLineIsLostUnderConcurrentLoad() throws Exception {
        OriginServer origin = origin("a");
        Api.create(Api.vhost("al-load", "al-load.test", origin.url()));
        int clients = 8;
        int perClient = 250;
        // Own threads: the common pool has a single thread on a two-core machine.
        ExecutorService threads = Executors.newFixedThreadPool(clients);
        try {
            List<CompletableFuture<Void>> done = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                ProxyClient client = client();
                int id = c;
                done.add(CompletableFuture.runAsync(() -> {
                    for (int i = 0; i < perClient; i++) {
                        ProxyClient.Reply reply = client.send(HttpMethod.GET, "al-load.test", "/echo?i=" + i,
                                id("al-load-" + id + "-" + i), null);
                        assertEquals(200, reply.status());
                    }
                }, threads));
            }
            CompletableFuture.allOf(done.toArray(new CompletableFuture[0])).get(60, TimeUnit.SECONDS);
        } finally {
            threads.shutdownNow();
        }

        int expected = clients * perClient;
        Eventually.within(WAIT, () -> assertEquals(expected,
                linesWhere(l -> "al-load".equals(l.getString("vhost"))).size()));
        // Several flush periods (200 ms) without a new line: a duplicate written late would have arrived by then.
        Eventually.stable(WAIT, Duration.ofMillis(600),
                () -> linesWhere(l -> "al-load".equals(l.getString("vhost"))).size());
        List<JsonObject> lines = linesWhere(l -> "al-load".equals(l.getString("vhost")));
        assertEquals(expected, lines.size(), "exactly one line per request, none later");
        Set<String> ids = new HashSet<>();
        lines.forEach(l -> ids.add(l.getString("requestId")));
        assertEquals(expected, ids.size());
    }

    @Test
    void aFullDiskDropsAndCountsLinesWhileTheProxyKeepsServing() throws Exception {
        Path full = Path.of("/dev/full");
        assumeTrue(Files.exists(full) && Files.isWritable(full) && !Files.isRegularFile(full),
                "needs Linux's /dev/full, where every write fails with ENOSPC");
        OriginServer origin = origin("a");
        Api.create(Api.vhost("al-full", "al-full.test", origin.url()));
        ProxyClient client = client();
        accessLog.redirect(full);
        try {
            // Whatever earlier tests left in the loops' batches is flushed (five times a second) into /dev/full
            // and dropped too: count from when that has stopped, so that only this test's 50 lines are compared.
            long before = Eventually.stable(WAIT, Duration.ofMillis(600), () -> accessLog.status().droppedLines());
            for (int i = 0; i < 50; i++) {
                assertEquals(200, client.send(HttpMethod.GET, "al-full.test", "/echo", id("al-full-" + i), null)
                        .status());
            }
            Eventually.within(WAIT, () -> assertEquals(before + 50, accessLog.status().droppedLines()));
        } finally {
            accessLog.redirect(file);
        }
        assertEquals(200, client.send(HttpMethod.GET, "al-full.test", "/echo", id("al-full-after"), null).status());
        assertNotNull(lineOf("al-full-after"));
        assertEquals(List.of(), linesWhere(l -> l.getString("requestId").startsWith("al-full-")
                && !l.getString("requestId").equals("al-full-after")));
    }
}
