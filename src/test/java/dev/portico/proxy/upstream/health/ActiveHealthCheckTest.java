package dev.portico.proxy.upstream.health;

import dev.portico.proxy.route.UpstreamHealthService;
import dev.portico.testing.Api;
import dev.portico.testing.BrokenOrigins;
import dev.portico.testing.DataPlaneTestSupport;
import dev.portico.testing.Eventually;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient;
import dev.portico.testing.ScriptedOrigin;
import dev.portico.testing.ScriptedOrigin.Reply;
import dev.portico.testing.TestVertx;
import dev.portico.testing.UpstreamStates;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetServer;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Active health checks against real origins that refuse, hang, answer 503 and come back: no traffic to a new upstream
 * before its first check passes, the fall and rise thresholds, timeouts, TCP checks, and checks that follow the
 * configuration.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class ActiveHealthCheckTest extends DataPlaneTestSupport {

    @Inject
    UpstreamHealthService health;

    private final List<AutoCloseable> origins = new ArrayList<>();

    @AfterEach
    void closeOrigins() throws Exception {
        for (AutoCloseable origin : origins) {
            origin.close();
        }
        origins.clear();
    }

    private ScriptedOrigin scripted() {
        ScriptedOrigin origin = ScriptedOrigin.start();
        origins.add(origin);
        return origin;
    }

    private static JsonObject check(Object... settings) {
        JsonObject check = new JsonObject().put("interval", "100ms").put("timeout", "1s").put("jitter", "0s");
        for (int i = 0; i + 1 < settings.length; i += 2) {
            check.put((String) settings[i], settings[i + 1]);
        }
        return check;
    }

    private static String vhost(String name, JsonObject check, String... urls) {
        return Api.create(Api.vhost(name, name + ".test", urls).put("healthCheck", check));
    }

    @Test
    void aNewUpstreamGetsNoTrafficUntilItsFirstCheckPasses() {
        CompletableFuture<Void> firstCheck = new CompletableFuture<>();
        ScriptedOrigin origin = scripted()
                .on("/healthz", Reply.of(200, "ok").held(firstCheck))
                .on("/app", Reply.of(200, "app"));
        String id = vhost("first-check", check("path", "/healthz", "timeout", "30s"), origin.url());

        JsonObject waiting = UpstreamStates.await(id, 0, "unknown");
        assertEquals("added, waiting for the first check", waiting.getString("reason"));
        Eventually.within(Duration.ofSeconds(5), () -> assertTrue(origin.count("/healthz") >= 1));
        ProxyClient client = client();
        ProxyClient.Reply refused = client.get("first-check.test", "/app");
        assertEquals(503, refused.status());
        assertEquals("no_healthy_upstream", refused.json().getString("reason"));
        assertEquals(0, origin.count("/app"));
        assertTrue(statusListsWithoutHealthyUpstream("first-check"));

        firstCheck.complete(null);
        JsonObject healthy = UpstreamStates.await(id, 0, "healthy");
        assertEquals("first check passed (200 from /healthz)", healthy.getString("reason"));
        assertEquals(200, client.get("first-check.test", "/app").status());
        assertEquals(1, origin.count("/app"));
        // Without a host setting, a check names the upstream itself.
        assertEquals(origin.url().substring("http://".length()), origin.last("/healthz").headers().get("Host"));
    }

    @Test
    void fallFailuresInARowTakeAnUpstreamOutAndRisePassesBringItBack() {
        AtomicInteger status = new AtomicInteger(200);
        AtomicInteger served503 = new AtomicInteger();
        ScriptedOrigin origin = scripted()
                .on("/healthz", request -> {
                    int now = status.get();
                    if (now == 503) {
                        served503.incrementAndGet();
                    }
                    return Reply.of(now, "");
                })
                .on("/app", Reply.of(200, "app"));
        ScriptedOrigin other = scripted().on("/healthz", Reply.of(200, "")).on("/app", Reply.of(200, "other"));
        String id = vhost("thresholds", check("path", "/healthz", "fall", 3, "rise", 2), origin.url(), other.url());
        UpstreamStates.await(id, 0, "healthy");
        UpstreamStates.await(id, 1, "healthy");

        status.set(503);
        JsonObject out = UpstreamStates.await(id, 0, "unhealthy");
        assertTrue(served503.get() >= 3, "taken out after " + served503.get() + " failed checks");
        assertEquals("3 consecutive 503 from /healthz", out.getString("reason"));
        assertNotNull(out.getLong("lastCheckLatencyMillis"));
        int before = origin.count("/app");
        ProxyClient client = client();
        for (int i = 0; i < 6; i++) {
            assertEquals("other", client.get("thresholds.test", "/app").text());
        }
        assertEquals(before, origin.count("/app"));

        status.set(200);
        JsonObject back = UpstreamStates.await(id, 0, "healthy");
        assertEquals("2 consecutive checks passed (200 from /healthz)", back.getString("reason"));
    }

    @Test
    void aCheckThatHangsTimesOut() {
        ScriptedOrigin origin = scripted().on("/slow", Reply.of(200, "late").delayed(30_000));
        String id = vhost("hanging-check", check("path", "/slow", "timeout", "300ms", "fall", 1), origin.url());
        JsonObject out = UpstreamStates.await(id, 0, "unhealthy");
        assertEquals("check timed out after 300ms", out.getString("reason"));
        assertTrue(out.getLong("lastCheckLatencyMillis") >= 300, out::encode);
    }

    @Test
    void statusesBodiesAndHostFollowTheSettings() {
        ScriptedOrigin origin = scripted()
                .on("/ready", Reply.of(204, ""))
                .on("/body", Reply.of(200, "status: degraded"));
        String id = vhost("expectations", check("path", "/ready", "expectStatus", new JsonArray().add("200"),
                "host", "health.internal"), origin.url());
        JsonObject out = UpstreamStates.await(id, 0, "unhealthy");
        assertEquals("204 from /ready", out.getString("reason"));
        assertEquals("health.internal", origin.last("/ready").headers().get("Host"));

        String second = vhost("body-check", check("path", "/body", "expectBody", "status: ok"), origin.url());
        assertEquals("200 from /body without \"status: ok\" in its body",
                UpstreamStates.await(second, 0, "unhealthy").getString("reason"));
    }

    @Test
    void aTcpCheckConnects() throws Exception {
        int port = BrokenOrigins.refusingPort();
        String id = vhost("tcp-check", new JsonObject().put("type", "tcp").put("interval", "100ms")
                .put("timeout", "1s").put("rise", 2), "http://127.0.0.1:" + port);
        assertEquals("connect refused", UpstreamStates.await(id, 0, "unhealthy").getString("reason"));

        NetServer listening = TestVertx.await(TestVertx.get().createNetServer().connectHandler(socket -> socket.close())
                .listen(port, "127.0.0.1"));
        origins.add(() -> TestVertx.await(listening.close()));
        JsonObject back = UpstreamStates.await(id, 0, "healthy");
        assertEquals("2 consecutive checks passed (connected)", back.getString("reason"));
    }

    @Test
    void checksFollowConfigurationChanges() {
        AtomicReference<String> answer = new AtomicReference<>("ok");
        ScriptedOrigin origin = scripted()
                .on("/healthz", request -> Reply.of(200, answer.get()))
                .on("/app", Reply.of(200, "app"));
        int running = health.runningCheckers();
        JsonObject definition = Api.vhost("follows", "follows.test", origin.url());
        String id = Api.create(definition);
        assertEquals(running, health.runningCheckers());
        assertEquals("healthy", UpstreamStates.upstream(id, 0).getString("state"));
        assertNull(UpstreamStates.upstream(id, 0).getValue("lastCheckLatencyMillis"));

        replace(id, definition.copy().put("healthCheck", check("path", "/healthz")));
        assertEquals(running + 1, health.runningCheckers());
        // An upstream that served unchecked keeps serving while its first check runs.
        assertEquals(200, client().get("follows.test", "/app").status());
        Eventually.within(Duration.ofSeconds(5), () -> assertTrue(origin.count("/healthz") >= 2));
        // A second vhost with the same upstream and check shares the checker.
        Api.create(Api.vhost("follows-too", "follows-too.test", origin.url()).put("healthCheck", check("path",
                "/healthz")));
        assertEquals(running + 1, health.runningCheckers());

        // The vhost's upstream was healthy: a new check setting starts from that, with no gap in traffic.
        replace(id, definition.copy().put("healthCheck", check("path", "/healthz", "fall", 5)));
        assertEquals(running + 2, health.runningCheckers());
        assertEquals(200, client().get("follows.test", "/app").status());

        replace(id, definition.copy());
        assertEquals(running + 1, health.runningCheckers());
    }

    @Test
    void anUpstreamRemovedWhileARequestRunsDrains() {
        CompletableFuture<Void> release = new CompletableFuture<>();
        ScriptedOrigin old = scripted().on("/slow", Reply.of(200, "old").held(release));
        ScriptedOrigin replacement = scripted().on("/slow", Reply.of(200, "new"));
        JsonObject definition = Api.vhost("drains", "drains.test", old.url());
        String id = Api.create(definition);
        ProxyClient client = client();
        Future<ProxyClient.Reply> running = client.sendAsync(HttpMethod.GET, "drains.test", "/slow", Map.of(), null);
        Eventually.within(Duration.ofSeconds(5), () -> assertEquals(1, old.count("/slow")));

        replace(id, Api.vhost("drains", "drains.test", replacement.url()));
        JsonArray upstreams = Eventually.value(Duration.ofSeconds(5), () -> UpstreamStates.of(id),
                list -> list.size() == 2 && "draining".equals(list.getJsonObject(1).getString("state")));
        assertEquals(old.url(), upstreams.getJsonObject(1).getString("url"));
        assertEquals(1, upstreams.getJsonObject(1).getLong("inFlight"));

        release.complete(null);
        assertEquals("old", TestVertx.await(running).text());
        Eventually.within(Duration.ofSeconds(5), () -> assertEquals(1, UpstreamStates.of(id).size()));
    }

    private static void replace(String id, JsonObject definition) {
        Api.given().body(definition.encode()).put("/api/v1/vhosts/" + id).then().statusCode(200);
    }

    private static boolean statusListsWithoutHealthyUpstream(String vhost) {
        return Eventually.value(Duration.ofSeconds(5), () -> Api.given().get("/api/v1/status").then().statusCode(200)
                .extract().jsonPath().getList("vhostsWithoutHealthyUpstream", String.class),
                list -> list.contains(vhost)).contains(vhost);
    }
}
