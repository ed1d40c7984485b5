package dev.portico.proxy.encoding;

import dev.portico.testing.Api;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient.Reply;
import dev.portico.testing.RawHttp;
import dev.portico.testing.TextOrigin;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The responses compression leaves alone, byte for byte, and the requests that get no coding. */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class ExclusionsTest extends CompressionTestSupport {

    private static final String HOST = "excl.test";
    private static final String ALL = "br, zstd, gzip";

    @BeforeEach
    void vhost() {
        Api.create(vhost(HOST, compression()));
    }

    /** Too small, not text, no-transform, partial: not eligible, so not varying with Accept-Encoding either. */
    @ParameterizedTest
    @ValueSource(strings = {"/small", "/image", "/no-transform", "/partial"})
    void leftAlone(String path) {
        Reply reply = get(HOST, path, "Accept-Encoding", ALL);
        assertNull(reply.header("Content-Encoding"), path);
        assertNull(reply.header("Vary"), path);
        assertTrue(reply.header("Content-Length") != null, path + " keeps its length");
    }

    @Test
    void anAlreadyEncodedBodyPassesUntouched() {
        Reply reply = get(HOST, "/encoded", "Accept-Encoding", ALL);
        assertEquals("gzip", reply.header("Content-Encoding"));
        assertArrayEquals(TextOrigin.gzip(TextOrigin.PAGE), reply.body().getBytes());
    }

    @Test
    void structuredSuffixesAndParametersMatchTheTypeList() {
        Reply reply = get(HOST, "/json", "Accept-Encoding", "gzip");
        assertEquals("gzip", reply.header("Content-Encoding"), "application/problem+json matches application/*+json");
        assertArrayEquals(TextOrigin.PAGE, decoded(reply));
    }

    @Test
    void theTypeListIsTheVhosts() {
        Api.create(vhost("json-only.test", compression("types", new JsonArray().add("application/json"))));
        assertNull(get("json-only.test", "/page", "Accept-Encoding", ALL).header("Content-Encoding"));
        Api.create(vhost("images.test", compression("types", new JsonArray().add("image/*"))));
        assertEquals("br", get("images.test", "/image", "Accept-Encoding", ALL).header("Content-Encoding"));
    }

    @Test
    void theMinimumLengthIsTheVhosts() {
        Api.create(vhost("tiny.test", compression("minLength", "100B")));
        Reply reply = get("tiny.test", "/small", "Accept-Encoding", "gzip");
        assertEquals("gzip", reply.header("Content-Encoding"));
        assertEquals(500, decoded(reply).length);
        Api.create(vhost("huge.test", compression("minLength", "64KiB")));
        assertNull(get("huge.test", "/page", "Accept-Encoding", "gzip").header("Content-Encoding"));
    }

    @Test
    void aBodyOfUnknownLengthIsCompressed() {
        Reply reply = get(HOST, "/chunked", "Accept-Encoding", "zstd");
        assertEquals("zstd", reply.header("Content-Encoding"));
        assertArrayEquals(TextOrigin.PAGE, decoded(reply));
    }

    @Test
    void headGetsTheHeadOfTheUncompressedResponse() {
        Reply head = send(HttpMethod.HEAD, HOST, "/page", "Accept-Encoding", ALL);
        assertEquals(200, head.status());
        assertNull(head.header("Content-Encoding"));
        assertEquals("\"v1\"", head.header("ETag"));
        assertEquals("Accept-Encoding", head.header("Vary"));
    }

    @Test
    void notModifiedHasNoBodyToCompress() {
        Reply reply = get(HOST, "/not-modified", "Accept-Encoding", ALL);
        assertEquals(304, reply.status());
        assertNull(reply.header("Content-Encoding"));
        assertEquals("\"v1\"", reply.header("ETag"));
    }

    @Test
    void http10ClientsGetIdentityLikeNginx() throws Exception {
        String raw = RawHttp.exchange(dataPlane.port(), "GET /page HTTP/1.0\r\nHost: " + HOST
                + "\r\nAccept-Encoding: gzip\r\n\r\n");
        assertEquals(200, RawHttp.status(raw));
        String head = raw.substring(0, raw.indexOf("\r\n\r\n")).toLowerCase(Locale.ROOT);
        assertFalse(head.contains("content-encoding"), head);
        assertTrue(head.contains("vary: accept-encoding"), head);
        assertTrue(raw.endsWith(new String(TextOrigin.PAGE, java.nio.charset.StandardCharsets.UTF_8)));
    }
}
