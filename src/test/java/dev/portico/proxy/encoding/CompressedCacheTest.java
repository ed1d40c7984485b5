package dev.portico.proxy.encoding;

import dev.portico.testing.Api;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient.Reply;
import dev.portico.testing.TextOrigin;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The cache in front of compression: it stores each coding's variant as the client got it, so a hit is sent
 * without compressing again, and clients whose {@code Accept-Encoding} means the same share a variant.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class CompressedCacheTest extends CompressionTestSupport {

    private static final String HOST = "cached.test";

    @BeforeEach
    void vhost() {
        Api.create(vhost(HOST, compression()).put("cache", new JsonObject().put("enabled", true)));
    }

    @Test
    void eachCodingIsStoredOnceAndHitsAreTheStoredBytes() {
        for (String coding : new String[]{"br", "gzip", "zstd"}) {
            Reply miss = get(HOST, "/page", "Accept-Encoding", coding);
            assertTrue(miss.header("Cache-Status").contains("fwd=miss"), miss.header("Cache-Status"));
            Reply hit = get(HOST, "/page", "Accept-Encoding", coding);
            assertTrue(hit.header("Cache-Status").startsWith("Portico; hit"), hit.header("Cache-Status"));
            assertEquals(coding, hit.header("Content-Encoding"));
            assertEquals("W/\"v1\"", hit.header("ETag"));
            assertEquals("Accept-Encoding", hit.header("Vary"));
            // The stored compressed bytes, sent with their length now that it is known.
            assertArrayEquals(miss.body().getBytes(), hit.body().getBytes());
            assertEquals(Integer.toString(hit.body().length()), hit.header("Content-Length"));
            assertArrayEquals(TextOrigin.PAGE, decoded(hit));
        }
        Reply identity = get(HOST, "/page");
        assertNull(identity.header("Content-Encoding"));
        assertArrayEquals(TextOrigin.PAGE, get(HOST, "/page").body().getBytes());
        assertEquals(4, origin.requests(), "one fetch per variant: br, gzip, zstd, identity");
    }

    @Test
    void acceptEncodingValuesThatMeanTheSameShareAVariant() {
        get(HOST, "/page", "Accept-Encoding", "gzip, deflate, br, zstd");
        for (String same : new String[]{"br, zstd, gzip, deflate", "GZIP,DEFLATE,BR,ZSTD", "zstd;q=1, br, deflate,gzip"}) {
            Reply reply = get(HOST, "/page", "Accept-Encoding", same);
            assertTrue(reply.header("Cache-Status").startsWith("Portico; hit"), same + ": "
                    + reply.header("Cache-Status"));
            assertEquals("br", reply.header("Content-Encoding"));
        }
        assertEquals(1, origin.requests());
        get(HOST, "/page", "Accept-Encoding", "gzip;q=0.5, br");
        assertEquals(2, origin.requests(), "different q-values are a different variant");
    }

    @Test
    void aConditionalHitMatchesTheWeakValidator() {
        get(HOST, "/page", "Accept-Encoding", "br");
        Reply notModified = get(HOST, "/page", "Accept-Encoding", "br", "If-None-Match", "W/\"v1\"");
        assertEquals(304, notModified.status());
        assertEquals("W/\"v1\"", notModified.header("ETag"));
        assertEquals(1, origin.requests());
    }

    @Test
    void anHttp10ClientDoesNotFillTheCacheWithAnUncompressedVariant() throws Exception {
        String raw = dev.portico.testing.RawHttp.exchange(dataPlane.port(), "GET /page HTTP/1.0\r\nHost: " + HOST
                + "\r\nAccept-Encoding: gzip\r\n\r\n");
        assertEquals(200, dev.portico.testing.RawHttp.status(raw));
        assertTrue(raw.toLowerCase(java.util.Locale.ROOT).contains("cache-status: portico; fwd=miss; detail=http-1.0"),
                raw.substring(0, raw.indexOf("\r\n\r\n")));
        Reply reply = get(HOST, "/page", "Accept-Encoding", "gzip");
        assertEquals("gzip", reply.header("Content-Encoding"));
        assertTrue(reply.header("Cache-Status").contains("fwd=miss"), reply.header("Cache-Status"));
        assertEquals("gzip", get(HOST, "/page", "Accept-Encoding", "gzip").header("Content-Encoding"));
        assertEquals(2, origin.requests());
    }
}
