package dev.portico.proxy.server.http1;

import dev.portico.testing.DataPlaneTestSupport;
import dev.portico.testing.Pacing;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.RawHttp;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static dev.portico.proxy.server.http1.Refusals.assertRefused;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A request head must arrive within the client header timeout (nginx {@code client_header_timeout}), however
 * steadily its bytes trickle in; keep-alive idleness between requests is the idle timeout's business.
 */
@QuarkusTest
@TestProfile(ClientHeaderTimeoutTest.OneSecond.class)
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class ClientHeaderTimeoutTest extends DataPlaneTestSupport {

    /** A one-second header timeout, so the tests wait seconds, not the default 30. */
    public static final class OneSecond implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("portico.dataplane.client-header-timeout", "1s");
        }
    }

    private Socket connect() throws IOException {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), dataPlane.port());
        socket.setSoTimeout(8000);
        return socket;
    }

    @Test
    void aHeadTricklingInByteByByteIsAnswered408() throws Exception {
        try (Socket socket = connect()) {
            long start = System.nanoTime();
            OutputStream out = socket.getOutputStream();
            out.write(("GET / HTTP/1.1\r\nHost: slow.test\r\nX-Slow: ").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            // One byte every 100 ms, as a slowloris client does: each keeps the idle timeout from firing.
            Thread trickle = new Thread(() -> {
                try {
                    for (int i = 0; i < 100; i++) {
                        out.write('a');
                        out.flush();
                        Pacing.pause(Duration.ofMillis(100), "a slowloris trickling its head");
                    }
                } catch (IOException | InterruptedException e) {
                    // the proxy closed the connection
                }
            });
            trickle.setDaemon(true);
            trickle.start();
            String raw = RawHttp.readToClose(socket.getInputStream());
            long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            trickle.interrupt();
            assertRefused(raw, 408, "request_header_timeout");
            assertTrue(elapsedMs >= 1000 && elapsedMs < 5000, "answered after " + elapsedMs + " ms");
        }
    }

    @Test
    void aNewConnectionThatSendsNothingIsClosedWithoutAnswer() throws Exception {
        try (Socket socket = connect()) {
            long start = System.nanoTime();
            assertEquals("", RawHttp.readToClose(socket.getInputStream()));
            long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(elapsedMs >= 900 && elapsedMs < 5000, "closed after " + elapsedMs + " ms");
        }
    }

    @Test
    void anIdleKeepAliveConnectionIsNotCutByTheHeaderTimeout() throws Exception {
        vhost("idle", "idle.test", origin("a"));
        try (Socket socket = connect()) {
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            out.write("GET /echo HTTP/1.1\r\nHost: idle.test\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            String head = RawHttp.readUntil(in, "\r\n\r\n");
            assertEquals(200, RawHttp.status(head), head);
            int at = head.toLowerCase().indexOf("content-length:");
            in.readNBytes(Integer.parseInt(head.substring(at + 15, head.indexOf("\r\n", at)).trim()));
            // Idle between requests for well over the header timeout (the behaviour under test is time passing).
            Pacing.pause(Duration.ofMillis(2500), "idle between requests past the header timeout");
            out.write("GET /echo HTTP/1.1\r\nHost: idle.test\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            assertEquals(200, RawHttp.status(RawHttp.readToClose(in)));
        }
    }
}
