package dev.portico.proxy.files;

import dev.portico.proxy.server.DataPlaneServer;
import dev.portico.testing.Api;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.RawHttp;
import dev.portico.testing.ScriptedOrigin;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hostile request targets, sent as raw bytes so no client normalises them first: traversal in every spelling,
 * encoded separators, backslashes, NUL, overlong UTF-8, symbolic links to {@code /etc} and out of the root,
 * dotfiles. Each gets 404 (or 400 for a target the HTTP layer cannot parse), never a 500, and never a byte from
 * outside the root.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class StaticTraversalTest extends StaticTestSupport {

    private static final String HOST = "traversal.test";
    /** The first line of the machine's /etc/passwd, which no response may contain. */
    private static final String PASSWD_LINE = passwdLine();

    /** Targets that are refused only once the disk has been asked: links out of the root, dotfiles behind links. */
    static List<String> refusedByTheDisk() {
        return List.of(
                "/etc/passwd",
                "//etc/passwd",
                "/etc/",
                "/etc",
                "/etc/hostname",
                "/passwd",
                "/secret.txt",
                "/evil.txt",
                "/env-link.txt",
                "/.env",
                "/.git/config",
                "/.git/",
                "/precomp/escape.txt.gz",
                "/docs-link/../../secret/secret.txt",
                "/%65tc/passwd",
                "/etc%2fpasswd",
                "/docs/%2e%2e/%2e%2e/etc/passwd",
                "/hello.txt/../../secret/secret.txt");
    }

    static List<String> all() {
        return Stream.concat(HostilePaths.refusedBeforeTheDisk().stream(), refusedByTheDisk().stream()).toList();
    }

    private static String passwdLine() {
        try {
            Path passwd = Path.of("/etc/passwd");
            return Files.exists(passwd) ? Files.readAllLines(passwd).get(0) : "root:x:0:0";
        } catch (java.io.IOException e) {
            return "root:x:0:0";
        }
    }

    private String raw(String target) throws Exception {
        return RawHttp.exchange(dataPlane.port(),
                "GET " + target + " HTTP/1.1\r\nHost: " + HOST + "\r\nConnection: close\r\n\r\n");
    }

    private void createListingVhost() {
        Api.create(site.vhost("traversal", HOST).put("static", new JsonObject().put("root", site.root.toString())
                .put("listing", true).put("tryFiles", new JsonArray().add("$uri").add("$uri/"))));
    }

    @ParameterizedTest
    @MethodSource("all")
    void aHostileTargetIsRefusedAndNothingLeaks(String target) throws Exception {
        createListingVhost();

        String response = raw(target);

        int status = RawHttp.status(response);
        assertTrue(status == 404 || status == 400, target + " -> " + status);
        assertFalse(response.contains(Site.SECRET), response);
        assertFalse(response.contains(PASSWD_LINE), response);
    }

    @Test
    void theListIsLongAndTheServerStillServes() throws Exception {
        createListingVhost();

        assertTrue(all().size() >= 40, "at least 40 hostile targets, got " + all().size());
        assertEquals(200, RawHttp.status(raw("/hello.txt")));
        assertEquals(200, RawHttp.status(raw("/listed/")));
        assertTrue(raw("/listed/").contains("a.txt"));
    }

    @Test
    void aRefusedTargetIsAFileNotFoundProblem() throws Exception {
        Api.create(site.vhost("traversal", HOST));

        String response = raw("/%2e%2e/secret/secret.txt");

        assertEquals(404, RawHttp.status(response));
        assertTrue(response.contains("\"reason\":\"file_not_found\""), response);
        assertFalse(response.contains(Site.SECRET));
    }

    @Test
    void withUpstreamsAHostileTargetGoesUpstreamNeverToTheDisk() throws Exception {
        origin = ScriptedOrigin.start();
        Api.create(site.vhost("traversal", HOST)
                .put("upstreams", new JsonArray().add(new JsonObject().put("url", origin.url()))));

        for (String target : List.of("/secret.txt", "/etc/passwd", "/%2e%2e/secret/secret.txt", "/.env")) {
            String response = raw(target);
            assertEquals(404, RawHttp.status(response), target);
            assertTrue(response.contains("not scripted"), target + ": " + response);
            assertFalse(response.contains(Site.SECRET), target);
        }
    }
}
