package dev.portico.proxy.server.tls;

import dev.portico.testing.Api;
import dev.portico.testing.Eventually;
import dev.portico.testing.OriginServer;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.Scrape;
import dev.portico.testing.TestPki;
import dev.portico.testing.TestPki.Issued;
import dev.portico.testing.TestPki.Kind;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URL;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The known attacks on HTTP/2 servers, each from a raw client writing the frames itself: the connection is closed
 * (with GOAWAY where the server can still write), the close is counted under its reason in
 * {@code portico_local_replies_total}, and the data plane goes on serving everyone else.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class HostileHttp2Test extends HttpsVhostTestSupport {

    private static final Issued ROOT = TestPki.ca("Hostile HTTP/2 Root");
    private static final String HOST = "hostile.test";

    @TestHTTPResource(value = "/metrics", management = true)
    URL metrics;

    private OriginServer origin;

    @BeforeEach
    void vhost() {
        origin = origin("hostile");
        Issued leaf = TestPki.leaf(ROOT, TestPki.keys(Kind.EC_P256), Instant.now().minus(Duration.ofHours(1)),
                Instant.now().plus(Duration.ofDays(30)), HOST);
        Api.create(httpsVhost("hostile", HOST, origin.url(), upload(leaf), new JsonObject()));
    }

    private double refused(String reason) {
        return Scrape.of(metrics).value("portico_local_replies_total{reason=\"" + reason + "\"}");
    }

    private void assertCounted(String reason, double before) {
        Eventually.within(Duration.ofSeconds(10), () -> assertTrue(refused(reason) >= before + 1,
                reason + " counted: " + refused(reason) + " after " + before));
    }

    /**
     * GOAWAY ENHANCE_YOUR_CALM, or a reset that overtook it: a server closing with the attacker's unread frames still
     * in its socket sends TCP RST, which can discard the GOAWAY before the client reads it. The counter is the proof.
     */
    private static void assertGoAwayCalmOrReset(long goAway) {
        assertTrue(goAway == RawH2.ENHANCE_YOUR_CALM || goAway == -1, "GOAWAY ENHANCE_YOUR_CALM, got " + goAway);
    }

    /** A well-behaved client still gets its answer: the attack cost nobody else anything. */
    private void stillServes() throws Exception {
        try (RawH2 client = new RawH2(dataPlane.tlsPort(), HOST, 0)) {
            client.frame(RawH2.HEADERS, RawH2.END_HEADERS | RawH2.END_STREAM, 1, RawH2.get(HOST, "/echo"));
            client.flush();
            client.frame(RawH2.GOAWAY, 0, 0, new byte[8]);
            client.flush();
        }
        String out = curl("/echo");
        assertTrue(out.endsWith("200 2"), out);
    }

    private String curl(String path) throws Exception {
        Process curl = new ProcessBuilder("curl", "-sS", "-k", "--http2", "--max-time", "10", "-o", "/dev/null",
                "-w", "%{http_code} %{http_version}", "--resolve", HOST + ":" + dataPlane.tlsPort() + ":127.0.0.1",
                "https://" + HOST + ":" + dataPlane.tlsPort() + path).redirectErrorStream(true).start();
        String out = new String(curl.getInputStream().readAllBytes());
        curl.waitFor();
        return out;
    }

    @Test
    void rapidResetClosesTheConnection() throws Exception {
        double before = refused("h2_rapid_reset");
        long goAway;
        try (RawH2 client = new RawH2(dataPlane.tlsPort(), HOST, 0)) {
            // CVE-2023-44487: open a stream and cancel it at once, over and over, never past the stream limit.
            try {
                for (int stream = 1; stream < 2 * 400; stream += 2) {
                    client.frame(RawH2.HEADERS, RawH2.END_HEADERS | RawH2.END_STREAM, stream,
                            RawH2.get(HOST, "/echo"));
                    client.frame(RawH2.RST_STREAM, 0, stream, RawH2.errorCode(RawH2.CANCEL));
                }
                client.flush();
            } catch (IOException closedUnderUs) {
                // The server gave up on the connection while the attack was still being written.
            }
            goAway = client.awaitGoAway();
        }
        assertGoAwayCalmOrReset(goAway);
        assertCounted("h2_rapid_reset", before);
        stillServes();
    }

    @Test
    void aContinuationFloodClosesTheConnection() throws Exception {
        double before = refused("h2_continuation_flood");
        long goAway;
        try (RawH2 client = new RawH2(dataPlane.tlsPort(), HOST, 0)) {
            // CVE-2024-27316: a header block that never ends, one byte per CONTINUATION frame.
            try {
                client.frame(RawH2.HEADERS, 0, 1, new byte[] {(byte) 0x82});
                for (int i = 0; i < 1000; i++) {
                    client.frame(RawH2.CONTINUATION, 0, 1, new byte[] {(byte) 0x82});
                }
                client.flush();
            } catch (IOException closedUnderUs) {
                // The server gave up on the connection while the attack was still being written.
            }
            goAway = client.awaitGoAway();
        }
        assertGoAwayCalmOrReset(goAway);
        assertCounted("h2_continuation_flood", before);
        stillServes();
    }

    @Test
    void anHpackBombIsRefusedOnItsStreamWithoutDecodingIt() throws Exception {
        try (RawH2 client = new RawH2(dataPlane.tlsPort(), HOST, 0)) {
            // 4 KB enter the dynamic table once; each 1-byte reference to it then expands to 4 KB: a 4.4 KB block
            // that decodes to over a megabyte. The decoder stops counting past the header list limit.
            ByteArrayOutputStream block = new ByteArrayOutputStream();
            block.writeBytes(RawH2.get(HOST, "/echo"));
            char[] value = new char[4000];
            Arrays.fill(value, 'b');
            RawH2.indexedLiteral(block, "x-bomb", new String(value));
            for (int i = 0; i < 300; i++) {
                block.write(0x80 | 62); // indexed field: dynamic table entry 62
            }
            client.frame(RawH2.HEADERS, RawH2.END_HEADERS | RawH2.END_STREAM, 1, block.toByteArray());
            client.flush();
            RawH2.Frame reset = client.await(RawH2.RST_STREAM, 1);
            assertTrue(reset != null && reset.errorCode() > 0, "stream 1 reset with an error");

            // The connection itself is fine: the next stream is answered.
            client.frame(RawH2.HEADERS, RawH2.END_HEADERS | RawH2.END_STREAM, 3, RawH2.get(HOST, "/echo"));
            client.flush();
            RawH2.Frame answer = client.next();
            while (answer != null && answer.stream() != 3) {
                answer = client.next();
            }
            assertTrue(answer != null && answer.type() == RawH2.HEADERS, "stream 3 answered, not reset: " + answer);
        }
        stillServes();
    }

    @Test
    void aHeaderBlockFarOverTheLimitClosesTheConnection() throws Exception {
        double before = refused("h2_header_list_too_large");
        long goAway;
        try (RawH2 client = new RawH2(dataPlane.tlsPort(), HOST, 0)) {
            // 64 KB of header block on the wire (twice the 32 KiB limit), in 4 KB CONTINUATION frames.
            char[] value = new char[64_000];
            Arrays.fill(value, 'v');
            ByteArrayOutputStream block = new ByteArrayOutputStream();
            block.writeBytes(RawH2.get(HOST, "/echo"));
            block.write(0x00); // literal without indexing, new name
            RawH2.writeString(block, "x-big");
            RawH2.writeString(block, new String(value));
            byte[] bytes = block.toByteArray();
            int piece = 4096;
            client.frame(RawH2.HEADERS, 0, 1, Arrays.copyOfRange(bytes, 0, piece));
            for (int at = piece; at < bytes.length; at += piece) {
                boolean last = at + piece >= bytes.length;
                client.frame(RawH2.CONTINUATION, last ? RawH2.END_HEADERS : 0, 1,
                        Arrays.copyOfRange(bytes, at, Math.min(bytes.length, at + piece)));
            }
            client.flush();
            goAway = client.awaitGoAway();
        }
        assertTrue(goAway > 0, "closed with an error: " + goAway);
        assertCounted("h2_header_list_too_large", before);
        stillServes();
    }

    @Test
    void aPingFloodFromAClientThatDoesNotReadClosesTheConnection() throws Exception {
        double before = refused("h2_frame_flood");
        try (RawH2 client = new RawH2(dataPlane.tlsPort(), HOST, 4096)) {
            // Every PING asks for an ACK; a client that never reads them makes them queue on the server.
            byte[] ping = new byte[8];
            try {
                for (int i = 0; i < 500_000; i++) {
                    client.frame(RawH2.PING, 0, 0, ping);
                }
                client.flush();
            } catch (IOException closedUnderUs) {
                // The server closed the connection while the flood was still being written: what is expected.
            }
        }
        assertCounted("h2_frame_flood", before);
        stillServes();
    }

    @Test
    void aSettingsFloodFromAClientThatDoesNotReadClosesTheConnection() throws Exception {
        double before = refused("h2_frame_flood");
        try (RawH2 client = new RawH2(dataPlane.tlsPort(), HOST, 4096)) {
            byte[] settings = {0, 0x3, 0, 0, 0, 100}; // MAX_CONCURRENT_STREAMS 100, acknowledged each time
            try {
                for (int i = 0; i < 1_000_000; i++) {
                    client.frame(RawH2.SETTINGS, 0, 0, settings);
                }
                client.flush();
            } catch (IOException closedUnderUs) {
                // Expected: the server gave up on the connection.
            }
        }
        assertCounted("h2_frame_flood", before);
        stillServes();
    }

    @Test
    void aClientThatNeverOpensItsWindowIsCutOffAfterTheSendTimeout() throws Exception {
        // The relay holds the upstream back and its own send timeout cuts the stream.
        assertCutOffAfterTheSendTimeout("/bytes/1000000");
    }

    @Test
    void aResponseWrittenInFullThatTheWindowHoldsBackIsCutOffAfterTheSendTimeout() throws Exception {
        // The whole body is queued at once and the relay is done: only its frames wait, for a window never opened.
        assertCutOffAfterTheSendTimeout("/bytes/1000");
    }

    private void assertCutOffAfterTheSendTimeout(String path) throws Exception {
        double before = Scrape.of(metrics).valueOrZero("portico_local_replies_total{reason=\"client_send_timeout\"}");
        try (RawH2 client = new RawH2(dataPlane.tlsPort(), HOST, 0, 0x4, 0)) { // SETTINGS_INITIAL_WINDOW_SIZE 0
            client.frame(RawH2.HEADERS, RawH2.END_HEADERS | RawH2.END_STREAM, 1, RawH2.get(HOST, path));
            client.flush();
            // The client stays busy (a PING every half second, so no idle timeout applies) but never lets the
            // response's DATA through: the stream, not the connection, is cut once the send timeout (3 s in tests)
            // passes, and the upstream let go.
            client.readTimeout(500);
            RawH2.Frame reset = null;
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (reset == null && System.nanoTime() < deadline) {
                client.frame(RawH2.PING, 0, 0, new byte[8]);
                client.flush();
                for (RawH2.Frame frame = client.next(); frame != null; frame = client.next()) {
                    assertTrue(frame.type() != RawH2.GOAWAY, "the connection stays open");
                    assertTrue(frame.type() != RawH2.DATA, "no DATA without a window");
                    if (frame.type() == RawH2.RST_STREAM && frame.stream() == 1) {
                        reset = frame;
                        break;
                    }
                }
            }
            assertTrue(reset != null, "stream 1 reset");
        }
        Eventually.within(Duration.ofSeconds(10), () -> assertTrue(Scrape.of(metrics).valueOrZero(
                "portico_local_replies_total{reason=\"client_send_timeout\"}") >= before + 1, "counted"));
        stillServes();
    }

    /**
     * The send timeout is a limit on standing still, not on the whole transfer: a client that opens its window a
     * little every second gets all of a held-back response, though that takes longer than the timeout (3 s).
     */
    @Test
    void aSlowClientThatKeepsOpeningItsWindowGetsTheWholeResponse() throws Exception {
        try (RawH2 client = new RawH2(dataPlane.tlsPort(), HOST, 0, 0x4, 0)) { // SETTINGS_INITIAL_WINDOW_SIZE 0
            client.frame(RawH2.HEADERS, RawH2.END_HEADERS | RawH2.END_STREAM, 1, RawH2.get(HOST, "/bytes/1000"));
            client.flush();
            client.readTimeout(1000);
            int received = 0;
            boolean ended = false;
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (!ended && System.nanoTime() < deadline) {
                client.frame(RawH2.WINDOW_UPDATE, 0, 1, RawH2.windowIncrement(200));
                client.flush();
                for (RawH2.Frame frame = client.next(); frame != null && !ended; frame = client.next()) {
                    assertTrue(frame.type() != RawH2.RST_STREAM && frame.type() != RawH2.GOAWAY,
                            "not cut off while the window keeps opening: " + frame + " after " + received + " bytes");
                    if (frame.type() == RawH2.DATA && frame.stream() == 1) {
                        received += frame.payload().length;
                        ended = (frame.flags() & RawH2.END_STREAM) != 0;
                    }
                }
            }
            assertTrue(ended, "the response ended; got " + received + " bytes");
            assertEquals(1000, received);
        }
    }

    /**
     * HTTP/2 fields carry no framing of their own, so a field value with CR or LF (or a name with upper case, or
     * a connection-specific field) would become a forged header or a second request on an HTTP/1.1 upstream (the
     * "h2 downgrade" smuggling). Such a request is refused; nothing of it reaches the origin.
     */
    @Test
    void fieldsThatWouldForgeHttp11UpstreamAreRefused() throws Exception {
        String[][] hostile = {
            {"x-evil", "a\r\nInjected: 1"},
            {"x-evil", "a\nInjected: 1"},
            {"X-Upper", "1"},
            {"transfer-encoding", "chunked"},
            {"connection", "keep-alive"},
            {"x-evil\r\ninjected", "1"},
        };
        for (String[] field : hostile) {
            try (RawH2 client = new RawH2(dataPlane.tlsPort(), HOST, 0)) {
                client.readTimeout(3000);
                ByteArrayOutputStream block = new ByteArrayOutputStream();
                block.writeBytes(RawH2.get(HOST, "/echo"));
                block.write(0x00); // literal without indexing, new name
                RawH2.writeString(block, field[0]);
                RawH2.writeString(block, field[1]);
                client.frame(RawH2.HEADERS, RawH2.END_HEADERS | RawH2.END_STREAM, 1, block.toByteArray());
                client.flush();
                RawH2.Frame answer = client.next();
                while (answer != null && answer.stream() != 1 && answer.type() != RawH2.GOAWAY) {
                    answer = client.next();
                }
                // Reset, GOAWAY, a closed connection or a local 4xx: whichever, the origin sees nothing.
                assertTrue(answer == null || answer.type() != RawH2.DATA, field[0] + ": " + answer);
            }
        }
        assertEquals(0, origin.requestCount(), "nothing reached the origin");
        stillServes();
    }
}
