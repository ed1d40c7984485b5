package dev.portico.proxy.cache;

import dev.portico.testing.CacheTestSupport;
import dev.portico.testing.Eventually;
import dev.portico.testing.Pacing;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient.Reply;
import dev.portico.testing.RawHttp;
import dev.portico.testing.ScriptedOrigin;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Stored bodies larger than one write slice (32 KiB) are sent in several writes: every byte arrives in order, to a
 * fast client, to one that reads slowly, in ranges that straddle slices, and a client leaving halfway through
 * costs nothing but its own response.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class LargeHitTest extends CacheTestSupport {

    /** Not a multiple of the slice, so the last write is a short one. */
    private static final int SIZE = 5 * 32 * 1024 + 4321;
    private static final byte[] BODY = new byte[SIZE];

    static {
        new Random(42).nextBytes(BODY);
    }

    @BeforeEach
    void storeALargeBody() {
        origin.on("/large", ScriptedOrigin.Reply.of(200, "", "Cache-Control", "max-age=60",
                "Content-Type", "application/octet-stream").withBody(Buffer.buffer(BODY)));
        cachedVhost("large.test");
        Reply stored = get("large.test", "/large");
        assertCacheStatus(stored, STORED);
        assertArrayEquals(BODY, stored.body().getBytes());
    }

    /** Every response, whole or cut short, was completed and accounted: none stays in flight. */
    @AfterEach
    void nothingStaysInFlight() {
        Eventually.within(Duration.ofSeconds(10), () -> assertEquals(0, dataPlane.inFlight()));
    }

    @Test
    void aHitSendsEveryByteInOrder() {
        for (int i = 0; i < 3; i++) {
            Reply hit = get("large.test", "/large");
            assertFromCache(hit, HIT_60);
            assertEquals(Integer.toString(SIZE), hit.header("Content-Length"));
            assertArrayEquals(BODY, hit.body().getBytes());
        }
        assertEquals(1, origin.count("/large"));
    }

    @Test
    void aRangeAcrossSlicesIsExact() {
        int from = 32 * 1024 - 10;
        int to = 3 * 32 * 1024 + 9;
        Reply partial = get("large.test", "/large", "Range", "bytes=" + from + "-" + to);
        assertEquals(206, partial.status());
        assertEquals("bytes " + from + "-" + to + "/" + SIZE, partial.header("Content-Range"));
        assertArrayEquals(Arrays.copyOfRange(BODY, from, to + 1), partial.body().getBytes());
        assertFromCache(partial, HIT_60);
    }

    @Test
    void aSlowReaderGetsTheWholeBodyAndTheConnectionStaysUsable() throws IOException, InterruptedException {
        try (Socket socket = smallWindow()) {
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            String request = "GET /large HTTP/1.1\r\nHost: large.test\r\n\r\n";
            for (int round = 0; round < 2; round++) {
                out.write(request.getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
                String head = RawHttp.readUntil(in, "\r\n\r\n");
                assertTrue(head.startsWith("HTTP/1.1 200"), head);
                assertTrue(head.toLowerCase(java.util.Locale.ROOT).contains("content-length: " + SIZE), head);
                ByteArrayOutputStream body = new ByteArrayOutputStream();
                byte[] chunk = new byte[2048];
                while (body.size() < SIZE) {
                    int n = in.read(chunk, 0, Math.min(chunk.length, SIZE - body.size()));
                    assertTrue(n > 0, "the body ended after " + body.size() + " bytes");
                    body.write(chunk, 0, n);
                    if (body.size() < 64 * 1024) {
                        Pacing.pause(Duration.ofMillis(1), "a slow reader: the hit must wait for the socket");
                    }
                }
                assertArrayEquals(BODY, body.toByteArray());
            }
        }
    }

    @Test
    void aClientLeavingHalfwayDoesNotDisturbTheNext() throws IOException {
        for (int i = 0; i < 5; i++) {
            try (Socket socket = smallWindow()) {
                socket.getOutputStream().write("GET /large HTTP/1.1\r\nHost: large.test\r\n\r\n"
                        .getBytes(StandardCharsets.ISO_8859_1));
                RawHttp.readUntil(socket.getInputStream(), "\r\n\r\n");
                socket.getInputStream().readNBytes(1000);
            }
        }
        Reply hit = get("large.test", "/large");
        assertFromCache(hit, HIT_60);
        assertArrayEquals(BODY, hit.body().getBytes());
    }

    /** A connection whose receive window is 4 KiB from the start (set before connecting, as TCP requires). */
    private Socket smallWindow() throws IOException {
        Socket socket = new Socket();
        socket.setReceiveBufferSize(4096);
        socket.setSoTimeout(10_000);
        socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), dataPlane.port()));
        return socket;
    }
}
