package dev.portico.proxy.server.keepalive;

import dev.portico.testing.Api;
import dev.portico.testing.DataPlaneTestSupport;
import dev.portico.testing.OriginServer;
import dev.portico.testing.Pacing;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.RawHttp;
import dev.portico.testing.TestVertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.SocketAddress;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The data plane's idle timeout is a keep-alive timeout (nginx {@code keepalive_timeout}): it closes a connection
 * that waits between requests, never one whose request is still being answered. While a request is in flight the
 * vhost's own deadlines decide (the upstream read timeout for a head or a quiet stream, up to an hour), as
 * nginx's {@code proxy_read_timeout} does; cutting the client off at the keep-alive timeout would break a long
 * poll or a quiet event stream that the vhost was configured to wait for.
 */
@QuarkusTest
@TestProfile(KeepAliveIdleTimeoutTest.TwoSeconds.class)
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class KeepAliveIdleTimeoutTest extends DataPlaneTestSupport {

    /** A two-second idle timeout, so the tests wait seconds, not the default 75; h2c for the HTTP/2 case. */
    public static final class TwoSeconds implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("portico.dataplane.idle-timeout", "2s", "portico.dataplane.h2c", "true");
        }
    }

    private Socket connect() throws IOException {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), dataPlane.port());
        socket.setSoTimeout(15_000);
        return socket;
    }

    /** A vhost on {@code origin} whose upstream may take ten seconds: longer than the idle timeout. */
    private void patientVhost(String hostname, OriginServer origin) {
        vhost(Api.vhost("patient", hostname, origin.url()).put("readTimeout", "10s"));
    }

    /** A vhost serving the files under {@code root} as {@code hostname}: answers Portico writes itself. */
    private static void staticVhost(String name, String hostname, Path root) {
        vhost(new JsonObject().put("name", name).put("hostnames", new JsonArray().add(hostname))
                .put("static", new JsonObject().put("root", root.toString())));
    }

    /** An h2c (prior knowledge) client of the data plane on one connection; its close completes {@code closedAt}. */
    private static HttpClient http2Client(CompletableFuture<Long> closedAt) {
        HttpClient client = TestVertx.get().createHttpClient(new HttpClientOptions()
                .setProtocolVersion(HttpVersion.HTTP_2).setHttp2ClearTextUpgrade(false).setHttp2MaxPoolSize(1));
        client.connectionHandler(opened -> opened.closeHandler(v -> closedAt.complete(System.nanoTime())));
        return client;
    }

    /** A GET of {@code uri} naming {@code hostname}, sent to the data plane's address. */
    private RequestOptions get(String hostname, String uri) {
        return new RequestOptions().setMethod(HttpMethod.GET).setHost(hostname).setPort(dataPlane.port()).setURI(uri)
                .setServer(SocketAddress.inetSocketAddress(dataPlane.port(), "127.0.0.1"));
    }

    /** Sends a kept-alive GET of the origin's {@code /slow/MS} and reads its whole answer, {@code slow}. */
    private static void getSlow(Socket socket, String host, long millis) throws IOException {
        socket.getOutputStream().write(("GET /slow/" + millis + " HTTP/1.1\r\nHost: " + host + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        InputStream in = socket.getInputStream();
        String head = RawHttp.readUntil(in, "\r\n\r\n");
        assertEquals(200, RawHttp.status(head), head);
        assertEquals("slow", new String(in.readNBytes(4), StandardCharsets.US_ASCII));
    }

    @Test
    void aConnectionIdleBetweenRequestsIsClosedAtTheIdleTimeout() throws Exception {
        patientVhost("idle.test", origin("a"));
        try (Socket socket = connect()) {
            getSlow(socket, "idle.test", 10);
            long answered = System.nanoTime();
            assertEquals("", RawHttp.readToClose(socket.getInputStream()), "nothing more is sent before the close");
            long idleMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - answered);
            assertTrue(idleMs >= 1500 && idleMs < 8000, "closed after " + idleMs + " ms idle");
        }
    }

    @Test
    void aRequestWaitingLongerThanTheIdleTimeoutForItsHeadIsAnswered() throws Exception {
        patientVhost("poll.test", origin("a"));
        try (Socket socket = connect()) {
            long start = System.nanoTime();
            socket.getOutputStream().write("GET /slow/4000 HTTP/1.1\r\nHost: poll.test\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            String response = RawHttp.readToClose(socket.getInputStream());
            long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertEquals(200, RawHttp.status(response), response);
            assertTrue(response.endsWith("slow"), response);
            assertTrue(elapsedMs >= 3900, "answered after " + elapsedMs + " ms");
        }
    }

    @Test
    void aStreamQuietLongerThanTheIdleTimeoutIsRelayedToItsEnd() throws Exception {
        patientVhost("events.test", origin("a"));
        try (Socket socket = connect()) {
            socket.getOutputStream().write("GET /pause/4000 HTTP/1.1\r\nHost: events.test\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            String response = RawHttp.readToClose(socket.getInputStream());
            assertEquals(200, RawHttp.status(response), response);
            assertTrue(response.contains("first;") && response.contains("second"), response);
            assertTrue(response.endsWith("0\r\n\r\n"), "the chunked body is complete: " + response);
        }
    }

    @Test
    void aConnectionStaysKeptAliveAfterARequestLongerThanTheIdleTimeout() throws Exception {
        patientVhost("again.test", origin("a"));
        try (Socket socket = connect()) {
            getSlow(socket, "again.test", 3000);
            // A second request at once: answered on the same connection.
            socket.getOutputStream().write("GET /slow/10 HTTP/1.1\r\nHost: again.test\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            String second = RawHttp.readToClose(socket.getInputStream());
            assertEquals(200, RawHttp.status(second), second);
        }
    }

    @Test
    void anHttp2StreamWaitingLongerThanTheIdleTimeoutIsAnsweredThenTheIdleConnectionCloses() throws Exception {
        patientVhost("h2poll.test", origin("a"));
        CompletableFuture<Long> closedAt = new CompletableFuture<>();
        HttpClient client = http2Client(closedAt);
        try {
            AtomicReference<HttpVersion> version = new AtomicReference<>();
            long start = System.nanoTime();
            Buffer body = client.request(get("h2poll.test", "/slow/4000"))
                    .compose(request -> request.send().compose(response -> {
                        version.set(response.version());
                        return response.body();
                    }))
                    .toCompletionStage().toCompletableFuture().get(15, TimeUnit.SECONDS);
            long answered = System.nanoTime();
            assertEquals("slow", body.toString());
            assertTrue(TimeUnit.NANOSECONDS.toMillis(answered - start) >= 3900, "answered too soon");
            assertEquals(HttpVersion.HTTP_2, version.get());
            long idleMs = TimeUnit.NANOSECONDS.toMillis(closedAt.get(15, TimeUnit.SECONDS) - answered);
            assertTrue(idleMs >= 1500 && idleMs < 8000, "closed after " + idleMs + " ms idle");
        } finally {
            client.close();
        }
    }

    @Test
    void aClientThatStopsReadingIsStillClosedAtTheIdleTimeout(@TempDir Path root) throws Exception {
        // A static file is written by Portico itself, with no send timeout of its own: only the idle timeout ends a
        // client that takes none of it. 32 MiB is far more than the socket buffers on both sides hold.
        int size = 32 * 1024 * 1024;
        Files.write(root.resolve("big.bin"), new byte[size]);
        staticVhost("files", "files.test", root);
        try (Socket socket = new Socket()) {
            socket.setReceiveBufferSize(16 * 1024);
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), dataPlane.port()));
            socket.setSoTimeout(15_000);
            socket.getOutputStream().write("GET /big.bin HTTP/1.1\r\nHost: files.test\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            // Reading nothing for three times the idle timeout (the behaviour under test is time passing).
            Pacing.pause(Duration.ofSeconds(6), "a client that stopped reading its response");
            long received = 0;
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[64 * 1024];
            try {
                for (int n; (n = in.read(buffer)) > 0; ) {
                    received += n;
                }
            } catch (SocketException reset) {
                // closed with bytes unsent: the kernel may turn the close into a reset
            }
            assertTrue(received < size, "the whole response arrived (" + received + " bytes): the connection stayed");
        }
    }

    @Test
    void anHttp2ClientThatKeepsItsWindowShutIsClosedAtTheIdleTimeout(@TempDir Path root) throws Exception {
        Files.write(root.resolve("big.bin"), new byte[8 * 1024 * 1024]);
        staticVhost("h2files", "h2files.test", root);
        CompletableFuture<Long> closedAt = new CompletableFuture<>();
        HttpClient client = http2Client(closedAt);
        try {
            // The response is paused as soon as its head arrives: the client reads no more, so it sends no
            // WINDOW_UPDATE and Portico's data waits in flow control.
            HttpVersion version = client.request(get("h2files.test", "/big.bin"))
                    .compose(request -> request.send().map(response -> {
                        response.pause();
                        return response.version();
                    }))
                    .toCompletionStage().toCompletableFuture().get(15, TimeUnit.SECONDS);
            long paused = System.nanoTime();
            assertEquals(HttpVersion.HTTP_2, version);
            long idleMs = TimeUnit.NANOSECONDS.toMillis(closedAt.get(15, TimeUnit.SECONDS) - paused);
            assertTrue(idleMs >= 1500 && idleMs < 8000, "closed after " + idleMs + " ms");
        } finally {
            client.close();
        }
    }

    @Test
    void aBodyLeftUnfinishedAfterALocalAnswerDoesNotKeepTheConnection(@TempDir Path root) throws Exception {
        // Answered from disk without reading the body: the exchange ends, the client never finishes its body.
        Files.writeString(root.resolve("page.txt"), "page");
        staticVhost("page", "page.test", root);
        try (Socket socket = connect()) {
            long start = System.nanoTime();
            socket.getOutputStream().write(("POST /page.txt HTTP/1.1\r\nHost: page.test\r\nContent-Length: 100\r\n"
                    + "\r\n0123456789").getBytes(StandardCharsets.US_ASCII));
            String response = RawHttp.readToClose(socket.getInputStream());
            long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(RawHttp.status(response) >= 400, response);
            assertTrue(elapsedMs < 10_000, "closed after " + elapsedMs + " ms");
        }
    }
}
