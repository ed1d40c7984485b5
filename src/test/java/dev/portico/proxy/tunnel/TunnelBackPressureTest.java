package dev.portico.proxy.tunnel;

import dev.portico.testing.Api;
import dev.portico.testing.DataPlaneTestSupport;
import dev.portico.testing.Eventually;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.RawHttp;
import dev.portico.testing.RawOrigin;
import dev.portico.testing.SocketBuffers;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A tunnel holds back a writer whose reader does not read, in either direction: what is in flight stays within what
 * the sockets on the way can hold (Portico pauses the side it reads from while the other side's write queue is
 * full), and once the reader reads, every byte arrives, in order.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class TunnelBackPressureTest extends DataPlaneTestSupport {

    private static final long TOTAL = 64L * 1024 * 1024;
    private static final Duration SETTLE = Duration.ofSeconds(30);
    private static final Duration QUIET = Duration.ofMillis(500);

    /** Writes {@code TOTAL} bytes of a fixed pattern, counting what the socket took. */
    private static void writePattern(OutputStream out, AtomicLong written) throws IOException {
        byte[] chunk = new byte[64 * 1024];
        for (long at = 0; at < TOTAL; at += chunk.length) {
            for (int i = 0; i < chunk.length; i++) {
                chunk[i] = (byte) ((at + i) % 251);
            }
            out.write(chunk);
            written.addAndGet(chunk.length);
        }
        out.flush();
    }

    /** Reads {@code TOTAL} bytes and checks each against the pattern. */
    private static void readPattern(InputStream in) throws IOException {
        byte[] buffer = new byte[64 * 1024];
        long at = 0;
        while (at < TOTAL) {
            int n = in.read(buffer);
            assertTrue(n > 0, "the stream ended after " + at + " bytes");
            for (int i = 0; i < n; i++) {
                if (buffer[i] != (byte) ((at + i) % 251)) {
                    throw new AssertionError("byte " + (at + i) + " differs");
                }
            }
            at += n;
        }
    }

    private Socket connectWithFixedBuffers() throws IOException {
        Socket socket = new Socket();
        socket.setReceiveBufferSize(SocketBuffers.FIXED);
        socket.setSendBufferSize(SocketBuffers.FIXED);
        socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), dataPlane.port()));
        socket.setSoTimeout(30_000);
        return socket;
    }

    private static String upgrade(String host) {
        return "GET /pipe HTTP/1.1\r\nHost: " + host + "\r\nConnection: upgrade\r\nUpgrade: pipe\r\n\r\n";
    }

    @Test
    void anOriginWritingToAClientThatDoesNotReadIsHeldBack() throws Exception {
        AtomicLong written = new AtomicLong();
        try (RawOrigin origin = RawOrigin.start(request -> {
            request.socket().setSendBufferSize(SocketBuffers.FIXED);
            request.write("HTTP/1.1 101 Switching Protocols\r\nConnection: upgrade\r\nUpgrade: pipe\r\n\r\n");
            writePattern(request.out(), written);
            request.awaitClosedByPeer(30_000);
        })) {
            vhost(Api.vhost("down", "down.test", origin.url()));
            try (Socket client = connectWithFixedBuffers()) {
                client.getOutputStream().write(upgrade("down.test").getBytes(StandardCharsets.ISO_8859_1));
                InputStream in = client.getInputStream();
                assertEquals(101, RawHttp.status(RawHttp.readUntil(in, "\r\n\r\n")));

                long held = Eventually.stable(SETTLE, QUIET, written::get);
                assertTrue(held < SocketBuffers.relayBound(), "in flight while the client did not read: " + held);
                assertTrue(held < TOTAL, "the origin was held back");

                readPattern(in);
                // The origin's thread counts a chunk after its write returned, which can be after the client read it.
                assertEquals(TOTAL, Eventually.value(Duration.ofSeconds(5), written::get, n -> n == TOTAL));
            }
        }
    }

    @Test
    void aClientWritingToAnOriginThatDoesNotReadIsHeldBack() throws Exception {
        CountDownLatch read = new CountDownLatch(1);
        CompletableFuture<Void> originRead = new CompletableFuture<>();
        try (RawOrigin origin = RawOrigin.start(request -> {
            request.socket().setReceiveBufferSize(SocketBuffers.FIXED);
            request.write("HTTP/1.1 101 Switching Protocols\r\nConnection: upgrade\r\nUpgrade: pipe\r\n\r\n");
            read.await(60, TimeUnit.SECONDS);
            try {
                readPattern(request.socket().getInputStream());
                originRead.complete(null);
            } catch (AssertionError | IOException e) {
                originRead.completeExceptionally(e);
            }
        })) {
            vhost(Api.vhost("up", "up.test", origin.url()));
            try (Socket client = connectWithFixedBuffers()) {
                OutputStream out = client.getOutputStream();
                out.write(upgrade("up.test").getBytes(StandardCharsets.ISO_8859_1));
                assertEquals(101, RawHttp.status(RawHttp.readUntil(client.getInputStream(), "\r\n\r\n")));
                AtomicLong written = new AtomicLong();
                CompletableFuture<Void> writing = CompletableFuture.runAsync(() -> {
                    try {
                        writePattern(out, written);
                    } catch (IOException e) {
                        throw new IllegalStateException(e);
                    }
                });

                long held = Eventually.stable(SETTLE, QUIET, written::get);
                assertTrue(held < SocketBuffers.relayBound(), "in flight while the origin did not read: " + held);
                assertTrue(held < TOTAL, "the client was held back");

                read.countDown();
                writing.get(60, TimeUnit.SECONDS);
                originRead.get(60, TimeUnit.SECONDS);
            }
        }
    }
}
