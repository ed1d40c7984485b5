package dev.portico.proxy.tunnel;

import dev.portico.telemetry.accesslog.AccessLog;
import dev.portico.testing.Api;
import dev.portico.testing.DataPlaneTestSupport;
import dev.portico.testing.Eventually;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.RawHttp;
import dev.portico.testing.RawOrigin;
import dev.portico.testing.Scrape;
import dev.portico.testing.TestVertx;
import dev.portico.testing.WebSocketClients;
import dev.portico.testing.WebSocketOrigin;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocket;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * WebSocket (and any other HTTP/1.1 Upgrade) through Portico: real WebSocket origins and clients, and raw sockets for
 * what a WebSocket library would not do.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class WebSocketTunnelTest extends DataPlaneTestSupport {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @TestHTTPResource(value = "/metrics", management = true)
    URL metrics;

    @Inject
    AccessLog accessLog;

    private WebSocketClients clients;
    private final List<AutoCloseable> mine = new ArrayList<>();
    private Path logFile;
    private long logOffset;

    @BeforeEach
    void start() throws IOException {
        clients = new WebSocketClients(dataPlane.port());
        logFile = accessLog.file().orElseThrow();
        logOffset = Files.exists(logFile) ? Files.size(logFile) : 0;
    }

    @AfterEach
    void stop() throws Exception {
        clients.close();
        for (AutoCloseable closeable : mine) {
            closeable.close();
        }
    }

    private WebSocketOrigin wsOrigin(String name) {
        WebSocketOrigin origin = WebSocketOrigin.start(name);
        mine.add(origin);
        return origin;
    }

    private RawOrigin rawOrigin(RawOrigin.Script script) throws IOException {
        RawOrigin origin = RawOrigin.start(script);
        mine.add(origin);
        return origin;
    }

    /** Collects what a socket receives, message by message. */
    private static LinkedBlockingQueue<Object> inbox(WebSocket ws) {
        LinkedBlockingQueue<Object> received = new LinkedBlockingQueue<>();
        ws.textMessageHandler(received::add);
        ws.binaryMessageHandler(received::add);
        return received;
    }

    private static Object next(LinkedBlockingQueue<Object> inbox) throws InterruptedException {
        Object message = inbox.poll(10, TimeUnit.SECONDS);
        assertNotNull(message, "no message within 10 s");
        return message;
    }

    private static CompletableFuture<Short> closed(WebSocket ws) {
        CompletableFuture<Short> closed = new CompletableFuture<>();
        ws.closeHandler(v -> closed.complete(ws.closeStatusCode() == null ? -1 : ws.closeStatusCode()));
        return closed;
    }

    @Test
    void textAndBinaryMessagesAreEchoedThroughTheTunnel() throws Exception {
        WebSocketOrigin origin = wsOrigin("ws");
        vhost(Api.vhost("ws", "ws.test", origin.url()));
        WebSocket ws = clients.open("ws.test", "/chat?room=1");
        LinkedBlockingQueue<Object> inbox = inbox(ws);

        ws.writeTextMessage("hello, origin");
        assertEquals("hello, origin", next(inbox));
        byte[] bytes = {0, 1, 2, (byte) 0xff, 10, 13};
        ws.writeBinaryMessage(Buffer.buffer(bytes));
        assertArrayEquals(bytes, ((Buffer) next(inbox)).getBytes());

        assertEquals(1, origin.accepted());
        String handshake = origin.handshakeHeads().get(0);
        assertTrue(handshake.startsWith("/chat?room=1 "), handshake);
        assertTrue(handshake.toLowerCase().contains("sec-websocket-key="), handshake);
        assertTrue(handshake.contains("Via="), handshake);
        ws.close();
    }

    @Test
    void messagesOfSeveralMebibytesCrossBothWaysByteForByte() throws Exception {
        WebSocketOrigin origin = wsOrigin("big");
        vhost(Api.vhost("big", "big.test", origin.url()));
        WebSocket ws = clients.open("big.test", "/");
        LinkedBlockingQueue<Object> inbox = inbox(ws);
        Random random = new Random(42);
        List<byte[]> sent = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            byte[] message = new byte[6 * 1024 * 1024 + i];
            random.nextBytes(message);
            sent.add(message);
            // Written back to back: the echo streams back while the next message still goes out.
            ws.writeBinaryMessage(Buffer.buffer(message));
        }
        for (byte[] message : sent) {
            Object back = inbox.poll(30, TimeUnit.SECONDS);
            assertNotNull(back, "an echo within 30 s");
            assertTrue(Arrays.equals(message, ((Buffer) back).getBytes()), "the echo is the message, byte for byte");
        }
        ws.close();
    }

    @Test
    void anAnswerOtherThan101IsRelayedAsAnOrdinaryResponse() throws Exception {
        RawOrigin origin = rawOrigin(request -> request.write(
                "HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nContent-Length: 6\r\n\r\nno ws!"));
        vhost(Api.vhost("refusing", "refusing.test", origin.url()));

        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), dataPlane.port())) {
            socket.setSoTimeout(5000);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            out.write(upgradeRequest("refusing.test", "websocket").getBytes(StandardCharsets.ISO_8859_1));
            RawHttp.Response refused = RawHttp.readResponse(in);
            assertEquals(403, refused.status());
            assertEquals("no ws!", refused.body());
            // The connection stays HTTP: the next request on it is answered as usual.
            out.write("GET /next HTTP/1.1\r\nHost: refusing.test\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            assertEquals(403, RawHttp.readResponse(in).status());
        }
        String head = origin.heads().get(0).toLowerCase();
        assertTrue(head.contains("\r\nconnection: upgrade\r\n"), head);
        assertTrue(head.contains("\r\nupgrade: websocket\r\n"), head);
        assertFalse(origin.heads().get(1).toLowerCase().contains("upgrade"), origin.heads().get(1));
    }

    @Test
    void anyUpgradeTokenIsTunnelledExactlyAndAccounted() throws Exception {
        RawOrigin origin = rawOrigin(request -> {
            // Speaks first, in the same write as its 101: those bytes must not be lost in the switch.
            request.write("HTTP/1.1 101 Switching Protocols\r\nConnection: upgrade\r\nUpgrade: foo/2\r\n"
                    + "X-Origin: raw\r\n\r\nwelcome;");
            InputStream in = request.socket().getInputStream();
            byte[] buffer = new byte[8192];
            int n;
            while ((n = in.read(buffer)) >= 0) {
                request.out().write(buffer, 0, n);
                request.out().flush();
            }
            request.socket().close();
        });
        vhost(Api.vhost("foo", "foo.test", origin.url()));

        byte[] payload = new byte[300_000];
        new Random(7).nextBytes(payload);
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), dataPlane.port())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            out.write(("GET /foo HTTP/1.1\r\nHost: foo.test\r\nConnection: Upgrade\r\nUpgrade: foo/2\r\n"
                    + "X-Request-Id: tunnel-foo-1\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            String head = RawHttp.readUntil(in, "\r\n\r\n");
            assertEquals(101, RawHttp.status(head), head);
            String lower = head.toLowerCase();
            assertTrue(lower.contains("\r\nupgrade: foo/2\r\n"), head);
            assertTrue(lower.contains("\r\nconnection: upgrade\r\n"), head);
            assertTrue(head.contains("X-Origin: raw"), head);
            assertEquals("welcome;", new String(in.readNBytes(8), StandardCharsets.ISO_8859_1));
            CompletableFuture<byte[]> echoed = CompletableFuture.supplyAsync(() -> {
                try {
                    return in.readNBytes(payload.length);
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            out.write(payload);
            out.flush();
            assertArrayEquals(payload, echoed.get(10, TimeUnit.SECONDS));
        }
        String originHead = origin.heads().get(0).toLowerCase();
        assertTrue(originHead.contains("\r\nupgrade: foo/2\r\n"), originHead);

        JsonObject line = logLine("tunnel-foo-1");
        assertEquals(101, line.getInteger("status"));
        assertEquals(payload.length, line.getLong("bytesIn"));
        assertEquals(payload.length + "welcome;".length(), line.getLong("bytesOut"));
        assertEquals("client_closed", line.getString("reason"));
        Eventually.within(WAIT, () -> {
            Scrape scrape = Scrape.of(metrics);
            assertEquals(1, scrape.value("portico_tunnels_closed_total{reason=\"client_closed\",vhost=\"foo\"}"));
            assertEquals(0, scrape.value("portico_tunnels_open{vhost=\"foo\"}"));
            assertEquals(payload.length, scrape.value("portico_tunnel_bytes_received_total{vhost=\"foo\"}"));
            assertEquals(payload.length + 8, scrape.value("portico_tunnel_bytes_sent_total{vhost=\"foo\"}"));
            assertTrue(scrape.value("portico_tunnel_duration_seconds_total{vhost=\"foo\"}") > 0);
            assertEquals(1, scrape.value("portico_requests_total{status_class=\"1xx\",vhost=\"foo\"}"));
        });
    }

    @Test
    void anOpenTunnelShowsInTheGaugeUntilItCloses() throws Exception {
        WebSocketOrigin origin = wsOrigin("gauge");
        vhost(Api.vhost("gauge", "gauge.test", origin.url()));
        double connectionsBefore = Scrape.of(metrics).value("portico_client_connections");
        WebSocket ws = clients.open("gauge.test", "/");
        assertEquals(connectionsBefore + 1, Scrape.of(metrics).value("portico_client_connections"));
        assertEquals(1, Scrape.of(metrics).value("portico_tunnels_open{vhost=\"gauge\"}"));
        Eventually.within(WAIT, () -> Api.given().get("/api/v1/stats").then().statusCode(200)
                .body("vhosts.find { it.vhost == 'gauge' }.tunnels.open", equalTo(1)));
        CompletableFuture<Short> closed = closed(ws);
        ws.close();
        closed.get(10, TimeUnit.SECONDS);
        Eventually.within(WAIT, () -> assertEquals(0,
                Scrape.of(metrics).value("portico_tunnels_open{vhost=\"gauge\"}")));
        Eventually.within(WAIT, () -> Api.given().get("/api/v1/stats").then().statusCode(200)
                .body("vhosts.find { it.vhost == 'gauge' }.tunnels.open", equalTo(0))
                // Which side's TCP close came first: after a WebSocket close handshake, usually the server's
                // (RFC 6455 section 7.1.1), so upstream_closed though the client began it.
                .body("vhosts.find { it.vhost == 'gauge' }.tunnels.closed.values().sum()", equalTo(1)));
        // The switched connection is no longer Vert.x's HTTP connection, but its close is still counted.
        Eventually.within(WAIT, () -> assertEquals(connectionsBefore,
                Scrape.of(metrics).value("portico_client_connections")));
    }

    @Test
    void withWebsocketOffTheUpgradeIsDroppedAndTheRequestForwardedPlain() throws Exception {
        RawOrigin origin = rawOrigin(request -> request.write("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nplain"));
        vhost(Api.vhost("nows", "nows.test", origin.url()).put("websocket", false));

        String raw = RawHttp.exchange(dataPlane.port(), upgradeRequest("nows.test", "websocket"));
        assertEquals(200, RawHttp.status(raw), raw);
        assertTrue(raw.endsWith("plain"), raw);
        String head = origin.heads().get(0).toLowerCase();
        assertFalse(head.contains("upgrade"), head);
        assertTrue(head.contains("sec-websocket-key"), head);
    }

    @Test
    void a101ToARequestThatDidNotAskForItIs502() throws Exception {
        RawOrigin origin = rawOrigin(request -> request.write(
                "HTTP/1.1 101 Switching Protocols\r\nConnection: upgrade\r\nUpgrade: websocket\r\n\r\n"));
        vhost(Api.vhost("sneaky", "sneaky.test", origin.url()).put("websocket", false));

        assertEquals(502, RawHttp.status(RawHttp.exchange(dataPlane.port(),
                "GET / HTTP/1.1\r\nHost: sneaky.test\r\nConnection: close\r\n\r\n")));
        // With websocket off the client's own Upgrade is not forwarded, so the origin's 101 is unasked there too.
        assertEquals(502, RawHttp.status(RawHttp.exchange(dataPlane.port(),
                upgradeRequest("sneaky.test", "websocket"))));
    }

    @Test
    void anIdleTunnelIsClosedAfterTheVhostsIdleTimeout() throws Exception {
        WebSocketOrigin origin = wsOrigin("idle");
        vhost(Api.vhost("idle", "idle.test", origin.url()).put("websocketIdleTimeout", "1s"));
        WebSocket ws = clients.open("idle.test", "/");
        CompletableFuture<Short> closed = closed(ws);
        LinkedBlockingQueue<Object> inbox = inbox(ws);
        // Traffic keeps it open past the timeout...
        for (int i = 0; i < 4; i++) {
            ws.writeTextMessage("ping " + i);
            assertEquals("ping " + i, next(inbox));
            Thread.sleep(400);
        }
        assertFalse(closed.isDone(), "closed while in use");
        // ...silence closes it.
        closed.get(10, TimeUnit.SECONDS);
        Eventually.within(WAIT, () -> assertEquals(0, origin.openSockets()));
        Eventually.within(WAIT, () -> assertEquals(1, Scrape.of(metrics)
                .value("portico_tunnels_closed_total{reason=\"idle_timeout\",vhost=\"idle\"}")));
    }

    @Test
    void theOriginClosingIsSeenByTheClientWithItsCloseFrame() throws Exception {
        WebSocketOrigin origin = wsOrigin("oclose");
        vhost(Api.vhost("oclose", "oclose.test", origin.url()));
        WebSocket ws = clients.open("oclose.test", "/");
        CompletableFuture<Short> closed = closed(ws);
        Eventually.within(WAIT, () -> assertEquals(1, origin.openSockets()));
        origin.closeAllSockets();
        assertEquals((short) 1000, closed.get(10, TimeUnit.SECONDS));
        Eventually.within(WAIT, () -> assertEquals(1, Scrape.of(metrics)
                .value("portico_tunnels_closed_total{reason=\"upstream_closed\",vhost=\"oclose\"}")));
    }

    @Test
    void theClientClosingIsSeenByTheOriginWithItsCloseFrame() throws Exception {
        WebSocketOrigin origin = wsOrigin("cclose");
        vhost(Api.vhost("cclose", "cclose.test", origin.url()));
        WebSocket ws = clients.open("cclose.test", "/");
        Eventually.within(WAIT, () -> assertEquals(1, origin.openSockets()));
        TestVertx.await(ws.close((short) 1000, "bye"));
        Eventually.within(WAIT, () -> assertEquals(1, origin.closedByPeer()));
        Eventually.within(WAIT, () -> assertEquals(0, origin.openSockets()));
    }

    @Test
    void deletingOrDisablingTheVhostClosesItsTunnelsGoingAway() throws Exception {
        WebSocketOrigin origin = wsOrigin("gone");
        String id = vhost(Api.vhost("gone", "gone.test", origin.url()));
        WebSocket first = clients.open("gone.test", "/");
        CompletableFuture<Short> firstClosed = closed(first);
        Api.given().body(Api.vhost("gone", "gone.test", origin.url()).put("enabled", false).encode())
                .put("/api/v1/vhosts/" + id).then().statusCode(200);
        // Between two frames, so each side gets RFC 6455's 1001 Going Away before its connection closes.
        assertEquals((short) 1001, firstClosed.get(10, TimeUnit.SECONDS));
        Eventually.within(WAIT, () -> assertEquals(1, origin.closedByPeer()));

        Api.given().body(Api.vhost("gone", "gone.test", origin.url()).encode())
                .put("/api/v1/vhosts/" + id).then().statusCode(200);
        WebSocket second = clients.open("gone.test", "/");
        CompletableFuture<Short> secondClosed = closed(second);
        LinkedBlockingQueue<Object> inbox = inbox(second);
        second.writeTextMessage("before");
        assertEquals("before", next(inbox));
        Api.delete(id);
        assertEquals((short) 1001, secondClosed.get(10, TimeUnit.SECONDS));
        Eventually.within(WAIT, () -> assertEquals(0, origin.openSockets()));
        assertEquals("vhost_removed", logLineWhere("\"status\":101", "\"vhost\":\"gone\"").getString("reason"));
    }

    @Test
    void aNonWebSocketTunnelOfARemovedVhostIsJustClosed() throws Exception {
        RawOrigin origin = rawOrigin(request -> {
            request.write("HTTP/1.1 101 Switching Protocols\r\nConnection: upgrade\r\nUpgrade: foo\r\n\r\n");
            request.awaitClosedByPeer(20_000);
        });
        String id = vhost(Api.vhost("rawgone", "rawgone.test", origin.url()));
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), dataPlane.port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(upgradeRequest("rawgone.test", "foo").getBytes(StandardCharsets.ISO_8859_1));
            InputStream in = socket.getInputStream();
            assertEquals(101, RawHttp.status(RawHttp.readUntil(in, "\r\n\r\n")));
            Api.delete(id);
            // No WebSocket, so no close frame of WebSocket's: the connection just ends.
            assertEquals(-1, in.read());
        }
    }

    private static String upgradeRequest(String host, String protocol) {
        return "GET /ws HTTP/1.1\r\nHost: " + host + "\r\nConnection: Upgrade\r\nUpgrade: " + protocol + "\r\n"
                + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n";
    }

    /** Waits for the access-log line of request {@code id} (lines reach the file within about 200 ms). */
    private JsonObject logLine(String id) {
        return logLineWhere("\"" + id + "\"");
    }

    /** Waits for the last access-log line containing every one of {@code parts}. */
    private JsonObject logLineWhere(String... parts) {
        JsonObject[] found = new JsonObject[1];
        Eventually.within(WAIT, () -> {
            try (RandomAccessFile in = new RandomAccessFile(logFile.toFile(), "r")) {
                in.seek(logOffset);
                byte[] bytes = new byte[(int) (in.length() - logOffset)];
                in.readFully(bytes);
                for (String line : new String(bytes, StandardCharsets.UTF_8).split("\n")) {
                    if (Arrays.stream(parts).allMatch(line::contains)) {
                        found[0] = new JsonObject(line);
                    }
                }
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            assertNotNull(found[0], "a line with " + String.join(", ", parts));
        });
        return found[0];
    }
}
