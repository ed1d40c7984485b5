package dev.portico.proxy.encoding;

import dev.portico.testing.Api;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient.Reply;
import dev.portico.testing.TextOrigin;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which coding a client gets from its {@code Accept-Encoding} and the vhost's preference, and that every coded body
 * decodes, with its reference decoder, to exactly what the origin sent.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class NegotiationTest extends CompressionTestSupport {

    @ParameterizedTest(name = "[{index}] \"{0}\" -> {1}")
    @CsvSource(delimiter = '|', nullValues = "NULL", value = {
            "NULL                              | identity",
            "''                                | identity",
            "gzip                              | gzip",
            "br                                | br",
            "zstd                              | zstd",
            "gzip, deflate, br, zstd           | br",
            "zstd, gzip                        | zstd",
            "GZIP                              | gzip",
            "x-gzip                            | gzip",
            "gzip;q=1.0, br;q=0.5              | gzip",
            "br;q=0.2, zstd;q=0.9, gzip;q=0.5  | zstd",
            "br;q=0, gzip                      | gzip",
            "*                                 | br",
            "*;q=0.5, br;q=0                   | zstd",
            "*;q=0                             | identity",
            "identity                          | identity",
            "identity;q=1, gzip;q=0.5          | identity",
            "compress, deflate                 | identity",
            "br;q=abc, gzip                    | gzip",
            "br;q=1.5, zstd                    | zstd",
            "gzip ; q=0.8 , br ; q=0.9         | br",
    })
    void negotiates(String acceptEncoding, String expected) {
        Api.create(vhost("neg.test", compression()));
        Reply reply = acceptEncoding == null ? get("neg.test", "/page")
                : get("neg.test", "/page", "Accept-Encoding", acceptEncoding);
        assertEquals(200, reply.status());
        assertEquals(expected.equals("identity") ? null : expected, reply.header("Content-Encoding"));
        assertArrayEquals(TextOrigin.PAGE, decoded(reply));
        assertEquals("Accept-Encoding", reply.header("Vary"));
    }

    @Test
    void aCompressedResponseIsStreamedWithAWeakValidatorAndNoRanges() {
        Api.create(vhost("head.test", compression()));
        Reply plain = get("head.test", "/page");
        assertEquals(Integer.toString(TextOrigin.PAGE.length), plain.header("Content-Length"));
        assertEquals("\"v1\"", plain.header("ETag"));
        for (String coding : new String[]{"gzip", "br", "zstd"}) {
            Reply coded = get("head.test", "/page", "Accept-Encoding", coding);
            assertEquals(coding, coded.header("Content-Encoding"));
            assertNull(coded.header("Content-Length"), "the compressed length is not known up front");
            assertEquals("chunked", coded.header("Transfer-Encoding"));
            assertEquals("W/\"v1\"", coded.header("ETag"));
            assertNull(coded.header("Accept-Ranges"));
            assertTrue(coded.body().length() < TextOrigin.PAGE.length / 2, coding + ": " + coded.body().length());
            assertEquals("max-age=60", coded.header("Cache-Control"));
        }
    }

    @Test
    void theVhostChoosesWhichCodingsItOffersAndWhichItPrefers() {
        Api.create(vhost("pref.test", compression("encodings", new JsonArray().add("gzip").add("br"))));
        assertEquals("gzip", get("pref.test", "/page", "Accept-Encoding", "br, gzip, zstd").header("Content-Encoding"));
        assertEquals("br", get("pref.test", "/page", "Accept-Encoding", "br, gzip;q=0.5").header("Content-Encoding"));
        Reply zstdOnly = get("pref.test", "/page", "Accept-Encoding", "zstd");
        assertNull(zstdOnly.header("Content-Encoding"), "zstd is not offered");
        assertEquals("Accept-Encoding", zstdOnly.header("Vary"));
    }

    @Test
    void levelsAreTheVhosts() {
        Api.create(vhost("fast.test", compression("levels", new io.vertx.core.json.JsonObject()
                .put("gzip", 1).put("br", 0).put("zstd", 1))));
        Api.create(vhost("small.test", compression("levels", new io.vertx.core.json.JsonObject()
                .put("gzip", 9).put("br", 11).put("zstd", 19))));
        for (String coding : new String[]{"gzip", "br", "zstd"}) {
            Reply fast = get("fast.test", "/page", "Accept-Encoding", coding);
            Reply small = get("small.test", "/page", "Accept-Encoding", coding);
            assertArrayEquals(TextOrigin.PAGE, decoded(fast));
            assertArrayEquals(TextOrigin.PAGE, decoded(small));
            assertTrue(small.body().length() < fast.body().length(),
                    coding + ": level max " + small.body().length() + " vs min " + fast.body().length());
        }
    }

    @Test
    void aVhostWithoutCompressionSendsBodiesAsTheyAre() {
        Api.create(vhost("off.test", new io.vertx.core.json.JsonObject()));
        Reply reply = get("off.test", "/page", "Accept-Encoding", "br, gzip");
        assertNull(reply.header("Content-Encoding"));
        assertNull(reply.header("Vary"));
        assertArrayEquals(TextOrigin.PAGE, reply.body().getBytes());
    }

    @Test
    void theClientsAcceptEncodingDecidesEvenWhenRulesRewriteItUpstream() {
        // nginx's proxy_set_header Accept-Encoding "": the origin sends identity, the proxy compresses.
        Api.create(vhost("rules.test", compression()).put("requestHeaders", new io.vertx.core.json.JsonObject()
                .put("remove", new JsonArray().add("Accept-Encoding"))));
        Reply reply = get("rules.test", "/page", "Accept-Encoding", "gzip");
        assertEquals("gzip", reply.header("Content-Encoding"));
        assertArrayEquals(TextOrigin.PAGE, decoded(reply));
        Api.create(vhost("forced.test", compression()).put("requestHeaders", new io.vertx.core.json.JsonObject()
                .put("set", new io.vertx.core.json.JsonObject().put("Accept-Encoding", "gzip"))));
        assertNull(get("forced.test", "/page").header("Content-Encoding"), "the client accepted no coding");
    }
}
