package dev.portico.proxy.cache;

import dev.portico.testing.CacheTestSupport;
import dev.portico.testing.Eventually;
import dev.portico.testing.OriginServer;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient;
import dev.portico.testing.ProxyClient.Reply;
import dev.portico.testing.Scrape;
import dev.portico.testing.ScriptedOrigin;
import dev.portico.testing.TestVertx;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URL;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Concurrent misses for one key share one origin request (request collapsing), and a fill that cannot be shared,
 * fails or takes too long never leaves the other requests stuck.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class CollapsingTest extends CacheTestSupport {

    private static final int BODY_BYTES = 256 * 1024;

    @TestHTTPResource(value = "/metrics", management = true)
    URL metrics;

    /** A client with one connection per concurrent request, so that all of them reach the proxy at once. */
    private ProxyClient many;

    @BeforeEach
    void startClient() {
        many = new ProxyClient(dataPlane.port(), "127.0.0.1", null, 128);
    }

    @AfterEach
    void closeClient() {
        many.close();
    }

    private List<Future<Reply>> concurrently(int n, String host, String uri) {
        List<Future<Reply>> replies = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            replies.add(many.sendAsync(HttpMethod.GET, host, uri, Map.of(), null));
        }
        return replies;
    }

    /** Waits until the proxy is handling {@code n} requests of the vhost (read live at scrape time). */
    private void awaitInFlight(String vhost, int n) {
        Eventually.within(Duration.ofSeconds(10), () -> assertEquals(n,
                Scrape.of(metrics).valueOrZero("portico_in_flight_requests{vhost=\"" + vhost + "\"}")));
    }

    /** Every request is in Portico, and the leading one has reached the origin (it may still be connecting). */
    private void awaitCollapsed(String vhost, int n, String path) {
        awaitInFlight(vhost, n);
        Eventually.within(Duration.ofSeconds(10), () -> assertTrue(origin.count(path) >= 1, "the leader is upstream"));
    }

    private static Buffer patternBody() {
        byte[] bytes = new byte[BODY_BYTES];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = OriginServer.pattern(i);
        }
        return Buffer.buffer(bytes);
    }

    private static void assertPatternBody(Reply reply) {
        assertEquals(200, reply.status());
        Buffer body = reply.body();
        assertEquals(BODY_BYTES, body.length(), "body length");
        for (int i = 0; i < BODY_BYTES; i++) {
            if (body.getByte(i) != OriginServer.pattern(i)) {
                throw new AssertionError("byte " + i + " differs");
            }
        }
    }

    /** How many replies carry each Cache-Status. */
    private static Map<String, Integer> byCacheStatus(List<Reply> replies) {
        Map<String, Integer> counts = new HashMap<>();
        for (Reply reply : replies) {
            counts.merge(reply.header("Cache-Status"), 1, Integer::sum);
        }
        return counts;
    }

    private static List<Reply> all(List<Future<Reply>> futures) {
        List<Reply> replies = new ArrayList<>(futures.size());
        for (Future<Reply> future : futures) {
            replies.add(TestVertx.await(future));
        }
        return replies;
    }

    @Test
    void aHundredConcurrentMissesMakeOneOriginRequest() {
        CompletableFuture<Void> release = new CompletableFuture<>();
        origin.on("/big", ScriptedOrigin.Reply.of(200, "", "Cache-Control", "max-age=60",
                "Content-Type", "application/octet-stream").withBody(patternBody()).held(release));
        cachedVhost("collapse.test");

        List<Future<Reply>> futures = concurrently(100, "collapse.test", "/big");
        awaitCollapsed("collapse-test", 100, "/big");
        assertEquals(1, origin.count("/big"));
        release.complete(null);

        List<Reply> replies = all(futures);
        for (Reply reply : replies) {
            assertPatternBody(reply);
            assertEquals("application/octet-stream", reply.header("Content-Type"));
        }
        Map<String, Integer> statuses = byCacheStatus(replies);
        assertEquals(1, statuses.get(STORED), statuses::toString);
        assertEquals(99, statuses.get("Portico; fwd=miss; collapsed"), statuses::toString);
        assertEquals(1, origin.count("/big"));

        Reply hit = get("collapse.test", "/big");
        assertPatternBody(hit);
        assertFromCache(hit, HIT_60);
        assertEquals(1, origin.count("/big"));
    }

    @Test
    void aResponseIsStoredBeforeItsClientSeesItsEnd() {
        origin.on("/seq", request -> ScriptedOrigin.Reply.of(200, request.uri(), "Cache-Control", "max-age=60"));
        cachedVhost("sequential.test");

        // The next request, sent the moment the response is complete (on the same connection or another one), must
        // find the stored response, not the fill that is about to store it.
        for (int i = 0; i < 300; i++) {
            String uri = "/seq?i=" + i;
            assertCacheStatus(get("sequential.test", uri), STORED);
            Reply again = i % 2 == 0 ? get("sequential.test", uri)
                    : TestVertx.await(many.sendAsync(HttpMethod.GET, "sequential.test", uri, Map.of(), null));
            assertReply(again, 200, uri);
            assertFromCache(again, HIT_60);
        }
        assertEquals(300, origin.count("/seq"));
    }

    @Test
    void anUncacheableFillReleasesItsWaitersToTheOrigin() {
        CompletableFuture<Void> release = new CompletableFuture<>();
        origin.on("/private", ScriptedOrigin.Reply.of(200, "", "Cache-Control", "no-store")
                .withBody(patternBody()).held(release));
        cachedVhost("uncacheable.test");

        List<Future<Reply>> futures = concurrently(10, "uncacheable.test", "/private");
        awaitCollapsed("uncacheable-test", 10, "/private");
        assertEquals(1, origin.count("/private"));
        release.complete(null);

        List<Reply> replies = all(futures);
        for (Reply reply : replies) {
            assertPatternBody(reply);
            assertCacheStatus(reply, "Portico; fwd=miss; detail=no-store");
        }
        assertEquals(10, origin.count("/private"));
    }

    @Test
    void aFailedFillDoesNotPoisonTheKey() {
        CompletableFuture<Void> release = new CompletableFuture<>();
        origin.inTurn("/flaky",
                ScriptedOrigin.Reply.close().held(release),
                ScriptedOrigin.Reply.of(200, "", "Cache-Control", "max-age=60").withBody(patternBody()));
        cachedVhost("flaky.test");

        List<Future<Reply>> futures = concurrently(10, "flaky.test", "/flaky");
        awaitCollapsed("flaky-test", 10, "/flaky");
        assertEquals(1, origin.count("/flaky"));
        release.complete(null);

        List<Reply> replies = all(futures);
        int failed = 0;
        for (Reply reply : replies) {
            if (reply.status() == 502) {
                failed++;
            } else {
                assertPatternBody(reply);
                assertCacheStatus(reply, "Portico; fwd=miss");
            }
        }
        assertEquals(1, failed, "only the request whose fetch failed fails");
        assertEquals(10, origin.count("/flaky"));

        Reply stored = get("flaky.test", "/flaky");
        assertPatternBody(stored);
        assertCacheStatus(stored, STORED);
        Reply hit = get("flaky.test", "/flaky");
        assertPatternBody(hit);
        assertFromCache(hit, HIT_60);
        assertEquals(11, origin.count("/flaky"));
    }

    @Test
    void waitersGoUpstreamThemselvesAfterTheLockTimeout() {
        CompletableFuture<Void> release = new CompletableFuture<>();
        origin.inTurn("/slow",
                ScriptedOrigin.Reply.of(200, "", "Cache-Control", "max-age=60").withBody(patternBody()).held(release),
                ScriptedOrigin.Reply.of(200, "", "Cache-Control", "max-age=60").withBody(patternBody()));
        cachedVhost("lock.test", cache("lockTimeout", "200ms"));

        List<Future<Reply>> futures = concurrently(5, "lock.test", "/slow");
        // Only the lock timeout sends the four waiters to the origin while the first fetch is held there.
        Eventually.within(Duration.ofSeconds(5), () -> assertEquals(5, origin.count("/slow")));
        Eventually.within(Duration.ofSeconds(5), () -> assertEquals(4,
                futures.stream().filter(Future::isComplete).count()));
        for (Future<Reply> future : futures) {
            if (future.isComplete()) {
                assertPatternBody(future.result());
                assertCacheStatus(future.result(), "Portico; fwd=miss; detail=lock-timeout");
            }
        }
        release.complete(null);

        List<Reply> replies = all(futures);
        Map<String, Integer> statuses = byCacheStatus(replies);
        assertEquals(1, statuses.get(STORED), statuses::toString);
        replies.forEach(CollapsingTest::assertPatternBody);
        assertFalse(statuses.containsKey("Portico; fwd=miss; collapsed"), statuses::toString);

        assertFromCache(get("lock.test", "/slow"), HIT_60);
        assertEquals(5, origin.count("/slow"));
    }
}
