package dev.portico.proxy.route;

import dev.portico.testing.Api;
import dev.portico.testing.ConfigurationChurn;
import dev.portico.testing.DataPlaneTestSupport;
import dev.portico.testing.Eventually;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.SseOrigin;
import dev.portico.testing.TestVertx;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A long-lived response (server-sent events) keeps the routing decision it was made with: any number of commits,
 * edits of its own vhost included, never cut it, lose or reorder an event.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class LongLivedStreamsTest extends DataPlaneTestSupport {

    private static final int STREAMS = 20;

    private final List<AutoCloseable> opened = new ArrayList<>();

    @AfterEach
    void closeStreams() throws Exception {
        for (AutoCloseable closeable : opened) {
            closeable.close();
        }
        opened.clear();
    }

    /** One SSE client through the data plane: the event numbers in arrival order, and whether the stream broke. */
    static final class EventStream {
        final List<Long> events = new CopyOnWriteArrayList<>();
        final List<String> failures = new CopyOnWriteArrayList<>();
        private final StringBuilder pending = new StringBuilder();

        void take(Buffer chunk) {
            pending.append(chunk.toString());
            int end;
            while ((end = pending.indexOf("\n\n")) >= 0) {
                String event = pending.substring(0, end);
                pending.delete(0, end + 2);
                for (String line : event.split("\n")) {
                    if (line.startsWith("data: ")) {
                        events.add(Long.parseLong(line.substring(6)));
                    }
                }
            }
        }

        /** Events numbered 1, 2, 3 … without a gap. */
        boolean inOrder() {
            for (int i = 0; i < events.size(); i++) {
                if (events.get(i) != i + 1) {
                    return false;
                }
            }
            return true;
        }
    }

    private EventStream open(HttpClient client, String host) {
        EventStream stream = new EventStream();
        client.request(new RequestOptions().setMethod(HttpMethod.GET).setHost(host).setPort(dataPlane.port())
                        .setServer(io.vertx.core.net.SocketAddress.inetSocketAddress(dataPlane.port(), "127.0.0.1"))
                        .setURI("/events"))
                .compose(request -> request.send())
                .onSuccess(response -> {
                    if (response.statusCode() != 200) {
                        stream.failures.add("status " + response.statusCode());
                    }
                    response.handler(stream::take);
                    response.exceptionHandler(e -> stream.failures.add("broken: " + e));
                    response.endHandler(v -> stream.failures.add("ended"));
                })
                .onFailure(e -> stream.failures.add("failed: " + e));
        return stream;
    }

    private static JsonObject streamsVhost(String upstream, int edit) {
        return Api.vhost("streams", "streams.test", upstream).put("readTimeout", (30 + edit) + "s")
                .put("responseHeaders", new JsonObject().put("set", new JsonObject().put("X-Edit", "" + edit)));
    }

    @Test
    void sseStreamsRunThroughFiftyCommitsWithoutLosingAnEvent() throws Exception {
        SseOrigin sse = SseOrigin.start();
        opened.add(sse);
        String id = Api.create(streamsVhost(sse.url(), 0));
        HttpClient client = TestVertx.get().createHttpClient(new HttpClientOptions().setMaxPoolSize(STREAMS));
        opened.add(() -> TestVertx.await(client.close()));
        List<EventStream> streams = new ArrayList<>();
        for (int i = 0; i < STREAMS; i++) {
            streams.add(open(client, "streams.test"));
        }
        Eventually.within(Duration.ofSeconds(10), () -> {
            for (EventStream stream : streams) {
                assertTrue(stream.events.size() >= 2, "every stream flows: " + stream.events + stream.failures);
            }
        });

        ConfigurationChurn churn = new ConfigurationChurn(id, edit -> streamsVhost(sse.url(), edit), sse.url());
        churn.run(50, 50);
        int[] seenAfterChurn = streams.stream().mapToInt(s -> s.events.size()).toArray();
        Eventually.within(Duration.ofSeconds(5), () -> {
            for (int i = 0; i < STREAMS; i++) {
                assertTrue(streams.get(i).events.size() >= seenAfterChurn[i] + 3, "still flowing after the churn");
            }
        });

        assertEquals(50, churn.commits());
        for (EventStream stream : streams) {
            assertEquals(List.of(), stream.failures, "no stream broke");
            assertTrue(stream.inOrder(), "no event lost or reordered: " + stream.events);
        }
        assertEquals(STREAMS, sse.openStreams(), "every stream still open at the origin");
    }

    @Test
    void deletingOrDisablingAVhostEndsItsStreamsAfterTheGraceAndNoOtherVhosts() throws Exception {
        SseOrigin sse = SseOrigin.start();
        opened.add(sse);
        String deleted = Api.create(Api.vhost("deleted", "deleted.test", sse.url()));
        String disabled = Api.create(Api.vhost("disabled", "disabled.test", sse.url()));
        Api.create(Api.vhost("kept", "kept.test", sse.url()));
        HttpClient client = TestVertx.get().createHttpClient(new HttpClientOptions().setMaxPoolSize(4));
        opened.add(() -> TestVertx.await(client.close()));
        EventStream ofDeleted = open(client, "deleted.test");
        EventStream ofDisabled = open(client, "disabled.test");
        EventStream ofKept = open(client, "kept.test");
        Eventually.within(Duration.ofSeconds(10), () -> assertTrue(ofDeleted.events.size() >= 2
                && ofDisabled.events.size() >= 2 && ofKept.events.size() >= 2, "flowing"));

        long start = System.nanoTime();
        Api.delete(deleted);
        Api.given().body(Api.vhost("disabled", "disabled.test", sse.url()).put("enabled", false).encode())
                .put("/api/v1/vhosts/" + disabled).then().statusCode(200);
        int deletedAtCommit = ofDeleted.events.size();

        // The grace (shutdown-grace: 2 s in tests) lets them run on first, then they are cut.
        Eventually.within(Duration.ofSeconds(10), () -> assertTrue(!ofDeleted.failures.isEmpty()
                && !ofDisabled.failures.isEmpty(), "cut"));
        long cutAfterMillis = (System.nanoTime() - start) / 1_000_000;
        assertTrue(cutAfterMillis >= 1500, "not before the grace: " + cutAfterMillis + " ms");
        assertTrue(ofDeleted.events.size() > deletedAtCommit + 5, "ran on during the grace");
        assertTrue(ofDeleted.inOrder() && ofDisabled.inOrder());
        int kept = ofKept.events.size();
        Eventually.within(Duration.ofSeconds(5), () -> assertTrue(ofKept.events.size() > kept + 3, "kept flows"));
        assertEquals(List.of(), ofKept.failures);
    }
}
