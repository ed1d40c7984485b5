package dev.portico.control.api.body;

import dev.portico.control.api.auth.AdminSettings;
import dev.portico.testing.Api;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.RawHttp;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;

import static dev.portico.testing.Problems.VHOSTS;
import static dev.portico.testing.Problems.assertNoVhosts;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A request body over {@code portico.admin.max-body-size}: the token is checked first (401 without it, whatever the
 * size), then the size (413), both as problem documents; the connection is closed once the body has been sent, so
 * a client that writes its whole body before reading still gets the answer. Real bodies over real sockets.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class BodyLimitTest {

    @TestHTTPResource("/")
    URL api;

    @Inject
    AdminSettings config;

    @AfterEach
    void removeAllVhosts() {
        Api.deleteAll();
    }

    @Test
    void anOversizedBodyWithoutTheTokenIs401() throws Exception {
        byte[] body = oversized();

        Answer answer = send(head(false, "Content-Length: " + body.length), body, false);

        assertEquals(401, answer.status(), answer.raw());
        assertProblemJson(answer, "unauthorized");
        assertTrue(answer.head().contains("www-authenticate: bearer"), answer.head());
        assertTrue(answer.closedAfter(), "the connection is closed after an oversized body");
    }

    @Test
    void anOversizedBodyWithTheTokenIs413AndTheConnectionCloses() throws Exception {
        byte[] body = oversized();

        Answer answer = send(head(true, "Content-Length: " + body.length), body, false);

        assertEquals(413, answer.status(), answer.raw());
        JsonObject problem = assertProblemJson(answer, "body-too-large");
        assertEquals("Content Too Large", problem.getString("title"));
        assertTrue(problem.getString("detail").contains(Long.toString(limit())), problem.encode());
        assertTrue(answer.head().contains("connection: close"), answer.head());
        assertTrue(answer.closedAfter(), "the connection is closed after a 413");
        assertNoVhosts();
    }

    @Test
    void anOversizedChunkedBodyWithTheTokenIs413() throws Exception {
        byte[] body = oversized();

        Answer answer = send(head(true, "Transfer-Encoding: chunked"), body, true);

        assertEquals(413, answer.status(), answer.raw());
        assertProblemJson(answer, "body-too-large");
        assertTrue(answer.head().contains("connection: close"), answer.head());
        assertTrue(answer.closedAfter(), "the connection is closed after a 413");
        assertNoVhosts();
    }

    @Test
    void aBodyLeftUnreadByA401DoesNotHoldUpTheNextRequestOnTheConnection() throws Exception {
        String vhost = Api.vhost("shop", "shop.example.com", "http://10.0.0.5").encode();
        String refused = "POST " + VHOSTS + " HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer wrong-token-123456\r\n"
                + "Content-Type: application/json\r\nContent-Length: " + vhost.length() + "\r\n\r\n" + vhost;
        String next = "GET " + VHOSTS + " HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + Api.TOKEN
                + "\r\nConnection: close\r\n\r\n";

        String raw = RawHttp.exchange(api.getPort(), refused + next);

        assertEquals(401, RawHttp.status(raw), raw);
        int second = raw.indexOf("HTTP/1.1 ", 1);
        assertTrue(second > 0, "the second request was answered on the same connection: " + raw);
        assertEquals(200, RawHttp.status(raw.substring(second)), raw);
    }

    private long limit() {
        return config.maxBodySize().asLongValue();
    }

    private byte[] oversized() {
        byte[] body = new byte[Math.toIntExact(limit() + 1)];
        Arrays.fill(body, (byte) ' ');
        body[0] = '{';
        body[body.length - 1] = '}';
        return body;
    }

    private static String head(boolean withToken, String framing) {
        return "POST " + VHOSTS + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                + (withToken ? "Authorization: Bearer " + Api.TOKEN + "\r\n" : "") + framing + "\r\n\r\n";
    }

    private static JsonObject assertProblemJson(Answer answer, String type) {
        assertTrue(answer.head().contains("content-type: application/problem+json"), answer.head());
        JsonObject problem = new JsonObject(answer.body());
        assertEquals("urn:portico:problem:" + type, problem.getString("type"), problem.encode());
        assertEquals(answer.status(), problem.getInteger("status"));
        assertTrue(!problem.getString("detail", "").isBlank(), problem.encode());
        return problem;
    }

    /**
     * Writes the head, then the body from another thread (as a client that writes everything before reading does;
     * the server may answer first), and reads one response.
     */
    private Answer send(String head, byte[] body, boolean chunked) throws Exception {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), api.getPort())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> write(out, head, body, chunked));
            InputStream in = socket.getInputStream();
            String responseHead = RawHttp.readUntil(in, "\r\n\r\n");
            int length = Integer.parseInt(header(responseHead, "content-length"));
            String responseBody = new String(in.readNBytes(length), StandardCharsets.UTF_8);
            boolean closed;
            try {
                closed = in.read() < 0;
            } catch (SocketTimeoutException stillOpen) {
                closed = false;
            } catch (IOException reset) {
                closed = true;
            }
            writer.join();
            return new Answer(responseHead, responseBody, closed);
        }
    }

    private static void write(OutputStream out, String head, byte[] body, boolean chunked) {
        try {
            out.write(head.getBytes(StandardCharsets.ISO_8859_1));
            for (int at = 0; at < body.length; at += 65_536) {
                int n = Math.min(65_536, body.length - at);
                if (chunked) {
                    out.write((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
                }
                out.write(body, at, n);
                if (chunked) {
                    out.write("\r\n".getBytes(StandardCharsets.ISO_8859_1));
                }
            }
            if (chunked) {
                out.write("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            }
            out.flush();
        } catch (IOException serverClosed) {
            // The server may stop reading once it has answered; what matters is the answer.
        }
    }

    private static String header(String head, String name) {
        for (String line : head.split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name)) {
                return line.substring(colon + 1).trim();
            }
        }
        throw new AssertionError("no " + name + " in " + head);
    }

    /** One response: its head in lower case (for header checks), its body, and whether the server closed after it. */
    private record Answer(String rawHead, String body, boolean closedAfter) {

        String head() {
            return rawHead.toLowerCase(Locale.ROOT);
        }

        int status() {
            return RawHttp.status(rawHead);
        }

        String raw() {
            return rawHead + body;
        }
    }
}
