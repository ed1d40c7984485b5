package dev.portico.proxy.cache;

import dev.portico.testing.Api;
import dev.portico.testing.CacheTestSupport;
import dev.portico.testing.Eventually;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient.Reply;
import dev.portico.testing.Scrape;
import dev.portico.testing.TestVertx;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The client of the request that fills the cache leaves mid-body while other requests stream the same response:
 * they still get all of it, and it is stored, from the one origin request.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class LeaderLeavesTest extends CacheTestSupport {

    private static final int PART = 64 * 1024;
    private static final byte[] BODY = body();

    @TestHTTPResource(value = "/metrics", management = true)
    URL metrics;

    private HttpServer slowOrigin;
    private final AtomicInteger requests = new AtomicInteger();
    private final Promise<Void> gate = Promise.promise();

    private static byte[] body() {
        byte[] bytes = new byte[2 * PART];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) ('a' + i % 26);
        }
        return bytes;
    }

    /** Sends the first half of the body, then the rest once the gate opens. */
    private String startSlowOrigin() {
        slowOrigin = TestVertx.get().createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(0))
                .requestHandler(request -> {
                    requests.incrementAndGet();
                    var response = request.response().putHeader("Content-Type", "application/octet-stream")
                            .putHeader("Cache-Control", "max-age=60")
                            .putHeader("Content-Length", Integer.toString(BODY.length));
                    response.write(Buffer.buffer().appendBytes(BODY, 0, PART));
                    gate.future().onComplete(v -> response.end(Buffer.buffer().appendBytes(BODY, PART, PART)));
                });
        TestVertx.await(slowOrigin.listen());
        return "http://127.0.0.1:" + slowOrigin.actualPort();
    }

    @AfterEach
    void stopSlowOrigin() {
        gate.tryComplete();
        if (slowOrigin != null) {
            TestVertx.await(slowOrigin.close());
        }
    }

    @Test
    void waitersGetTheWholeBodyWhenTheLeadersClientLeaves() throws Exception {
        Api.create(Api.vhost("leaves", "leaves.test", startSlowOrigin())
                .put("cache", new JsonObject().put("enabled", true)));
        Future<Reply> waiter;
        try (Socket leader = new Socket(InetAddress.getLoopbackAddress(), dataPlane.port())) {
            leader.getOutputStream().write("GET /slow HTTP/1.1\r\nHost: leaves.test\r\n\r\n"
                    .getBytes(StandardCharsets.ISO_8859_1));
            InputStream in = leader.getInputStream();
            byte[] some = new byte[4096];
            assertTrue(in.read(some) > 0, "the leader's response has begun");
            waiter = client.sendAsync(HttpMethod.GET, "leaves.test", "/slow", Map.of(), null);
            Eventually.within(Duration.ofSeconds(10), () -> assertEquals(2,
                    Scrape.of(metrics).valueOrZero("portico_in_flight_requests{vhost=\"leaves\"}")));
        }
        // The leader's client is gone: on loopback its close has reached Portico's socket when close() returns
        // (Portico itself notices only when it next writes to it, as the read side of a busy HTTP/1 connection is
        // paused; no metric moves before that). The origin's second half arrives only now.
        gate.complete();
        Reply reply = TestVertx.await(waiter);
        assertEquals(200, reply.status());
        assertArrayEquals(BODY, reply.body().getBytes(), "the waiter's body");
        assertEquals("Portico; fwd=miss; collapsed", reply.header("Cache-Status"));
        Reply hit = get("leaves.test", "/slow");
        assertTrue(hit.header("Cache-Status").startsWith("Portico; hit"), hit.header("Cache-Status"));
        assertTrue(Arrays.equals(BODY, hit.body().getBytes()), "the stored body");
        assertEquals(1, requests.get(), "one origin request for all three");
    }
}
