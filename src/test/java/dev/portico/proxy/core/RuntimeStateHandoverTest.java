package dev.portico.proxy.core;

import dev.portico.proxy.files.StaticLookups;
import dev.portico.proxy.route.SnapshotHolder;
import dev.portico.testing.Api;
import dev.portico.testing.CacheTestSupport;
import dev.portico.testing.Eventually;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient;
import dev.portico.testing.ProxyClient.Reply;
import dev.portico.testing.Scrape;
import dev.portico.testing.ScriptedOrigin;
import dev.portico.testing.TestVertx;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every publish compiles every vhost again; the state a vhost builds up while serving (the cache's fills in flight,
 * the static root's file lookups) must survive an edit of another vhost. Before, editing vhost A gave vhost B a new,
 * empty collapsing map, so B's next miss went to the origin beside the fill already running, and B's hot files went
 * back to the disk.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class RuntimeStateHandoverTest extends CacheTestSupport {

    private static final String VHOSTS = "/api/v1/vhosts";

    @Inject
    SnapshotHolder snapshots;

    @TestHTTPResource(value = "/metrics", management = true)
    URL metrics;

    private Path root;

    @AfterEach
    void removeRoot() throws IOException {
        if (root != null) {
            try (Stream<Path> paths = Files.walk(root)) {
                for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(path);
                }
            }
        }
    }

    private VhostRuntime runtimeOf(String hostname) {
        return snapshots.current().route(hostname).runtime();
    }

    private void awaitInFlight(String vhost, int n) {
        Eventually.within(Duration.ofSeconds(10), () -> assertEquals(n,
                Scrape.of(metrics).valueOrZero("portico_in_flight_requests{vhost=\"" + vhost + "\"}")));
    }

    /** Replaces vhost {@code id} with what GET shows, changed by {@code edit}, and waits for it to be served. */
    private void edit(String id, String hostname, Consumer<JsonObject> edit) {
        long before = snapshots.current().version();
        Response current = Api.given().get(VHOSTS + "/" + id);
        current.then().statusCode(200);
        JsonObject body = new JsonObject(current.asString());
        edit.accept(body);
        Api.given().header("If-Match", current.header("ETag")).body(body.encode()).put(VHOSTS + "/" + id)
                .then().statusCode(200);
        Eventually.within(Duration.ofSeconds(10), () -> assertTrue(snapshots.current().version() > before));
    }

    @Test
    void editingAnotherVhostKeepsFillsInFlightAndFileLookups() throws IOException {
        root = Files.createTempDirectory("portico-handover");
        Files.writeString(root.resolve("hello.txt"), "hello from disk\n");
        CompletableFuture<Void> release = new CompletableFuture<>();
        origin.on("/slow", ScriptedOrigin.Reply.of(200, "from the origin", "Cache-Control", "max-age=60")
                .held(release));
        String a = Api.create(Api.vhost("a", "a.test", origin.url()));
        Api.create(Api.vhost("b", "b.test", origin.url()).put("cache", cache())
                .put("static", new JsonObject().put("root", root.toString())));

        Reply file = get("b.test", "/hello.txt");
        assertEquals(200, file.status());
        assertEquals("hello from disk\n", file.text());
        StaticLookups lookups = runtimeOf("b.test").state(StaticLookups.KEY);
        assertNotNull(lookups);
        assertTrue(lookups.holds("/hello.txt"), "the lookup of /hello.txt is held");

        // Two connections: the second request must reach Portico while the first waits for the origin.
        ProxyClient two = new ProxyClient(dataPlane.port(), "127.0.0.1", null, 2);
        Future<Reply> leader = two.sendAsync(HttpMethod.GET, "b.test", "/slow", Map.of(), null);
        Eventually.within(Duration.ofSeconds(10), () -> assertEquals(1, origin.count("/slow")));

        edit(a, "a.test", vhost -> vhost.put("readTimeout", "45s"));

        Future<Reply> follower = two.sendAsync(HttpMethod.GET, "b.test", "/slow", Map.of(), null);
        awaitInFlight("b", 2);
        assertEquals(1, origin.count("/slow"), "the second miss joined the fill running before the edit");
        release.complete(null);

        Reply first = TestVertx.await(leader);
        Reply second = TestVertx.await(follower);
        two.close();
        assertEquals(200, first.status());
        assertEquals("from the origin", first.text());
        assertEquals(200, second.status());
        assertEquals("from the origin", second.text());
        assertEquals("Portico; fwd=miss; collapsed", second.header("Cache-Status"));
        assertEquals(1, origin.count("/slow"));

        assertSame(lookups, runtimeOf("b.test").state(StaticLookups.KEY), "B's file lookups were handed over");
        assertTrue(lookups.holds("/hello.txt"), "the lookup of /hello.txt is still held");
    }

    @Test
    void changingTheStaticSettingsStartsNewLookups() throws IOException {
        root = Files.createTempDirectory("portico-handover");
        Files.writeString(root.resolve("hello.txt"), "hello from disk\n");
        String b = Api.create(Api.vhost("b", "b.test").put("static", new JsonObject().put("root", root.toString())));
        assertEquals(200, get("b.test", "/hello.txt").status());
        StaticLookups before = runtimeOf("b.test").state(StaticLookups.KEY);
        assertTrue(before.holds("/hello.txt"));

        edit(b, "b.test", vhost -> vhost.getJsonObject("static").put("listing", true));

        StaticLookups after = runtimeOf("b.test").state(StaticLookups.KEY);
        assertTrue(after != before, "lookups made under other static settings are not reused");
        assertTrue(!after.holds("/hello.txt"));
    }

    @Test
    void editingAnotherVhostKeepsTheRoundRobinPosition() {
        try (ScriptedOrigin second = ScriptedOrigin.start();
             ProxyClient one = new ProxyClient(dataPlane.port(), "127.0.0.1", null, 1)) {
            origin.on("/who", ScriptedOrigin.Reply.of(200, "first"));
            second.on("/who", ScriptedOrigin.Reply.of(200, "second"));
            String a = Api.create(Api.vhost("a", "a.test", origin.url()));
            Api.create(Api.vhost("b", "b.test", origin.url(), second.url()));
            // One connection, so one event loop and its cursor: the first request takes the first upstream.
            assertEquals("first", one.get("b.test", "/who").text());

            edit(a, "a.test", vhost -> vhost.put("readTimeout", "45s"));

            assertEquals("second", one.get("b.test", "/who").text(), "the cursor was kept across the publish");
            assertEquals("first", one.get("b.test", "/who").text());
        }
    }
}
