package dev.portico.proxy.upstream;

import dev.portico.testing.Api;
import dev.portico.testing.DataPlaneTestSupport;
import dev.portico.testing.Eventually;
import dev.portico.testing.Pacing;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.RawHttp;
import dev.portico.testing.RawOrigin;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A client that stops sending its request body mid-way is answered 408 once {@code client-body-timeout} passes
 * without a byte (nginx {@code client_body_timeout}), and the upstream request is cancelled so that a truncated body
 * never looks complete there. A client that keeps sending, however slowly, is not cut; the time an upstream that
 * does not read holds the client back is not counted (see {@code StreamingTest}).
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class ClientBodyTimeoutTest extends DataPlaneTestSupport {

    @ConfigProperty(name = "portico.dataplane.client-body-timeout")
    Duration timeout;

    private Socket connect() throws IOException {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), dataPlane.port());
        socket.setSoTimeout(15_000);
        return socket;
    }

    private static void write(OutputStream out, String bytes) throws IOException {
        out.write(bytes.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }

    @Test
    void aClientThatStopsSendingItsBodyGets408AndTheUpstreamRequestIsCancelled() throws Exception {
        try (RawOrigin origin = RawOrigin.start(
                request -> request.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"))) {
            vhost(Api.vhost("stops", "stops.test", origin.url()));
            try (Socket socket = connect()) {
                write(socket.getOutputStream(),
                        "POST /upload HTTP/1.1\r\nHost: stops.test\r\nContent-Length: 10\r\n\r\nhello");
                long start = System.nanoTime();
                InputStream in = socket.getInputStream();
                RawHttp.Response response = RawHttp.readResponse(in);
                long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                assertEquals(408, response.status(), response.head());
                assertTrue(response.body().contains("\"reason\":\"client_body_timeout\""), response.body());
                assertEquals("close", response.header("Connection"));
                assertTrue(waited >= timeout.toMillis() - 100 && waited < timeout.toMillis() + 3000,
                        "answered after " + waited + " ms");
                assertEquals(-1, in.read(), "the connection is closed after the 408");
            }
            // The origin was reading a body that will never be complete: its connection is closed, not ended.
            Eventually.within(Duration.ofSeconds(5), () -> assertEquals(1, origin.closedByPeer()));
        }
    }

    @Test
    void aClientThatSendsSlowlyButSteadilyIsNotCut() throws Exception {
        vhost("steady", "steady.test", origin("a"));
        long gap = timeout.toMillis() / 3;
        try (Socket socket = connect()) {
            OutputStream out = socket.getOutputStream();
            write(out, "POST /echo HTTP/1.1\r\nHost: steady.test\r\nContent-Length: 6\r\nConnection: close\r\n\r\n");
            // Six bytes over twice the timeout: never a gap as long as the timeout.
            for (int i = 0; i < 6; i++) {
                Pacing.pause(Duration.ofMillis(gap), "a body sent slowly, never a gap as long as the timeout");
                write(out, "s");
            }
            RawHttp.Response response = RawHttp.readResponse(socket.getInputStream());
            assertEquals(200, response.status(), response.head());
            assertTrue(response.body().contains("\"bodyLength\":6"), response.body());
        }
    }
}
