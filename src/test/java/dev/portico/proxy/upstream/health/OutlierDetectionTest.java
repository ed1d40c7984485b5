package dev.portico.proxy.upstream.health;

import dev.portico.testing.Api;
import dev.portico.testing.BrokenOrigins;
import dev.portico.testing.DataPlaneTestSupport;
import dev.portico.testing.Eventually;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient;
import dev.portico.testing.ScriptedOrigin;
import dev.portico.testing.ScriptedOrigin.Reply;
import dev.portico.testing.UpstreamStates;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Passive outlier detection with real origins answering 503 in bursts: ejection after consecutive 5xx or by the failure
 * ratio over a window, return after the ejection time, longer ejections when they repeat, and the cap on how many
 * upstreams may be out.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class OutlierDetectionTest extends DataPlaneTestSupport {

    private final List<ScriptedOrigin> origins = new ArrayList<>();

    @AfterEach
    void closeOrigins() {
        origins.forEach(ScriptedOrigin::close);
        origins.clear();
    }

    /** An origin answering {@code /app} with its name, or 503 while {@code failing} is set. */
    private ScriptedOrigin origin(String name, AtomicBoolean failing) {
        ScriptedOrigin origin = ScriptedOrigin.failingWhile(name, failing);
        origins.add(origin);
        return origin;
    }

    private static JsonObject outliers(Object... settings) {
        JsonObject block = new JsonObject().put("consecutive5xx", 3).put("baseEjectionTime", "2s");
        for (int i = 0; i + 1 < settings.length; i += 2) {
            block.put((String) settings[i], settings[i + 1]);
        }
        return block;
    }

    @Test
    void consecutive503EjectAnUpstreamUntilItsEjectionTimeIsUp() {
        AtomicBoolean failing = new AtomicBoolean(true);
        ScriptedOrigin bad = origin("bad", failing);
        ScriptedOrigin good = origin("good", new AtomicBoolean());
        String id = vhost("outliers", outliers(), bad.url(), good.url());
        ProxyClient client = client();
        while (bad.count("/app") < 3) {
            client.get("outliers.test", "/app");
        }
        JsonObject ejected = UpstreamStates.await(id, 0, "ejected");
        assertEquals("3 consecutive 5xx responses (last: 503), ejected for 2s", ejected.getString("reason"));
        assertEquals(1, ejected.getLong("ejections"));
        assertEquals(3, ejected.getLong("failures"));
        for (int i = 0; i < 5; i++) {
            assertEquals("good", client.get("outliers.test", "/app").text());
        }
        assertEquals(3, bad.count("/app"));

        failing.set(false);
        JsonObject back = UpstreamStates.await(id, 0, "healthy", Duration.ofSeconds(10));
        assertEquals("ejection ended", back.getString("reason"));
        boolean reached = false;
        for (int i = 0; i < 4 && !reached; i++) {
            reached = client.get("outliers.test", "/app").text().equals("bad");
        }
        assertTrue(reached, "the upstream takes traffic again");
    }

    @Test
    void anEjectedUpstreamTheActiveCheckSawComeBackReturnsAtOnceAndRampsUp() {
        // Ejected for an hour, then its check fails and passes again (a restarted origin): it is back with the check,
        // not an hour later, and slow start counts from then. The check has a path of its own, so the ejection comes
        // from the traffic alone: on one path, a check due while the failing requests went out could take the
        // upstream out first, and nothing would be ejected.
        AtomicBoolean failing = new AtomicBoolean();
        AtomicBoolean checkFailing = new AtomicBoolean();
        ScriptedOrigin bad = origin("bad", failing)
                .on("/health", request -> checkFailing.get() ? Reply.of(503, "down") : Reply.of(200, "up"));
        ScriptedOrigin good = origin("good", new AtomicBoolean()).on("/health", Reply.of(200, "up"));
        JsonObject check = new JsonObject().put("path", "/health").put("interval", "1s").put("timeout", "1s")
                .put("rise", 1).put("fall", 1).put("jitter", "0s");
        String id = Api.create(Api.vhost("recovers", "recovers.test", bad.url(), good.url())
                .put("outlierDetection", outliers("baseEjectionTime", "1h", "maxEjectionTime", "1h"))
                .put("healthCheck", check).put("slowStart", "1h"));
        UpstreamStates.await(id, 0, "healthy");
        UpstreamStates.await(id, 1, "healthy");
        failing.set(true);
        ProxyClient client = client();
        // Three 503 in a row eject it (round robin: about six requests), while its check still passes.
        sendUntil(client, "recovers.test", bad, 3);
        assertEquals(1, UpstreamStates.await(id, 0, "ejected").getLong("ejections"));

        checkFailing.set(true);
        JsonObject down = UpstreamStates.await(id, 0, "unhealthy", Duration.ofSeconds(5));
        assertEquals(1, down.getLong("ejections"), down::encode);
        assertEquals(0.0, down.getDouble("weightNow"), "no traffic, no weight");

        checkFailing.set(false);
        failing.set(false);
        JsonObject back = UpstreamStates.await(id, 0, "healthy", Duration.ofSeconds(5));
        // Slow start ramps it from 10% of its weight, since it came back with its check, over an hour.
        assertEquals(1, back.getInteger("weight"));
        assertTrue(back.getDouble("weightNow") >= 0.1 && back.getDouble("weightNow") < 0.2, back::encode);
        assertEquals(1.0, UpstreamStates.await(id, 1, "healthy").getDouble("weightNow"));
        boolean reached = false;
        for (int i = 0; i < 200 && !reached; i++) {
            reached = client.get("recovers.test", "/app").text().equals("bad");
        }
        assertTrue(reached, "the upstream takes traffic again");
    }

    @Test
    void anEjectionThatRepeatsLastsLonger() {
        AtomicBoolean failing = new AtomicBoolean(true);
        ScriptedOrigin bad = origin("bad", failing);
        ScriptedOrigin good = origin("good", new AtomicBoolean());
        String id = vhost("repeats", outliers("baseEjectionTime", "1s", "maxEjectionTime", "2s"), bad.url(),
                good.url());
        ProxyClient client = client();
        sendUntil(client, "repeats.test", bad, 3);
        assertTrue(UpstreamStates.await(id, 0, "ejected").getString("reason").endsWith("ejected for 1s"));
        UpstreamStates.await(id, 0, "healthy");

        sendUntil(client, "repeats.test", bad, 6);
        JsonObject second = UpstreamStates.await(id, 0, "ejected");
        assertTrue(second.getString("reason").endsWith("ejected for 2s"), second::encode);
        assertEquals(2, second.getLong("ejections"));
        UpstreamStates.await(id, 0, "healthy");

        sendUntil(client, "repeats.test", bad, 9);
        // The third ejection in a row would last 3s: capped at maxEjectionTime.
        JsonObject capped = UpstreamStates.await(id, 0, "ejected");
        assertTrue(capped.getString("reason").endsWith("ejected for 2s"), capped::encode);
        assertEquals(3, capped.getLong("ejections"));
    }

    @Test
    void noMoreThanMaxEjectedPercentAreEjectedAndNeverAnOnlyUpstream() {
        AtomicBoolean failing = new AtomicBoolean(true);
        ScriptedOrigin a = origin("a", failing);
        ScriptedOrigin b = origin("b", failing);
        String id = vhost("capped", outliers("maxEjectedPercent", 50), a.url(), b.url());
        ProxyClient client = client();
        for (int i = 0; i < 12; i++) {
            assertEquals(503, client.get("capped.test", "/app").status());
        }
        // The first to reach three 503 in a row is ejected; the other stays, however many it answers.
        JsonArray upstreams = Eventually.value(Duration.ofSeconds(5), () -> UpstreamStates.of(id),
                list -> ejectedCount(list) > 0);
        assertEquals(1, ejectedCount(upstreams), upstreams::encode);
        assertEquals(1, upstreams.stream().map(JsonObject.class::cast).mapToLong(u -> u.getLong("ejections")).sum());
        assertTrue(a.count("/app") >= 3 && b.count("/app") >= 3);
        assertEquals(12, a.count("/app") + b.count("/app"));

        String alone = vhost("alone", outliers(), origin("c", failing).url());
        for (int i = 0; i < 6; i++) {
            assertEquals(503, client.get("alone.test", "/app").status());
        }
        JsonObject only = UpstreamStates.upstream(alone, 0);
        assertEquals("healthy", only.getString("state"));
        assertEquals(0, only.getLong("ejections"));
        assertEquals(6, only.getLong("requests"));
    }

    @Test
    void outlierDetectionCanBeTurnedOff() {
        AtomicBoolean failing = new AtomicBoolean(true);
        ScriptedOrigin a = origin("a", failing);
        ScriptedOrigin b = origin("b", new AtomicBoolean());
        String id = vhost("no-outliers", new JsonObject().put("enabled", false), a.url(), b.url());
        ProxyClient client = client();
        for (int i = 0; i < 20; i++) {
            client.get("no-outliers.test", "/app");
        }
        // Ejected, it would have had three.
        assertTrue(a.count("/app") >= 6, "a had " + a.count("/app"));
        assertEquals(0, UpstreamStates.upstream(id, 0).getLong("ejections"));
    }

    @Test
    void anUpstreamFailingHalfItsRequestsIsEjectedByRatioButNotBeforeItHadEnough() throws Exception {
        AtomicInteger answered = new AtomicInteger();
        ScriptedOrigin flaky = ScriptedOrigin.start().on("/app", request -> answered.getAndIncrement() % 2 == 0
                ? Reply.of(503, "busy") : Reply.of(200, "flaky"));
        origins.add(flaky);
        ScriptedOrigin a = origin("a", new AtomicBoolean());
        ScriptedOrigin b = origin("b", new AtomicBoolean());
        // Never two 503 in a row: only the ratio can eject it.
        String id = vhost("ratio", outliers("failureRatio", 0.5, "failureRatioMinRequests", 20,
                "failureRatioWindow", "1m", "baseEjectionTime", "1h", "maxEjectionTime", "1h"), flaky.url(), a.url(),
                b.url());
        ProxyClient client = client();
        sendUntil(client, "ratio.test", flaky, 19);
        // 10 of 19 failed (52%), but 19 are fewer than the minimum: a few sweeps later it is still in.
        Thread.sleep(4 * HealthSweeper.PERIOD_MILLIS);
        assertEquals("healthy", UpstreamStates.upstream(id, 0).getString("state"));

        sendUntil(client, "ratio.test", flaky, 20);
        JsonObject ejected = UpstreamStates.await(id, 0, "ejected");
        assertEquals("50% of 20 requests failed in 1m, ejected for 1h", ejected.getString("reason"));
        assertEquals(1, ejected.getLong("ejections"));
        for (int i = 0; i < 6; i++) {
            assertTrue(Set.of("a", "b").contains(client.get("ratio.test", "/app").text()));
        }
        assertEquals(20, flaky.count("/app"));
        assertEquals("healthy", UpstreamStates.upstream(id, 1).getString("state"));
    }

    private static long ejectedCount(JsonArray upstreams) {
        return upstreams.stream().map(JsonObject.class::cast).filter(u -> u.getString("state").equals("ejected"))
                .count();
    }

    @Test
    void connectFailuresInARowEject() throws Exception {
        String refusing = "http://127.0.0.1:" + BrokenOrigins.refusingPort();
        ScriptedOrigin good = origin("good", new AtomicBoolean());
        String id = vhost("refused", outliers("consecutiveGatewayErrors", 1, "baseEjectionTime", "1h",
                "maxEjectionTime", "1h"), refusing, good.url());
        ProxyClient client = client();
        for (int i = 0; i < 4; i++) {
            // A connect failure is retried on the other upstream: the client never sees it.
            assertEquals("good", client.get("refused.test", "/app").text());
        }
        JsonObject ejected = UpstreamStates.await(id, 0, "ejected");
        assertEquals("1 consecutive gateway error (last: upstream_connect_failure), ejected for 1h",
                ejected.getString("reason"));
    }

    @Test
    void anEjectedUpstreamLeftAloneByAnEditIsUsedAtOnce() {
        AtomicBoolean failing = new AtomicBoolean(true);
        ScriptedOrigin bad = origin("bad", failing);
        ScriptedOrigin good = origin("good", new AtomicBoolean());
        String id = vhost("left-alone", outliers("baseEjectionTime", "1h", "maxEjectionTime", "1h"), bad.url(),
                good.url());
        ProxyClient client = client();
        sendUntil(client, "left-alone.test", bad, 3);
        UpstreamStates.await(id, 0, "ejected");

        failing.set(false);
        Api.given().body(Api.vhost("left-alone", "left-alone.test", bad.url()).encode())
                .put("/api/v1/vhosts/" + id).then().statusCode(200);
        // A vhost's only upstream is never ejected: there is nothing to fail over to.
        assertEquals("bad", client.get("left-alone.test", "/app").text());
        UpstreamStates.await(id, 0, "healthy");
    }

    /** Creates vhost {@code name} (host {@code name.test}) over {@code urls} with these outlier detection settings. */
    private static String vhost(String name, JsonObject outlierDetection, String... urls) {
        return Api.create(Api.vhost(name, name + ".test", urls).put("outlierDetection", outlierDetection));
    }

    /** Sends requests until {@code origin} has seen {@code count} of them. */
    private static void sendUntil(ProxyClient client, String host, ScriptedOrigin origin, int count) {
        for (int i = 0; i < 100 && origin.count("/app") < count; i++) {
            client.get(host, "/app");
        }
        assertEquals(count, origin.count("/app"));
    }
}
