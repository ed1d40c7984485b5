package dev.portico.proxy.limits;

import dev.portico.proxy.route.SnapshotCompiler;
import dev.portico.proxy.server.DataPlaneServer;
import dev.portico.testing.Api;
import dev.portico.testing.Eventually;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.RawHttp;
import dev.portico.testing.UploadOrigin;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 11 item 10: request bodies are limited per vhost ({@code maxRequestBody}) and by a global default (1 GiB),
 * over real sockets. A declared length over the limit gets 413 before anything reaches the origin; a chunked body
 * that grows past it is cut, and the origin sees its request fail, never end.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class RequestBodyLimitTest {

    private static final String TERABYTE = "1000000000000";

    @Inject
    DataPlaneServer dataPlane;

    @Inject
    SnapshotCompiler compiler;

    private UploadOrigin origin;

    @AfterEach
    void cleanUp() {
        Api.deleteAll();
        if (origin != null) {
            origin.close();
            origin = null;
        }
    }

    @Test
    void aDeclaredTerabyteIsRefusedByDefaultBeforeAnythingReachesTheOrigin() throws Exception {
        origin = UploadOrigin.start();
        Api.create(Api.vhost("default-limit", "default.test", origin.url()));
        try (Socket socket = connect()) {
            send(socket, "POST /upload HTTP/1.1\r\nHost: default.test\r\nContent-Length: " + TERABYTE + "\r\n"
                    + "Expect: 100-continue\r\n\r\n");
            String reply = readToEnd(socket);
            assertTrue(reply.startsWith("HTTP/1.1 413 "), "413 first, no 100 Continue before it: " + reply);
            assertTrue(reply.toLowerCase().contains("connection: close"), reply);
            assertTrue(reply.contains("\"reason\":\"request_body_too_large\""), reply);
        }
        assertNothingReachedTheOrigin();
    }

    @Test
    void aDeclaredBodyOverTheVhostsLimitGets413AndTheConnectionIsClosed() throws Exception {
        origin = UploadOrigin.start();
        Api.create(limited("small", "small.test", "1KiB"));
        try (Socket socket = connect()) {
            byte[] body = new byte[1025];
            send(socket, "POST /upload HTTP/1.1\r\nHost: small.test\r\nContent-Length: 1025\r\n\r\n");
            socket.getOutputStream().write(body);
            String reply = readToEnd(socket);
            assertEquals(413, RawHttp.status(reply), reply);
            assertTrue(reply.contains("X-Content-Type-Options: nosniff"), "the vhost's response edits apply: " + reply);
        }
        assertNothingReachedTheOrigin();
    }

    @Test
    void aBrowserStyleUploadWithoutExpectStillSeesThe413() throws Exception {
        origin = UploadOrigin.start();
        Api.create(limited("browser", "browser.test", "1KiB"));
        try (Socket socket = connect()) {
            send(socket, "POST /upload HTTP/1.1\r\nHost: browser.test\r\nContent-Length: 4194304\r\n\r\n");
            Thread sender = new Thread(() -> {
                try {
                    OutputStream out = socket.getOutputStream();
                    byte[] piece = new byte[16384];
                    for (int i = 0; i < 256; i++) {
                        out.write(piece);
                    }
                } catch (IOException expected) {
                    // the proxy stops reading the body it refused
                }
            });
            sender.start();
            String reply = readToEnd(socket);
            assertEquals(413, RawHttp.status(reply), reply);
            sender.join(10_000);
        }
        assertNothingReachedTheOrigin();
    }

    @Test
    void aBodyAtTheLimitPassesDeclaredOrChunked() throws Exception {
        origin = UploadOrigin.start();
        Api.create(limited("exact", "exact.test", "1KiB"));
        byte[] body = new byte[1024];
        Arrays.fill(body, (byte) 'x');
        try (Socket socket = connect()) {
            send(socket, "POST /upload HTTP/1.1\r\nHost: exact.test\r\nContent-Length: 1024\r\n"
                    + "Connection: close\r\n\r\n");
            socket.getOutputStream().write(body);
            String reply = readToEnd(socket);
            assertEquals(200, RawHttp.status(reply), reply);
            assertTrue(reply.endsWith("\r\n\r\n1024"), reply);
        }
        try (Socket socket = connect()) {
            send(socket, "POST /upload HTTP/1.1\r\nHost: exact.test\r\nTransfer-Encoding: chunked\r\n"
                    + "Connection: close\r\n\r\n");
            sendChunk(socket, 1000);
            sendChunk(socket, 24);
            send(socket, "0\r\n\r\n");
            String reply = readToEnd(socket);
            assertEquals(200, RawHttp.status(reply), reply);
            assertTrue(reply.contains("1024"), reply);
        }
        assertEquals(List.of(new UploadOrigin.Body("/upload", 1024, true, false),
                new UploadOrigin.Body("/upload", 1024, true, false)), origin.bodies());
    }

    @Test
    void aChunkedBodyGrowingPastTheLimitIsCutWith413AndTheOriginSeesAReset() throws Exception {
        origin = UploadOrigin.start();
        Api.create(limited("chunked", "chunked.test", "1KiB"));
        try (Socket socket = connect()) {
            send(socket, "POST /upload HTTP/1.1\r\nHost: chunked.test\r\nTransfer-Encoding: chunked\r\n\r\n");
            sendChunk(socket, 1000);
            Eventually.within(Duration.ofSeconds(10), () -> assertEquals(1000, origin.bytesReceived()));
            sendChunk(socket, 100);
            String reply = readToEnd(socket);
            assertEquals(413, RawHttp.status(reply), reply);
            assertTrue(reply.contains("\"reason\":\"request_body_too_large\""), reply);
        }
        Eventually.within(Duration.ofSeconds(10), () -> assertEquals(
                List.of(new UploadOrigin.Body("/upload", 1000, false, true)), origin.bodies(),
                "the origin's request failed after the 1000 bytes under the limit, and never ended"));
        assertFalse(compiler.healthOf(origin.url()).isDown(System.nanoTime()),
                "the client's oversized body is not held against the upstream");
    }

    @Test
    void aChunkedBodyGrowingPastTheLimitAfterTheResponseBeganResetsBothSides() throws Exception {
        origin = UploadOrigin.start();
        Api.create(limited("early", "early.test", "1KiB"));
        try (Socket socket = connect()) {
            send(socket, "POST /early HTTP/1.1\r\nHost: early.test\r\nTransfer-Encoding: chunked\r\n\r\n");
            sendChunk(socket, 1000);
            InputStream in = socket.getInputStream();
            String head = RawHttp.readUntil(in, "\r\n\r\n");
            assertEquals(200, RawHttp.status(head), head);
            assertTrue(RawHttp.readUntil(in, "started\r\n").endsWith("started\r\n"), "the first piece arrived");
            sendChunk(socket, 100);
            String rest = readToEnd(socket);
            assertFalse(rest.contains("0\r\n\r\n"), "the response never ends as if complete: " + rest);
        }
        Eventually.within(Duration.ofSeconds(10), () -> assertEquals(
                List.of(new UploadOrigin.Body("/early", 1000, false, true)), origin.bodies()));
    }

    @Test
    void unlimitedLetsADeclaredTerabyteThrough() throws Exception {
        origin = UploadOrigin.start();
        Api.create(limited("unlimited", "unlimited.test", "unlimited"));
        try (Socket socket = connect()) {
            send(socket, "POST /upload HTTP/1.1\r\nHost: unlimited.test\r\nContent-Length: " + TERABYTE + "\r\n"
                    + "Expect: 100-continue\r\n\r\n");
            String interim = RawHttp.readUntil(socket.getInputStream(), "\r\n\r\n");
            assertTrue(interim.startsWith("HTTP/1.1 100 Continue"), interim);
            send(socket, "first bytes");
            Eventually.within(Duration.ofSeconds(5), () -> assertEquals(11, origin.bytesReceived(),
                    "the request and its body go upstream"));
        }
    }

    @Test
    void aStaticVhostRefusesADeclaredBodyOverItsLimitToo(@TempDir Path root) throws Exception {
        Files.writeString(root.resolve("index.html"), "hello");
        Api.create(new JsonObject().put("name", "files").put("hostnames", new JsonArray().add("files.test"))
                .put("upstreams", new JsonArray()).put("static", new JsonObject().put("root", root.toString()))
                .put("maxRequestBody", "1KiB"));
        try (Socket socket = connect()) {
            send(socket, "GET /index.html HTTP/1.1\r\nHost: files.test\r\nContent-Length: " + TERABYTE + "\r\n\r\n");
            String reply = readToEnd(socket);
            assertEquals(413, RawHttp.status(reply), reply);
        }
        try (Socket socket = connect()) {
            send(socket, "GET /index.html HTTP/1.1\r\nHost: files.test\r\nContent-Length: 5\r\n\r\nabcde");
            String reply = readToEnd(socket);
            assertEquals(200, RawHttp.status(reply), reply);
            assertTrue(reply.endsWith("hello"), reply);
        }
    }

    private JsonObject limited(String name, String hostname, String maxRequestBody) {
        return Api.vhost(name, hostname, origin.url()).put("maxRequestBody", maxRequestBody);
    }

    private void assertNothingReachedTheOrigin() {
        assertEquals(0, origin.connections(), "no connection to the origin");
        assertEquals(0, origin.requests(), "no request head at the origin");
    }

    private Socket connect() throws IOException {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), dataPlane.port());
        socket.setSoTimeout(10_000);
        return socket;
    }

    private static void send(Socket socket, String text) throws IOException {
        socket.getOutputStream().write(text.getBytes(StandardCharsets.ISO_8859_1));
        socket.getOutputStream().flush();
    }

    private static void sendChunk(Socket socket, int size) throws IOException {
        byte[] data = new byte[size];
        Arrays.fill(data, (byte) 'y');
        OutputStream out = socket.getOutputStream();
        out.write((Integer.toHexString(size) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
        out.write(data);
        out.write("\r\n".getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }

    /** Reads until the proxy closes (or resets) the connection; fails if it keeps it open for 10 s. */
    private static String readToEnd(Socket socket) throws IOException {
        ByteArrayOutputStream seen = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        InputStream in = socket.getInputStream();
        try {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                seen.write(buffer, 0, n);
            }
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the connection was left open: " + seen.toString(StandardCharsets.ISO_8859_1));
        } catch (SocketException reset) {
            // a reset ends the stream as well
        }
        return seen.toString(StandardCharsets.ISO_8859_1);
    }
}
