package dev.portico.proxy.limits;

import dev.portico.testing.Api;
import dev.portico.testing.DataPlaneTestSupport;
import dev.portico.testing.Eventually;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.RawHttp;
import dev.portico.testing.Scrape;
import dev.portico.testing.ScriptedOrigin;
import dev.portico.testing.ScriptedOrigin.Reply;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URL;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static dev.portico.testing.Problems.assertInvalid;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The concurrency limits: {@code portico.dataplane.max-connections} (accepting pauses at the limit, and resumes when a
 * connection closes), {@code portico.dataplane.max-in-flight} (503 {@code overloaded}) and a vhost's
 * {@code maxInFlight} (503 {@code vhost_overloaded}), both with {@code Retry-After}, and neither touching the others.
 */
@QuarkusTest
@TestProfile(ConcurrencyLimitsTest.SmallLimits.class)
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class ConcurrencyLimitsTest extends DataPlaneTestSupport {

    /** Limits small enough for a test to reach with a handful of sockets. */
    public static final class SmallLimits implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("portico.dataplane.max-connections", "8", "portico.dataplane.max-in-flight", "4");
        }
    }

    @TestHTTPResource(value = "/metrics", management = true)
    URL metrics;

    private final CompletableFuture<Void> release = new CompletableFuture<>();
    private final List<Socket> sockets = new ArrayList<>();
    private ScriptedOrigin origin;

    @AfterEach
    void releaseEverything() throws IOException {
        release.complete(null);
        for (Socket socket : sockets) {
            socket.close();
        }
        if (origin != null) {
            origin.close();
        }
    }

    /** An origin that holds {@code /held} until the test ends, and answers {@code /now} at once. */
    private void origin() {
        origin = ScriptedOrigin.start()
                .on("/held", Reply.of(200, "late").held(release))
                .on("/now", Reply.of(200, "now"));
    }

    private Socket connect() throws IOException {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), dataPlane.port());
        socket.setSoTimeout(10_000);
        sockets.add(socket);
        return socket;
    }

    /** Sends a GET whose answer the test reads later (or never). */
    private Socket send(String host, String path) throws IOException {
        return RawHttp.sendGet(connect(), host, path);
    }

    private static RawHttp.Response answer(Socket socket) throws IOException {
        return RawHttp.readResponse(socket.getInputStream());
    }

    private void awaitSeen(String path, int count) {
        Eventually.within(Duration.ofSeconds(10), () -> assertEquals(count, origin.count(path), path + " requests"));
    }

    private double counted(String reason) {
        return Scrape.of(metrics).valueOrZero("portico_local_replies_total{reason=\"" + reason + "\"}");
    }

    @Test
    void aVhostPastItsInFlightLimitGets503WithRetryAfterAndOtherVhostsAreServed() throws Exception {
        origin();
        vhost(Api.vhost("limited", "limited.test", origin.url()).put("maxInFlight", 2));
        vhost(Api.vhost("other", "other.test", origin.url()));
        send("limited.test", "/held");
        send("limited.test", "/held");
        awaitSeen("/held", 2);

        RawHttp.Response refused = answer(send("limited.test", "/now"));
        RawHttp.Response other = answer(send("other.test", "/now"));

        assertEquals(503, refused.status(), refused.head());
        assertEquals("1", refused.header("Retry-After"));
        assertEquals("vhost_overloaded", new JsonObject(refused.body()).getString("reason"));
        assertEquals(200, other.status(), "another vhost is not limited by this one's requests");
        assertEquals(1, origin.count("/now"), "only the other vhost's request went upstream");

        release.complete(null);
        Eventually.within(Duration.ofSeconds(10), () -> {
            try {
                assertEquals(200, answer(send("limited.test", "/now")).status());
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        });
    }

    @Test
    void pastTheInstancesInFlightLimitEveryVhostGets503Overloaded() throws Exception {
        origin();
        vhost(Api.vhost("busy", "busy.test", origin.url()));
        vhost(Api.vhost("idle", "idle.test", origin.url()));
        double before = counted("overloaded");
        for (int i = 0; i < 4; i++) {
            send("busy.test", "/held");
        }
        awaitSeen("/held", 4);

        RawHttp.Response refused = answer(send("idle.test", "/now"));

        assertEquals(503, refused.status(), refused.head());
        assertEquals("1", refused.header("Retry-After"));
        assertEquals("overloaded", new JsonObject(refused.body()).getString("reason"));
        assertEquals(0, origin.count("/now"));
        Eventually.within(Duration.ofSeconds(10), () -> assertTrue(counted("overloaded") >= before + 1));
    }

    @Test
    void atTheConnectionLimitAcceptingPausesUntilAConnectionCloses() throws Exception {
        origin();
        vhost(Api.vhost("conns", "conns.test", origin.url()));
        // The earlier tests' connections are gone first, so these eight are the ones served.
        Eventually.within(Duration.ofSeconds(10), () -> assertEquals(0.0,
                Scrape.of(metrics).value("portico_client_connections"), "connections left open"));
        double before = counted("connection_limit");
        List<Socket> idle = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            idle.add(connect());
        }
        Eventually.within(Duration.ofSeconds(10), () -> assertEquals(8.0,
                Scrape.of(metrics).value("portico_client_connections"), "eight connections served"));

        Socket waiting = send("conns.test", "/now");
        waiting.setSoTimeout(1500);
        InputStream in = waiting.getInputStream();
        assertThrows(SocketTimeoutException.class, in::read, "not accepted while the limit is reached");
        assertEquals(0, origin.count("/now"));
        Eventually.within(Duration.ofSeconds(10), () -> assertTrue(counted("connection_limit") >= before + 1,
                "the ninth connection was held"));

        idle.get(0).close();
        waiting.setSoTimeout(10_000);
        RawHttp.Response served = answer(waiting);

        assertEquals(200, served.status(), "accepted once a connection closed");
    }

    @Test
    void theApiRefusesAnInFlightLimitBelowOne() {
        JsonObject vhost = Api.vhost("bad-limit", "bad-limit.test", "http://127.0.0.1:1").put("maxInFlight", 0);
        assertInvalid(Api.given().body(vhost.encode()).post("/api/v1/vhosts"), "maxInFlight");
    }
}
