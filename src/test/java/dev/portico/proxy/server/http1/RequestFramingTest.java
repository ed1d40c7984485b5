package dev.portico.proxy.server.http1;

import dev.portico.testing.Api;
import dev.portico.testing.DataPlaneTestSupport;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient;
import dev.portico.testing.RawHttp;
import dev.portico.testing.RecordingOrigin;
import dev.portico.testing.ScriptedOrigin;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;

import static dev.portico.proxy.server.http1.Refusals.assertRefused;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How a request's body is delimited (RFC 9112 section 6): every message whose length two parsers could read
 * differently is refused and its connection closed, so nothing hidden in it reaches an origin as a request of its
 * own. Raw sockets on both sides: the client sends bytes no library would, the origin records what arrived.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class RequestFramingTest extends DataPlaneTestSupport {

    private static final String HOST = "framing.test";
    /** A request hidden behind the first one's body: must never reach the origin. */
    private static final String SMUGGLED = "GET /smuggled HTTP/1.1\r\nHost: " + HOST + "\r\n\r\n";

    private RecordingOrigin origin;

    @BeforeEach
    void startOrigin() throws Exception {
        origin = RecordingOrigin.start();
        vhost(Api.vhost("framing", HOST, origin.url()));
    }

    @AfterEach
    void stopOrigin() throws Exception {
        origin.close();
    }

    private String send(String request) throws Exception {
        return RawHttp.exchange(dataPlane.port(), request);
    }

    private void assertNothingReachedTheOrigin() {
        assertEquals(0, origin.received().size(), () -> "the origin received " + origin.received().size()
                + " request(s), the first: " + origin.received().get(0).headText());
    }

    @ParameterizedTest
    @ValueSource(strings = {"xchunked", "gzip", "identity", "chunked, gzip", "chunked;x=1", "chunk", ",\tchunked"})
    void aTransferEncodingWhoseFinalCodingIsNotChunkedIsRefusedAndNothingIsSmuggled(String coding)
            throws Exception {
        String withLength = send("POST /first HTTP/1.1\r\nHost: " + HOST + "\r\nTransfer-Encoding: " + coding
                + "\r\nContent-Length: 4\r\n\r\nabcd" + SMUGGLED);
        assertRefused(withLength, 400, "invalid_framing");
        String alone = send("POST /first HTTP/1.1\r\nHost: " + HOST + "\r\nTransfer-Encoding: " + coding
                + "\r\n\r\n4\r\nabcd\r\n0\r\n\r\n" + SMUGGLED);
        assertRefused(alone, 400, "invalid_framing");
        assertNothingReachedTheOrigin();
    }

    @Test
    void chunkedListedTwiceIsRefused() throws Exception {
        assertRefused(send("POST / HTTP/1.1\r\nHost: " + HOST + "\r\nTransfer-Encoding: chunked, chunked\r\n\r\n"
                + "0\r\n\r\n"), 400, "invalid_framing");
        assertRefused(send("POST / HTTP/1.1\r\nHost: " + HOST + "\r\nTransfer-Encoding: chunked\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n"), 400, "invalid_framing");
        assertNothingReachedTheOrigin();
    }

    @Test
    void codingsBeforeAFinalChunkedAreNotImplemented() throws Exception {
        assertRefused(send("POST / HTTP/1.1\r\nHost: " + HOST + "\r\nTransfer-Encoding: gzip, chunked\r\n\r\n"
                + "0\r\n\r\n"), 501, "unsupported_transfer_coding");
        assertNothingReachedTheOrigin();
    }

    @Test
    void transferEncodingWithContentLengthOrInHttp10IsRefused() throws Exception {
        assertRefused(send("POST / HTTP/1.1\r\nHost: " + HOST + "\r\nTransfer-Encoding: chunked\r\n"
                + "Content-Length: 5\r\n\r\n0\r\n\r\n"), 400, "invalid_framing");
        assertRefused(send("POST / HTTP/1.0\r\nHost: " + HOST + "\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"),
                400, "invalid_framing");
        assertNothingReachedTheOrigin();
    }

    @ParameterizedTest
    @ValueSource(strings = {"Content-Length: 4, 4", "Content-Length: 4\r\nContent-Length: 4", "Content-Length: +4",
            "Content-Length: 4a", "Content-Length: ", "Content-Length: 99999999999999999999"})
    void aContentLengthMustBeOneDecimalNumber(String field) throws Exception {
        assertRefused(send("POST / HTTP/1.1\r\nHost: " + HOST + "\r\n" + field + "\r\n\r\nabcd" + SMUGGLED), 400,
                "invalid_framing");
        assertNothingReachedTheOrigin();
    }

    /** Netty reads eight body bytes after a draft-76 handshake where origins read none: the two would disagree. */
    @Test
    void theDraft76WebSocketHandshakeIsRefused() throws Exception {
        assertRefused(send("GET /ws HTTP/1.1\r\nHost: " + HOST + "\r\nSec-WebSocket-Key1: 1 2\r\n"
                + "Sec-WebSocket-Key2: 3 4\r\n\r\n12345678" + SMUGGLED), 400, "bad_request");
        assertNothingReachedTheOrigin();
    }

    /** Each malformed chunked body is answered 400 before any response began, and no origin sees it complete. */
    @ParameterizedTest
    @ValueSource(strings = {
            "FFFFFFFFFFFFFFFFF1\r\nabc\r\n0\r\n\r\n",          // size overflow
            "80000000\r\nabc\r\n0\r\n\r\n",                    // above 31 bits
            "xyz\r\nabc\r\n0\r\n\r\n",                          // not hexadecimal
            "3\r\nabcdef\r\n0\r\n\r\n",                         // data longer than the size
            "3 \r\nabc\r\n0\r\n\r\n",                           // size padded with a space
            " 3\r\nabc\r\n0\r\n\r\n",                           // size preceded by a space
            "3\t;ext\r\nabc\r\n0\r\n\r\n",                      // whitespace before an extension
            "3;=x\r\nabc\r\n0\r\n\r\n",                         // extension without a name
            "3\nabc\r\n0\r\n\r\n",                              // bare LF after the size
            "3\r\nabc\r\n0\r\nX-Trailer: a\r\n b\r\n\r\n",      // folded trailer
            "3\r\nabc\r\n0\r\n: empty\r\n\r\n"})                // trailer with an empty name
    void aMalformedChunkedBodyIsAnswered400(String body) throws Exception {
        String raw = send("POST /upload HTTP/1.1\r\nHost: " + HOST + "\r\nTransfer-Encoding: chunked\r\n\r\n" + body
                + SMUGGLED);
        assertRefused(raw, 400, "invalid_framing");
        for (RecordingOrigin.Received received : origin.received()) {
            assertTrue(!received.headText().contains("/smuggled"), received.headText());
        }
        assertNothingReachedTheOrigin();
    }

    /** Too late for a 400 once the response began: the connection is cut, so the response never looks complete. */
    @Test
    void aChunkedBodyThatBreaksAfterTheResponseBeganCutsTheConnection() throws Exception {
        long size = 64L * 1024 * 1024;
        vhost("framing-late", "late.test", origin("streaming"));
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), dataPlane.port())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            // The origin streams /bytes/N at once, without reading the request body.
            out.write(("POST /bytes/" + size + " HTTP/1.1\r\nHost: late.test\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "5\r\nhello\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertEquals(200, RawHttp.status(RawHttp.readUntil(in, "\r\n\r\n")));
            out.write("zz\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            long read = 0;
            byte[] buffer = new byte[65536];
            try {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    read += n;
                }
            } catch (SocketException reset) {
                // a reset is one way to end it
            }
            assertTrue(read < size, "the whole response arrived");
        }
    }

    @Test
    void aWellFormedChunkedBodyWithExtensionsAndTrailersIsForwarded() throws Exception {
        String raw = send("POST /upload HTTP/1.1\r\nHost: " + HOST + "\r\nTransfer-Encoding: Chunked\r\n"
                + "Connection: close\r\n\r\n4;name=\"va l\\\"ue\";flag\r\nWiki\r\n00005; a = b\r\npedia\r\n0\r\n"
                + "X-Trailer: yes\r\n\r\n");
        assertEquals(200, RawHttp.status(raw), raw);
        assertEquals(1, origin.received().size());
        String forwarded = new String(origin.received().get(0).body(), StandardCharsets.ISO_8859_1);
        assertTrue(forwarded.contains("Wiki") && forwarded.contains("pedia"), forwarded);
    }

    @ParameterizedTest
    @ValueSource(strings = {"Content-Length", "close, content-length", "Transfer-Encoding", "Host"})
    void aConnectionHeaderNamingAFramingFieldIsRefused(String nominated) throws Exception {
        assertRefused(send("POST / HTTP/1.1\r\nHost: " + HOST + "\r\nConnection: " + nominated
                + "\r\nContent-Length: 5\r\n\r\nhello"), 400, "invalid_framing");
        assertNothingReachedTheOrigin();
    }

    @Test
    void aResponseKeepsItsContentLengthWhenItsConnectionHeaderNamesIt() {
        ScriptedOrigin scripted = ScriptedOrigin.start();
        try {
            scripted.on("/named", ScriptedOrigin.Reply.of(200, "hello", "Connection", "Content-Length, X-Hop",
                    "X-Hop", "1"));
            vhost(Api.vhost("named", "named.test", scripted.url()));
            ProxyClient.Reply reply = client().get("named.test", "/named");
            assertEquals(200, reply.status());
            assertEquals("5", reply.header("Content-Length"));
            assertEquals(null, reply.header("X-Hop"));
            assertEquals("hello", reply.text());
        } finally {
            scripted.close();
        }
    }
}
