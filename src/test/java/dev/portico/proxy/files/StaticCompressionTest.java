package dev.portico.proxy.files;

import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient.Reply;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPInputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Files compressed on the fly on a vhost that compresses: small held files and large streamed ones, with a
 * precompressed sibling taking precedence, and ranges, HEAD and validators behaving as for any file.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class StaticCompressionTest extends StaticTestSupport {

    private static final String HOST = "gz-files.test";

    @BeforeEach
    void vhost() {
        Site.create(site.vhost("gz-files", HOST).put("compression", new JsonObject().put("enabled", true)));
    }

    private Reply get(String uri, String... headerPairs) {
        return send(HttpMethod.GET, uri, headerPairs);
    }

    private Reply send(HttpMethod method, String uri, String... headerPairs) {
        return client().send(method, HOST, uri, headerPairs);
    }

    private static String gunzip(Reply reply) throws IOException {
        try (var in = new GZIPInputStream(new ByteArrayInputStream(reply.body().getBytes()))) {
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        }
    }

    /** A held file (from its compressed copy, with a length) and a streamed one (chunked). */
    @ParameterizedTest
    @ValueSource(strings = {"/compress/page.html", "/compress/large.txt"})
    void filesAreCompressed(String path) throws IOException {
        int size = path.endsWith("large.txt") ? Site.LARGE_TEXT : 8 * 1024;
        for (int round = 0; round < 2; round++) {
            Reply reply = get(path, "Accept-Encoding", "gzip");
            assertEquals(200, reply.status());
            assertEquals("gzip", reply.header("Content-Encoding"));
            assertEquals("Accept-Encoding", reply.header("Vary"));
            assertEquals("W/" + Site.etag(size), reply.header("ETag"));
            assertNull(reply.header("Accept-Ranges"));
            assertEquals(Site.text(size), gunzip(reply));
            assertTrue(reply.body().length() < size / 3);
            if (size == Site.LARGE_TEXT) {
                assertNull(reply.header("Content-Length"));
            } else {
                assertEquals(Integer.toString(reply.body().length()), reply.header("Content-Length"));
            }
        }
        Reply plain = get(path);
        assertNull(plain.header("Content-Encoding"));
        assertEquals("Accept-Encoding", plain.header("Vary"));
        assertEquals(Site.etag(size), plain.header("ETag"));
        assertEquals(Site.text(size), plain.text());
    }

    @Test
    void aPrecompressedSiblingComesFirst() throws IOException {
        Reply sibling = get("/compress/sibling.css", "Accept-Encoding", "gzip");
        assertEquals("gzip", sibling.header("Content-Encoding"));
        assertEquals("gzip-sibling", sibling.text());
        Reply compressed = get("/compress/sibling.css", "Accept-Encoding", "br");
        assertEquals("br", compressed.header("Content-Encoding"), "no .br sibling: compressed on the fly");
        assertEquals("Accept-Encoding", compressed.header("Vary"));
    }

    @Test
    void smallAndNonTextFilesAreSentAsTheyAre() {
        Reply small = get("/hello.txt", "Accept-Encoding", "gzip");
        assertNull(small.header("Content-Encoding"));
        assertNull(small.header("Vary"));
        Reply binary = get("/big.bin", "Accept-Encoding", "gzip");
        assertNull(binary.header("Content-Encoding"));
        assertEquals(Site.BIG, binary.body().length());
    }

    @Test
    void rangesHeadAndValidatorsWorkOnTheUncompressedFile() {
        Reply range = get("/compress/large.txt", "Accept-Encoding", "gzip", "Range", "bytes=0-99");
        assertEquals(206, range.status());
        assertNull(range.header("Content-Encoding"));
        assertEquals(Site.text(100), range.text());
        Reply head = send(HttpMethod.HEAD, "/compress/page.html", "Accept-Encoding", "gzip");
        assertNull(head.header("Content-Encoding"));
        assertEquals("8192", head.header("Content-Length"));
        Reply notModified = get("/compress/page.html", "Accept-Encoding", "gzip", "If-None-Match",
                "W/" + Site.etag(8 * 1024));
        assertEquals(304, notModified.status());
        assertEquals("W/" + Site.etag(8 * 1024), notModified.header("ETag"));
        assertNull(notModified.header("Content-Type"));
        Reply ifMatch = get("/compress/page.html", "Accept-Encoding", "gzip", "If-Match", Site.etag(8 * 1024));
        assertEquals(200, ifMatch.status(), "the file's own strong validator still matches If-Match");
    }

    /** A file gone after its lookup was cached: the 404 that follows carries nothing of the compressed head. */
    @Test
    void aVanishedFileLeavesNoCompressionHeadBehind() throws IOException {
        java.nio.file.Path file = site.root.resolve("compress/vanishing.txt");
        java.nio.file.Files.writeString(file, Site.text(64 * 1024));
        try {
            assertEquals("gzip", get("/compress/vanishing.txt", "Accept-Encoding", "gzip").header("Content-Encoding"));
            java.nio.file.Files.delete(file);
            // Within the second the lookup is trusted: the open fails, the path is looked up again, and is gone.
            Reply gone = get("/compress/vanishing.txt", "Accept-Encoding", "gzip");
            assertEquals(404, gone.status());
            assertNull(gone.header("Content-Encoding"));
            assertNull(gone.header("Transfer-Encoding"));
            assertNull(gone.header("ETag"));
            assertEquals("file_not_found", gone.json().getString("reason"));
        } finally {
            java.nio.file.Files.deleteIfExists(file);
        }
    }
}
