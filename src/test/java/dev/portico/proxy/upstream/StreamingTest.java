package dev.portico.proxy.upstream;

import dev.portico.testing.DataPlaneTestSupport;
import dev.portico.testing.Eventually;
import dev.portico.testing.OriginServer;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient;
import dev.portico.testing.RawHttp;
import dev.portico.testing.SocketBuffers;
import dev.portico.testing.TestVertx;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bodies stream through in both directions with back-pressure: 100 MiB each way arrive intact, and while the
 * receiving side does not read, the sending side is held back instead of Portico buffering the body.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class StreamingTest extends DataPlaneTestSupport {

    private static final long HUNDRED_MIB = 100L * 1024 * 1024;

    private RequestOptions options(HttpMethod method, String uri) {
        return new RequestOptions().setHost("127.0.0.1").setPort(dataPlane.port()).setMethod(method).setURI(uri)
                .putHeader("Host", "stream.test").setIdleTimeout(60_000);
    }

    /**
     * Starts a request on one event loop of the test's Vert.x and waits for the outcome. The request, its connection
     * and every callback then share that thread, so a response paused or given a handler in the callback that
     * receives it gets no chunk before. Started from the test thread, a callback chained on the response could run
     * on another loop after the first chunks had been dropped for want of a handler.
     */
    private static <T> T onOneLoop(Supplier<Future<T>> start) {
        return TestVertx.onContext(TestVertx.get().getOrCreateContext(), start);
    }

    /** Reads a response body checking every byte against {@link OriginServer#pattern}; returns the count. */
    private static Future<Long> verifyPattern(HttpClientResponse response) {
        Promise<Long> done = Promise.promise();
        long[] position = new long[1];
        long[] firstMismatch = {-1};
        int[] chunks = new int[1];
        String[] where = new String[1];
        response.handler(chunk -> {
            for (int i = 0; i < chunk.length() && firstMismatch[0] < 0; i++) {
                if (chunk.getByte(i) != OriginServer.pattern(position[0] + i)) {
                    firstMismatch[0] = position[0] + i;
                    where[0] = "chunk " + chunks[0] + " of " + chunk.length() + " bytes at " + position[0]
                            + ", thread " + Thread.currentThread().getName();
                }
            }
            chunks[0]++;
            position[0] += chunk.length();
        });
        response.exceptionHandler(done::tryFail);
        response.endHandler(v -> {
            if (firstMismatch[0] >= 0) {
                done.tryFail("body bytes differ from the origin's from byte " + firstMismatch[0] + " (" + where[0]
                        + "); " + position[0] + " bytes in " + chunks[0] + " chunks");
            } else {
                done.tryComplete(position[0]);
            }
        });
        return done.future();
    }

    @Test
    void downloadsAHundredMebibytes() {
        vhost("stream", "stream.test", origin("a"));
        ProxyClient client = client();
        for (String uri : new String[]{"/bytes/" + HUNDRED_MIB, "/bytes/" + HUNDRED_MIB + "?chunked"}) {
            long received = onOneLoop(() -> client.raw().request(options(HttpMethod.GET, uri))
                    .compose(request -> request.send().compose(StreamingTest::verifyPattern)));
            assertEquals(HUNDRED_MIB, received, uri);
        }
    }

    @Test
    void aClientThatStopsReadingHoldsBackTheUpstream() throws Exception {
        long bound = SocketBuffers.relayBound();
        long total = bodyLongerThan(bound);
        OriginServer origin = originWithFixedSocketBuffers("a");
        vhost("stream", "stream.test", origin);
        ProxyClient client = clientWithFixedSocketBuffers();
        HttpClientResponse response = onOneLoop(() -> client.raw().request(options(HttpMethod.GET,
                "/bytes/" + total)).compose(request -> request.send().onSuccess(HttpClientResponse::pause)));
        long sentWhilePaused = settledCount(origin::bytesSent);
        assertTrue(sentWhilePaused < bound,
                "origin sent " + sentWhilePaused + " bytes while the client was not reading (bound " + bound + ")");
        // Paused, the response delivers nothing until resumed: the handler cannot miss a chunk.
        assertEquals(total, onOneLoop(() -> {
            Future<Long> received = verifyPattern(response);
            response.resume();
            return received;
        }));
    }

    @Test
    void uploadsAHundredMebibytesWithContentLengthAndChunked() throws Exception {
        OriginServer origin = origin("a");
        vhost("stream", "stream.test", origin);
        ProxyClient client = client();
        for (boolean chunked : new boolean[]{false, true}) {
            Upload upload = upload(client, "/echo", chunked, HUNDRED_MIB);
            JsonObject echo = TestVertx.await(upload.response).toJsonObject();
            assertEquals(HUNDRED_MIB, echo.getLong("bodyLength"), "chunked=" + chunked);
            assertEquals(upload.sha256(), echo.getString("bodySha256"));
            assertEquals(chunked ? "chunked" : Long.toString(HUNDRED_MIB),
                    chunked ? echo.getJsonObject("headers").getString("transfer-encoding")
                            : echo.getJsonObject("headers").getString("content-length"));
        }
    }

    @Test
    void anUpstreamThatStopsReadingHoldsBackTheClient() throws Exception {
        long bound = SocketBuffers.relayBound();
        long total = bodyLongerThan(bound);
        OriginServer origin = originWithFixedSocketBuffers("a");
        vhost("stream", "stream.test", origin);
        Upload upload = upload(clientWithFixedSocketBuffers(), "/sink?pauseMs=4000", false, total);
        long writtenWhilePaused = settledCount(upload.written::get);
        assertTrue(writtenWhilePaused < bound, "client could write " + writtenWhilePaused
                + " bytes while the origin was not reading (bound " + bound + ")");
        JsonObject echo = TestVertx.await(upload.response).toJsonObject();
        assertEquals(total, echo.getLong("bodyLength"));
        assertEquals(upload.sha256(), echo.getString("bodySha256"));
    }

    /** At least 100 MiB, and twice what the sockets can hold, so that a relay without back-pressure cannot pass. */
    private static long bodyLongerThan(long bound) {
        return Math.max(HUNDRED_MIB, 2 * bound);
    }

    /**
     * The count once the pipes between the two ends are full: it must stop moving for a whole second, which is what
     * being held back means; a relay that buffered would keep taking bytes and never settle (fails after 30 s).
     */
    private static long settledCount(LongSupplier count) {
        return Eventually.stable(Duration.ofSeconds(30), Duration.ofSeconds(1), count);
    }

    @Test
    void answersExpectContinueOnceTheUpstreamIsConnected() throws Exception {
        vhost("stream", "stream.test", origin("a"));
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), dataPlane.port())) {
            socket.setSoTimeout(5000);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            out.write(("POST /echo HTTP/1.1\r\nHost: stream.test\r\nContent-Length: 5\r\nExpect: 100-continue\r\n"
                    + "Connection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String interim = RawHttp.readUntil(in, "\r\n\r\n");
            assertTrue(interim.startsWith("HTTP/1.1 100 Continue"), interim);
            out.write("hello".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String rest = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
            assertTrue(rest.startsWith("HTTP/1.1 200"), rest);
            assertTrue(rest.contains("\"bodyLength\":5"), rest);
            assertTrue(!rest.toLowerCase().contains("\"expect\""), "Expect must not be forwarded: " + rest);
        }
    }

    /** An upload of 100 MiB of {@link OriginServer#pattern} that respects the connection's back-pressure. */
    private record Upload(AtomicLong written, MessageDigest digest, Future<Buffer> response) {
        String sha256() {
            return HexFormat.of().formatHex(digest.digest());
        }
    }

    private Upload upload(ProxyClient client, String uri, boolean chunked, long total) throws Exception {
        AtomicLong written = new AtomicLong();
        MessageDigest digest = MessageDigest.getInstance("SHA-256");
        Future<Buffer> response = client.raw().request(options(HttpMethod.POST, uri)).compose(request -> {
            if (chunked) {
                request.setChunked(true);
            } else {
                request.putHeader("Content-Length", Long.toString(total));
            }
            Future<Buffer> body = request.response().compose(HttpClientResponse::body);
            Runnable[] pump = new Runnable[1];
            pump[0] = () -> {
                while (written.get() < total && !request.writeQueueFull()) {
                    int n = (int) Math.min(64 * 1024, total - written.get());
                    byte[] bytes = new byte[n];
                    long start = written.get();
                    for (int i = 0; i < n; i++) {
                        bytes[i] = OriginServer.pattern(start + i);
                    }
                    digest.update(bytes);
                    written.addAndGet(n);
                    request.write(Buffer.buffer(bytes));
                }
                if (written.get() >= total) {
                    request.end();
                } else {
                    request.drainHandler(v -> pump[0].run());
                }
            };
            pump[0].run();
            return body;
        });
        return new Upload(written, digest, response);
    }
}
