package dev.portico.proxy.files;

import dev.portico.proxy.server.DataPlaneServer;
import dev.portico.testing.Api;
import dev.portico.testing.Eventually;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient.Reply;
import dev.portico.testing.ProxyClient;
import dev.portico.testing.RawHttp;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The static web service end to end, against a real directory and the real data plane: files with their types and
 * validators, HEAD, 405, index files and directory redirects, tryFiles, listings, Cache-Control rules, dotfiles,
 * symbolic links inside the root, large files (sendfile and streamed), changes on disk.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class StaticFilesTest extends StaticTestSupport {

    private static final String HOST = "static.test";

    private JsonObject staticVhost() {
        return site.vhost("files", HOST);
    }

    /** How long a changed file may take to be seen: its lookup is trusted for 1 s, plus slack for a slow machine. */
    private static final Duration LOOKUP_EXPIRY = Duration.ofSeconds(3);

    private Reply get(String uri) {
        return client().get(HOST, uri);
    }

    private Reply send(HttpMethod method, String uri, Map<String, String> headers) {
        return client().send(method, HOST, uri, headers, null);
    }

    @Test
    void servesAFileWithItsTypeValidatorsAndTheVhostsHeaders() {
        Api.create(staticVhost().put("responseHeaders",
                new JsonObject().put("set", new JsonObject().put("X-Served-By", "portico"))));

        Reply reply = get("/hello.txt");

        assertEquals(200, reply.status());
        assertEquals("hello world\n", reply.text());
        assertEquals("text/plain; charset=utf-8", reply.header("Content-Type"));
        assertEquals("12", reply.header("Content-Length"));
        assertEquals(Site.etag(12), reply.header("ETag"));
        assertEquals(Site.LAST_MODIFIED, reply.header("Last-Modified"));
        assertEquals("bytes", reply.header("Accept-Ranges"));
        assertNotNull(reply.header("Date"));
        assertNull(reply.header("Vary"));
        assertNull(reply.header("Cache-Control"));
        // Response hooks of the stages in front still apply to files.
        assertEquals("nosniff", reply.header("X-Content-Type-Options"));
        assertEquals("portico", reply.header("X-Served-By"));
        assertNotNull(reply.header("X-Request-Id"));
    }

    @ParameterizedTest
    @CsvSource({
            "/index.html,  text/html; charset=utf-8",
            "/style.css,   text/css; charset=utf-8",
            "/app.js,      text/javascript; charset=utf-8",
            "/data.json,   application/json",
            "/logo.svg,    image/svg+xml",
            "/image.png,   image/png",
            "/font.woff2,  font/woff2",
            "/noext,       application/octet-stream",
            "/big.bin,     application/octet-stream",
    })
    void contentTypeFollowsTheExtension(String path, String type) {
        Api.create(staticVhost());

        Reply reply = get(path);

        assertEquals(200, reply.status());
        assertEquals(type, reply.header("Content-Type"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"/hello.txt", "/big.bin"})
    void headSendsTheHeadOnly(String path) throws Exception {
        Api.create(staticVhost());
        Reply full = get(path);

        Reply head = send(HttpMethod.HEAD, path, Map.of());

        assertEquals(200, head.status());
        assertEquals(0, head.body().length());
        assertEquals(full.header("Content-Length"), head.header("Content-Length"));
        assertEquals(Long.toString(Files.size(site.root.resolve(path.substring(1)))), head.header("Content-Length"));
        assertEquals(full.header("ETag"), head.header("ETag"));
        assertEquals(full.header("Content-Type"), head.header("Content-Type"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"POST", "PUT", "DELETE", "PATCH", "OPTIONS"})
    void otherMethodsGet405WithAllow(String method) {
        Api.create(staticVhost());

        for (String path : List.of("/hello.txt", "/missing.txt")) {
            Reply reply = send(HttpMethod.valueOf(method), path, Map.of());

            assertEquals(405, reply.status(), path);
            assertEquals("GET, HEAD", reply.header("Allow"));
            assertEquals("method_not_allowed", reply.json().getString("reason"));
        }
    }

    @Test
    void aMissingFileIsAProblem404() {
        Api.create(staticVhost());

        Reply reply = get("/missing.txt");

        assertEquals(404, reply.status());
        assertEquals("application/problem+json", reply.header("Content-Type"));
        assertEquals("file_not_found", reply.json().getString("reason"));
        assertEquals("urn:portico:problem:file_not_found", reply.json().getString("type"));
        assertEquals(reply.header("X-Request-Id"), reply.json().getString("requestId"));
    }

    @Test
    void directoriesServeTheirIndexAndRedirectToTheirSlash() {
        Api.create(staticVhost());

        assertEquals("<h1>home</h1>", get("/").text());
        Reply docs = get("/docs/");
        assertEquals("<h1>docs</h1>", docs.text());
        assertEquals("text/html; charset=utf-8", docs.header("Content-Type"));
        Reply redirect = get("/docs");
        assertEquals(301, redirect.status());
        assertEquals("/docs/", redirect.header("Location"));
        assertEquals("/docs/?lang=en", get("/docs?lang=en").header("Location"));
        assertEquals(404, get("/hello.txt/").status());
    }

    /** The target is read as UTF-8; a raw non-ASCII query comes back percent-encoded, never as other bytes. */
    @Test
    void aRawUtf8QueryIsPercentEncodedInTheDirectoryRedirect() throws Exception {
        Api.create(staticVhost());
        String raw = RawHttp.exchange(dataPlane.port(), "GET /docs?q=" + new String(
                "\u00e9\u20ac".getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1)
                + " HTTP/1.1\r\nHost: " + HOST + "\r\nConnection: close\r\n\r\n");
        assertEquals(301, RawHttp.status(raw), raw);
        assertTrue(raw.contains("\r\nLocation: /docs/?q=%C3%A9%E2%82%AC\r\n")
                || raw.contains("\r\nlocation: /docs/?q=%C3%A9%E2%82%AC\r\n"), raw);
    }

    @Test
    void indexFilesAreTriedInOrder() {
        Api.create(staticVhost().put("static", new JsonObject().put("root", site.root.toString())
                .put("index", new JsonArray().add("missing.html").add("guide.html"))));

        assertEquals("<h1>guide</h1>", get("/docs/").text());
        assertEquals(404, get("/").status());
    }

    @Test
    void listingIsOffByDefault() {
        Api.create(staticVhost());

        assertEquals(404, get("/listed/").status());
        assertEquals(404, get("/empty/").status());
    }

    @Test
    void aListingEscapesNamesAndHidesDotfiles() {
        Api.create(staticVhost().put("static", new JsonObject().put("root", site.root.toString())
                .put("listing", true)));

        Reply reply = get("/listed/");

        assertEquals(200, reply.status());
        assertEquals("text/html; charset=utf-8", reply.header("Content-Type"));
        String page = reply.text();
        assertTrue(page.contains("<a href=\"a.txt\">a.txt</a>"), page);
        assertTrue(page.contains("<a href=\"sub/\">sub/</a>"), page);
        assertTrue(page.contains("<a href=\"%3Cb%3E%26%22quote%22.txt\">&lt;b&gt;&amp;&quot;quote&quot;.txt</a>"),
                page);
        assertFalse(page.contains(".hidden"), page);
        assertFalse(page.contains("<b>"), page);
        assertEquals(301, get("/listed").status());
        assertEquals(200, get("/empty/").status());
        assertEquals(0, send(HttpMethod.HEAD, "/listed/", Map.of()).body().length());
        // A directory link out of the root is not listable.
        assertEquals(404, get("/etc/").status());
    }

    @Test
    void tryFilesFallsBackToTheSinglePageApp() {
        Api.create(staticVhost().put("static", new JsonObject().put("root", site.root.toString())
                .put("tryFiles", new JsonArray().add("$uri").add("$uri/").add("/index.html"))
                .put("cacheControl", new JsonArray()
                        .add(new JsonObject().put("match", "*.html").put("value", "no-cache")))));

        Reply route = get("/app/settings/profile?tab=1");
        assertEquals(200, route.status());
        assertEquals("<h1>home</h1>", route.text());
        assertEquals("text/html; charset=utf-8", route.header("Content-Type"));
        // The rule matches the file served, not the path asked for, like an nginx location after try_files.
        assertEquals("no-cache", route.header("Cache-Control"));
        assertEquals("hello world\n", get("/hello.txt").text());
        assertEquals("<h1>docs</h1>", get("/docs/").text());
        // A refused path never reaches tryFiles: no fallback can turn it into a file.
        assertEquals(404, get("/.env").status());
        assertEquals(404, get("/../index.html").status());
    }

    @Test
    void tryFilesCanMakeCleanUrls() {
        Api.create(staticVhost().put("static", new JsonObject().put("root", site.root.toString())
                .put("tryFiles", new JsonArray().add("$uri").add("$uri.html").add("$uri/"))));

        assertEquals("<h1>about</h1>", get("/about").text());
        assertEquals("<h1>about</h1>", get("/about.html").text());
        assertEquals("<h1>docs</h1>", get("/docs/").text());
        assertEquals(404, get("/nothing").status());
    }

    @Test
    void cacheControlFollowsTheFirstMatchingPattern() {
        Api.create(staticVhost().put("static", new JsonObject().put("root", site.root.toString())
                .put("cacheControl", new JsonArray()
                        .add(new JsonObject().put("match", "/assets/*").put("value", "public, max-age=31536000, immutable"))
                        .add(new JsonObject().put("match", "*.html").put("value", "no-cache")))));

        assertEquals("public, max-age=31536000, immutable", get("/assets/app.css").header("Cache-Control"));
        assertEquals("no-cache", get("/docs/").header("Cache-Control"));
        assertNull(get("/hello.txt").header("Cache-Control"));
        Reply notModified = send(HttpMethod.GET, "/assets/app.css", Map.of("If-None-Match", Site.etag(3)));
        assertEquals(304, notModified.status());
        assertEquals("public, max-age=31536000, immutable", notModified.header("Cache-Control"));
        // Local replies keep saying no-store.
        assertEquals("no-store", get("/assets/missing.css").header("Cache-Control"));
    }

    @Test
    void dotfilesAreHiddenUnlessAskedButWellKnownIsServed() {
        String id = Api.create(staticVhost());

        assertEquals(404, get("/.env").status());
        assertEquals(404, get("/.git/config").status());
        assertEquals(404, get("/env-link.txt").status());
        assertEquals(200, get("/.well-known/security.txt").status());

        Api.delete(id);
        Api.create(staticVhost().put("static", new JsonObject().put("root", site.root.toString()).put("hidden", true)));
        assertEquals(Site.SECRET, get("/.env").text());
    }

    @Test
    void symbolicLinksInsideTheRootAreFollowed() {
        Api.create(staticVhost());

        assertEquals("hello world\n", get("/link-inside.txt").text());
        assertEquals("<h1>guide</h1>", get("/docs-link/guide.html").text());
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void largeFilesAreSentWholeWithOrWithoutSendfile(boolean sendfile) throws Exception {
        Api.create(staticVhost().put("static", new JsonObject().put("root", site.root.toString())
                .put("sendfile", sendfile)));
        byte[] expected = Files.readAllBytes(site.root.resolve("big.bin"));

        for (int i = 0; i < 3; i++) {
            Reply reply = get("/big.bin");
            assertEquals(200, reply.status());
            assertEquals(Integer.toString(Site.BIG), reply.header("Content-Length"));
            assertArrayEquals(expected, reply.body().getBytes());
        }
    }

    @Test
    void aChangedFileIsSeenWithinASecond() throws Exception {
        Api.create(staticVhost());
        assertEquals(404, get("/late.txt").status());

        // A file lookup is trusted for one second; the wait allows a loaded machine more than that.
        Files.writeString(site.root.resolve("late.txt"), "late");
        try {
            Eventually.within(LOOKUP_EXPIRY, () -> assertEquals("late", get("/late.txt").text()));
        } finally {
            Files.delete(site.root.resolve("late.txt"));
        }
        Eventually.within(LOOKUP_EXPIRY, () -> assertEquals(404, get("/late.txt").status()));
    }

    @Test
    void aReplacedFileIsServedAnewWithANewValidator() throws Exception {
        Api.create(staticVhost());
        Path file = site.root.resolve("changing.txt");
        Files.writeString(file, "v1");
        try {
            Reply first = get("/changing.txt");
            assertEquals("v1", first.text());

            Path next = site.root.resolve("changing.txt.tmp");
            Files.writeString(next, "version 2");
            Files.move(next, file, StandardCopyOption.ATOMIC_MOVE);

            Reply second = Eventually.value(LOOKUP_EXPIRY, () -> get("/changing.txt"), r -> !"v1".equals(r.text()));
            assertEquals("version 2", second.text());
            assertFalse(first.header("ETag").equals(second.header("ETag")));
            assertEquals(200, send(HttpMethod.GET, "/changing.txt", Map.of("If-None-Match", first.header("ETag")))
                    .status());
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
