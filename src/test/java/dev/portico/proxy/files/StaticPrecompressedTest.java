package dev.portico.proxy.files;

import dev.portico.proxy.server.DataPlaneServer;
import dev.portico.testing.Api;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient;
import dev.portico.testing.ProxyClient.Reply;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Precompressed siblings: which one a client gets for its Accept-Encoding, always with the original's
 * Content-Type, its own validators and Vary: Accept-Encoding; never a sibling that leads out of the root.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class StaticPrecompressedTest {

    private static final String HOST = "precompressed.test";
    private static final String OFF = "plain.test";
    private static Site site;

    @Inject
    DataPlaneServer dataPlane;

    ProxyClient client;

    @BeforeAll
    static void createSite() {
        site = Site.create();
    }

    @AfterAll
    static void removeSite() {
        site.close();
    }

    @BeforeEach
    void createVhosts() {
        Api.create(site.vhost("precompressed", HOST));
        Api.create(site.vhost("plain", OFF).put("static", new JsonObject().put("root", site.root.toString())
                .put("precompressed", false)));
        client = new ProxyClient(dataPlane.port());
    }

    @AfterEach
    void cleanUp() {
        Api.deleteAll();
        client.close();
    }

    private Reply get(String host, String path, String acceptEncoding, String... more) {
        Map<String, String> headers = new HashMap<>();
        if (acceptEncoding != null) {
            headers.put("Accept-Encoding", acceptEncoding);
        }
        for (int i = 0; i < more.length; i += 2) {
            headers.put(more[i], more[i + 1]);
        }
        return client.send(HttpMethod.GET, host, path, headers, null);
    }

    /** The sibling contents name their coding: the body tells which file was sent. */
    @ParameterizedTest(name = "[{index}] {0} {1} -> {2}")
    @CsvSource(delimiter = '|', nullValues = "NULL", value = {
            "/precomp/app.js      | NULL                      | identity-js  | NULL",
            "/precomp/app.js      | gzip, deflate, br, zstd   | brotli-js    | br",
            "/precomp/app.js      | gzip, zstd                | zstd-js      | zstd",
            "/precomp/app.js      | gzip                      | gzip-js      | gzip",
            "/precomp/app.js      | br;q=0.1, gzip            | gzip-js      | gzip",
            "/precomp/app.js      | *                         | brotli-js    | br",
            "/precomp/app.js      | *;q=0                     | identity-js  | NULL",
            "/precomp/app.js      | identity                  | identity-js  | NULL",
            "/precomp/app.js      | deflate                   | identity-js  | NULL",
            "/precomp/only-gz.css | br                        | identity-css | NULL",
            "/precomp/only-gz.css | br, gzip                  | gzip-css     | gzip",
            "/precomp/only-gz.css | x-gzip                    | gzip-css     | gzip",
    })
    void theBestAcceptableSiblingIsServed(String path, String acceptEncoding, String body, String coding) {
        Reply reply = get(HOST, path, acceptEncoding);

        assertEquals(200, reply.status());
        assertEquals(body, reply.text());
        assertEquals(coding, reply.header("Content-Encoding"));
        assertEquals(path.endsWith(".js") ? "text/javascript; charset=utf-8" : "text/css; charset=utf-8",
                reply.header("Content-Type"));
        assertEquals("Accept-Encoding", reply.header("Vary"));
        assertEquals(Integer.toString(body.length()), reply.header("Content-Length"));
    }

    @Test
    void eachRepresentationHasItsOwnValidator() {
        Reply identity = get(HOST, "/precomp/app.js", null);
        Reply br = get(HOST, "/precomp/app.js", "br");
        Reply gzip = get(HOST, "/precomp/app.js", "gzip");

        assertNotEquals(identity.header("ETag"), br.header("ETag"));
        assertNotEquals(br.header("ETag"), gzip.header("ETag"));
        assertEquals(304, get(HOST, "/precomp/app.js", "br", "If-None-Match", br.header("ETag")).status());
        // The brotli tag does not validate the gzip representation.
        Reply other = get(HOST, "/precomp/app.js", "gzip", "If-None-Match", br.header("ETag"));
        assertEquals(200, other.status());
        assertEquals("gzip-js", other.text());
        Reply notModified = get(HOST, "/precomp/app.js", "gzip", "If-None-Match", gzip.header("ETag"));
        assertEquals("Accept-Encoding", notModified.header("Vary"));
        assertNull(notModified.header("Content-Encoding"));
    }

    @Test
    void rangesApplyToTheSelectedRepresentation() {
        Reply reply = get(HOST, "/precomp/app.js", "br", "Range", "bytes=0-5");

        assertEquals(206, reply.status());
        assertEquals("brotli", reply.text());
        assertEquals("br", reply.header("Content-Encoding"));
        assertEquals("bytes 0-5/9", reply.header("Content-Range"));
    }

    @Test
    void headReportsTheSelectedLength() {
        Reply head = client.send(HttpMethod.HEAD, HOST, "/precomp/app.js", Map.of("Accept-Encoding", "gzip"), null);

        assertEquals("7", head.header("Content-Length"));
        assertEquals("gzip", head.header("Content-Encoding"));
    }

    @Test
    void aFileWithoutSiblingsDoesNotVary() {
        Reply reply = get(HOST, "/precomp/plain.txt", "br, gzip");

        assertEquals("no siblings", reply.text());
        assertNull(reply.header("Vary"));
        assertNull(reply.header("Content-Encoding"));
    }

    @Test
    void siblingsAreIgnoredWhenTurnedOff() {
        Reply reply = get(OFF, "/precomp/app.js", "br, gzip, zstd");

        assertEquals("identity-js", reply.text());
        assertNull(reply.header("Vary"));
        assertNull(reply.header("Content-Encoding"));
    }

    @Test
    void aSiblingLinkingOutOfTheRootIsNotASibling() {
        Reply reply = get(HOST, "/precomp/escape.txt", "gzip");

        assertEquals("inside", reply.text());
        assertNull(reply.header("Content-Encoding"));
        assertNull(reply.header("Vary"));
        assertEquals(404, get(HOST, "/precomp/escape.txt.gz", "gzip").status());
    }

    @Test
    void aSiblingCanBeAskedForByName() {
        Reply reply = get(HOST, "/precomp/app.js.gz", "gzip");

        assertEquals("gzip-js", reply.text());
        assertEquals("application/gzip", reply.header("Content-Type"));
        assertNull(reply.header("Content-Encoding"));
    }
}
