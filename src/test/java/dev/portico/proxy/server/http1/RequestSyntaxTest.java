package dev.portico.proxy.server.http1;

import dev.portico.testing.Api;
import dev.portico.testing.DataPlaneTestSupport;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.RawHttp;
import dev.portico.testing.RecordingOrigin;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;

import static dev.portico.proxy.server.http1.Refusals.assertRefused;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The request line and field lines exactly as RFC 9112 writes them: what a lenient parser would repair is refused
 * with 400 (never fixed up and forwarded), what is well formed reaches the origin byte for byte. Raw sockets on both
 * sides.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class RequestSyntaxTest extends DataPlaneTestSupport {

    private static final String HOST = "syntax.test";

    private RecordingOrigin origin;

    @BeforeEach
    void startOrigin() throws Exception {
        origin = RecordingOrigin.start();
        vhost(Api.vhost("syntax", HOST, origin.url()));
    }

    @AfterEach
    void stopOrigin() throws Exception {
        origin.close();
    }

    private String send(String request) throws Exception {
        return RawHttp.exchange(dataPlane.port(), request);
    }

    private String get(String target) throws Exception {
        return send("GET " + target + " HTTP/1.1\r\nHost: " + HOST + "\r\nConnection: close\r\n\r\n");
    }

    private void assertNothingReachedTheOrigin() {
        assertEquals(0, origin.received().size(), () -> "the origin received "
                + origin.received().get(0).headText());
    }

    @ParameterizedTest
    @ValueSource(ints = {0x00, 0x01, 0x08, 0x0B, 0x0C, 0x1F, 0x7F})
    void aControlByteInTheTargetIsRefused(int control) throws Exception {
        assertRefused(get("/a" + (char) control + "b"), 400, "bad_request");
        assertNothingReachedTheOrigin();
    }

    @Test
    void anEmptyFieldNameIsRefused() throws Exception {
        assertRefused(send("GET / HTTP/1.1\r\nHost: " + HOST + "\r\n: x\r\nConnection: close\r\n\r\n"), 400,
                "bad_request");
        assertNothingReachedTheOrigin();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "GET\t/ HTTP/1.1\r\nHost: syntax.test\r\n\r\n",                     // tab as a separator
            "GET /\tHTTP/1.1\r\nHost: syntax.test\r\n\r\n",
            "GET  / HTTP/1.1\r\nHost: syntax.test\r\n\r\n",                     // two spaces
            "GET / HTTP/1.1 \r\nHost: syntax.test\r\n\r\n",                     // trailing space
            " GET / HTTP/1.1\r\nHost: syntax.test\r\n\r\n",                     // leading space
            "GET / http/1.1\r\nHost: syntax.test\r\n\r\n",                      // the version is case-sensitive
            "GET / HTTP/1.10\r\nHost: syntax.test\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: syntax.test\r\nX-Folded: a\r\n b\r\n\r\n", // obs-fold
            "GET / HTTP/1.1\r\nHost: syntax.test\r\nX-Space : a\r\n\r\n",       // space before the colon
            "GET / HTTP/1.1\r\nHost: syntax.test\r\nX-Nul: a\u0000b\r\n\r\n",   // NUL in a value
            "GET / HTTP/1.1\r\nHost: syntax.test\r\nX-Cr: a\rb\r\n\r\n",        // bare CR in a value
            "GET / HTTP/1.1\nHost: syntax.test\r\n\r\n"})                       // bare LF
    void lenientFormsAreRefused(String request) throws Exception {
        assertRefused(send(request), 400, "bad_request");
        assertNothingReachedTheOrigin();
    }

    @Test
    void aUtf8TargetReachesTheOriginByteForByte() throws Exception {
        byte[] target = "/caf\u00e9/\u20ac?q=\u4e2d".getBytes(StandardCharsets.UTF_8);
        String raw = get(new String(target, StandardCharsets.ISO_8859_1));
        assertEquals(200, RawHttp.status(raw), raw);
        assertEquals(1, origin.received().size());
        byte[] line = origin.received().get(0).requestLine();
        byte[] expected = ("GET " + new String(target, StandardCharsets.ISO_8859_1) + " HTTP/1.1")
                .getBytes(StandardCharsets.ISO_8859_1);
        assertArrayEquals(expected, line, new String(line, StandardCharsets.ISO_8859_1));
    }

    @ParameterizedTest
    @ValueSource(strings = {"/a\u00ffb", "/a\u00c3", "/\u00c0\u00af", "/\u00ed\u00a0\u0080"})
    void aTargetWhoseHighBytesAreNotUtf8IsRefused(String latin1Target) throws Exception {
        // A lone 0xFF, a truncated sequence, an overlong '/', an encoded surrogate.
        assertRefused(get(latin1Target), 400, "bad_request");
        assertNothingReachedTheOrigin();
    }

    @Test
    void aHigherHttp1MinorVersionIsHandledAsHttp11() throws Exception {
        String raw = send("GET /minor HTTP/1.2\r\nHost: " + HOST + "\r\nConnection: close\r\n\r\n");
        assertTrue(raw.startsWith("HTTP/1.1 200 "), raw);
        assertEquals("GET /minor HTTP/1.1",
                new String(origin.received().get(0).requestLine(), StandardCharsets.ISO_8859_1));
    }

    @ParameterizedTest
    @ValueSource(strings = {"HTTP/2.0", "HTTP/0.9", "HTTP/3.1"})
    void anotherMajorVersionIs505(String version) throws Exception {
        assertRefused(send("GET / " + version + "\r\nHost: " + HOST + "\r\n\r\n"), 505,
                "http_version_not_supported");
        assertNothingReachedTheOrigin();
    }

    /** h2c is off by default: the HTTP/2 preface is an HTTP/1.1 request line of another major version. */
    @Test
    void thePriorKnowledgePrefaceIs505WhileH2cIsOff() throws Exception {
        assertRefused(send("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"), 505, "http_version_not_supported");
        assertNothingReachedTheOrigin();
    }

    @Test
    void emptyLinesBeforeARequestLineAreIgnored() throws Exception {
        String raw = send("\r\n\r\nGET /after-blank-lines HTTP/1.1\r\nHost: " + HOST + "\r\nConnection: close\r\n\r\n");
        assertEquals(200, RawHttp.status(raw), raw);
        assertEquals(1, origin.received().size());
    }
}
