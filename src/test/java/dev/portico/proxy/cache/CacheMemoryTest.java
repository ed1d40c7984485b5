package dev.portico.proxy.cache;

import dev.portico.cache.CacheRegistry;
import dev.portico.cache.ResponseStore;
import dev.portico.proxy.server.DataPlaneServer;
import dev.portico.testing.Api;
import dev.portico.testing.Eventually;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient;
import dev.portico.testing.ScriptedOrigin.Reply;
import dev.portico.testing.ScriptedOrigin;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Turnover past the budget: objects of 1-260 KiB, several times more than a vhost's share, stay within that share
 * (Caffeine's own accounting, and the JVM's heap and direct memory alike), and a skewed access pattern keeps a useful hit ratio.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class CacheMemoryTest {

    private static final int OBJECTS = 400;
    private static final long SHARE = 16L << 20;

    @Inject
    DataPlaneServer dataPlane;

    @Inject
    CacheRegistry caches;

    private ScriptedOrigin origin;
    private ProxyClient client;

    @AfterEach
    void cleanUp() {
        Api.deleteAll();
        origin.close();
        client.close();
    }

    @Test
    void staysWithinItsShareUnderTurnover() {
        origin = ScriptedOrigin.start();
        for (int i = 0; i < OBJECTS; i++) {
            origin.on("/obj/" + i, Reply.of(200, "", "Cache-Control", "max-age=600").withBody(body(i)));
        }
        String id = Api.create(Api.vhost("turnover", "turnover.test", origin.url()).put("cache",
                new JsonObject().put("enabled", true).put("maxSize", "16MiB").put("maxObjectSize", "1MiB")));
        client = new ProxyClient(dataPlane.port());
        long before = usedMemoryAfterGc();

        long offered = 0;
        for (int i = 0; i < OBJECTS; i++) {
            ProxyClient.Reply reply = client.get("turnover.test", "/obj/" + i);
            assertEquals(200, reply.status());
            assertArrayEquals(body(i).getBytes(), reply.body().getBytes(), "body of /obj/" + i);
            offered += reply.body().length();
        }
        assertTrue(offered > 3 * SHARE, "the test must offer well over the share, offered " + offered);

        ResponseStore store = caches.store(UUID.fromString(id));
        store.cleanUp();
        assertEquals(SHARE, store.maxBytes());
        assertTrue(store.weightedBytes() <= SHARE, "weighted " + store.weightedBytes());
        assertTrue(store.bodyBytes() <= SHARE, "bodies " + store.bodyBytes());
        assertTrue(store.evictions() > 0, "objects must have been evicted");
        long growth = usedMemoryAfterGc() - before;
        // The share plus slack for what else the JVM allocated meanwhile (connections, histograms, logs).
        assertTrue(growth < SHARE + (8L << 20), "heap and direct memory grew by " + growth + " bytes");

        // Skewed traffic (Zipf-like: object k drawn with weight 1/(k+1)): the popular objects stay stored.
        SplittableRandom random = new SplittableRandom(42);
        double[] cumulative = new double[OBJECTS];
        double sum = 0;
        for (int k = 0; k < OBJECTS; k++) {
            sum += 1.0 / (k + 1);
            cumulative[k] = sum;
        }
        for (int n = 0; n < 3000; n++) {
            double u = random.nextDouble() * sum;
            int k = 0;
            while (cumulative[k] < u) {
                k++;
            }
            ProxyClient.Reply reply = client.get("turnover.test", "/obj/" + k);
            assertEquals(body(k).length(), reply.body().length());
        }
        double ratio = pollHitRatio(id);
        System.out.printf("cache turnover: offered %d bytes to a %d-byte share, %d evictions, hit ratio %.3f%n",
                offered, SHARE, store.evictions(), ratio);
        assertTrue(ratio > 0.4, "hit ratio " + ratio);
        store.cleanUp();
        assertTrue(store.weightedBytes() <= SHARE, "weighted " + store.weightedBytes());
    }

    /** The API's hit ratio, once the statistics interval has counted every request sent. */
    private static double pollHitRatio(String id) {
        JsonObject view = Eventually.value(Duration.ofSeconds(5), () -> new JsonObject(Api.given()
                        .get("/api/v1/vhosts/" + id + "/cache").then().statusCode(200).extract().asString()),
                v -> counted(v) >= OBJECTS + 3000);
        assertEquals(OBJECTS + 3000, counted(view), "every request is counted by the cache statistics");
        return view.getDouble("hitRatio");
    }

    private static long counted(JsonObject view) {
        return view.getLong("hits") + view.getLong("misses") + view.getLong("collapsed") + view.getLong("stale")
                + view.getLong("revalidated");
    }

    private static Buffer body(int i) {
        int size = 1024 + new SplittableRandom(i).nextInt(259 * 1024 + 1);
        byte[] bytes = new byte[size];
        new SplittableRandom(i * 31L + 7).nextBytes(bytes);
        return Buffer.buffer(bytes);
    }

    /** Heap plus JDK direct buffers (where stored bodies live), once the collector has freed what it can. */
    private static long usedMemoryAfterGc() {
        // Direct buffers are freed by the Cleaner thread after a collection found them unreachable: collect until
        // the direct memory stops falling, rather than for a guessed time.
        long direct = Eventually.stable(Duration.ofSeconds(10), Duration.ofMillis(300), () -> {
            System.gc();
            return directMemoryUsed();
        });
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() + direct;
    }

    private static long directMemoryUsed() {
        long direct = 0;
        for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if (pool.getName().equals("direct")) {
                direct = pool.getMemoryUsed();
            }
        }
        return direct;
    }
}
