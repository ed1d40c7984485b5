package dev.portico.testing;

import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A real origin server on a loopback socket for data-plane tests. Paths:
 * <ul>
 *   <li>{@code /echo...} answers JSON describing the request (method, uri, headers, body length and SHA-256)</li>
 *   <li>{@code /bytes/N} streams N bytes of {@link #pattern}; {@code ?chunked} leaves out Content-Length</li>
 *   <li>{@code /status/N} answers status N</li>
 *   <li>{@code /slow/MS} answers after MS milliseconds; {@code /hang} never answers</li>
 *   <li>{@code /pause/MS} sends its head and {@code first;} at once, then {@code second} MS milliseconds later (chunked):
 *       a stream with a quiet spell, as server-sent events have</li>
 *   <li>{@code /reason/<code>/<phrase>} answers with that status and reason phrase</li>
 *   <li>{@code /truncate} announces 1000 bytes, sends 10, then closes the connection</li>
 *   <li>{@code /hop} answers with hop-by-hop headers that must not reach the client</li>
 *   <li>{@code /sink?pauseMs=N} does not read the request body for N ms, then answers like {@code /echo}</li>
 * </ul>
 * Every response carries {@code X-Origin: <name>}; every request head is recorded.
 */
public final class OriginServer implements AutoCloseable {

    /** What the origin saw of one request; the remote port tells the connections apart. */
    public record Seen(String method, String uri, MultiMap headers, String remoteAddress, int remotePort) {
    }

    private final String name;
    private final HttpServer server;
    private final BlockingQueue<Seen> seen = new LinkedBlockingQueue<>();
    private final AtomicInteger count = new AtomicInteger();
    private final AtomicLong bytesSent = new AtomicLong();
    private final AtomicLong bytesReceived = new AtomicLong();
    /** Every request is handled this long after it arrived: a slow origin. */
    private volatile long delayMillis;

    private OriginServer(String name, HttpServer server) {
        this.name = name;
        this.server = server;
    }

    public static OriginServer start(String name) {
        return start(name, "127.0.0.1");
    }

    /** An origin on a given port: one that comes back where a closed one was. */
    public static OriginServer start(String name, int port) {
        return start(name, new HttpServerOptions().setHost("127.0.0.1"), port);
    }

    public static OriginServer start(String name, String host) {
        return start(name, new HttpServerOptions().setHost(host));
    }

    /** An origin on {@code host} and {@code port} (0: any free one). */
    public static OriginServer start(String name, String host, int port) {
        return start(name, new HttpServerOptions().setHost(host), port);
    }

    /**
     * An origin whose sockets have fixed kernel buffers of {@code socketBufferBytes} each way, so that what they can
     * hold does not grow with the kernel's autotuning: for tests that bound the bytes in flight.
     */
    public static OriginServer withFixedSocketBuffers(String name, int socketBufferBytes) {
        return start(name, new HttpServerOptions().setHost("127.0.0.1").setSendBufferSize(socketBufferBytes)
                .setReceiveBufferSize(socketBufferBytes));
    }

    private static OriginServer start(String name, HttpServerOptions options) {
        return start(name, options, 0);
    }

    private static OriginServer start(String name, HttpServerOptions options, int port) {
        Vertx vertx = TestVertx.get();
        OriginServer[] self = new OriginServer[1];
        HttpServer server = vertx.createHttpServer(options.setPort(port).setHandle100ContinueAutomatically(true))
                .requestHandler(request -> self[0].handle(request));
        self[0] = new OriginServer(name, server);
        TestVertx.await(server.listen());
        return self[0];
    }

    public int port() {
        return server.actualPort();
    }

    public String url() {
        return "http://127.0.0.1:" + port();
    }

    /** Makes every later request wait {@code millis} before it is handled (0: at once). */
    public OriginServer delay(long millis) {
        this.delayMillis = millis;
        return this;
    }

    public int requestCount() {
        return count.get();
    }

    /** Body bytes handed to the network by {@code /bytes} responses so far. */
    public long bytesSent() {
        return bytesSent.get();
    }

    /** Request body bytes read so far by {@code /echo} and {@code /sink}. */
    public long bytesReceived() {
        return bytesReceived.get();
    }

    /** The next request head this origin received, waiting up to 5 s. */
    public Seen nextSeen() throws InterruptedException {
        Seen next = seen.poll(5, TimeUnit.SECONDS);
        if (next == null) {
            throw new AssertionError("origin " + name + " received no request");
        }
        return next;
    }

    public void clearSeen() {
        seen.clear();
    }

    /** Byte i of every generated body; a pattern that catches reordering and truncation. */
    public static byte pattern(long i) {
        return (byte) ((i * 31 + (i >>> 8)) & 0xff);
    }

    private void handle(HttpServerRequest request) {
        long delay = delayMillis;
        if (delay > 0) {
            request.pause();
            TestVertx.get().setTimer(delay, t -> {
                request.resume();
                answer(request);
            });
        } else {
            answer(request);
        }
    }

    private void answer(HttpServerRequest request) {
        count.incrementAndGet();
        MultiMap copy = MultiMap.caseInsensitiveMultiMap().addAll(request.headers());
        seen.add(new Seen(request.method().name(), request.uri(), copy, request.remoteAddress().hostAddress(),
                request.remoteAddress().port()));
        request.response().putHeader("X-Origin", name);
        String path = request.path();
        if (path.startsWith("/bytes/")) {
            streamBytes(request, Long.parseLong(path.substring(7)), request.params().contains("chunked"), bytesSent);
        } else if (path.startsWith("/reason/")) {
            // /reason/<code>/<phrase>: a status line with this reason phrase.
            String[] parts = path.substring(8).split("/", 2);
            request.response().setStatusCode(Integer.parseInt(parts[0])).setStatusMessage(parts[1]).end();
        } else if (path.startsWith("/status/")) {
            request.response().setStatusCode(Integer.parseInt(path.substring(8))).end();
        } else if (path.startsWith("/slow/")) {
            long delay = Long.parseLong(path.substring(6));
            TestVertx.get().setTimer(delay, t -> request.response().end("slow"));
        } else if (path.startsWith("/pause/")) {
            long pause = Long.parseLong(path.substring(7));
            request.response().setChunked(true).write("first;");
            TestVertx.get().setTimer(pause, t -> request.response().end("second"));
        } else if (path.equals("/hang")) {
            request.pause();
        } else if (path.equals("/truncate")) {
            request.response().putHeader("Content-Length", "1000").write(Buffer.buffer("0123456789"))
                    .onComplete(v -> TestVertx.get().setTimer(50, t -> request.connection().close()));
        } else if (path.equals("/hop")) {
            request.response()
                    .putHeader("Connection", "X-Private, keep-alive")
                    .putHeader("X-Private", "secret")
                    .putHeader("Keep-Alive", "timeout=5")
                    .putHeader("Proxy-Connection", "keep-alive")
                    .putHeader("X-End-To-End", "kept")
                    .end("hop");
        } else if (path.equals("/sink")) {
            request.pause();
            long pause = Long.parseLong(request.params().get("pauseMs"));
            echo(request);
            TestVertx.get().setTimer(pause, t -> request.resume());
        } else {
            echo(request);
        }
    }

    private void echo(HttpServerRequest request) {
        MessageDigest digest = sha256();
        long[] length = new long[1];
        request.handler(chunk -> {
            length[0] += chunk.length();
            bytesReceived.addAndGet(chunk.length());
            digest.update(chunk.getBytes());
        });
        request.endHandler(v -> {
            JsonObject headers = new JsonObject();
            for (Map.Entry<String, String> h : request.headers()) {
                String key = h.getKey().toLowerCase();
                headers.put(key, headers.containsKey(key) ? headers.getString(key) + "\n" + h.getValue() : h.getValue());
            }
            JsonObject body = new JsonObject()
                    .put("origin", name)
                    .put("method", request.method().name())
                    .put("uri", request.uri())
                    .put("headers", headers)
                    .put("bodyLength", length[0])
                    .put("bodySha256", HexFormat.of().formatHex(digest.digest()));
            request.response().putHeader("Content-Type", "application/json").end(body.encode());
        });
    }

    private static void streamBytes(HttpServerRequest request, long total, boolean chunked,
                                    AtomicLong counter) {
        var response = request.response();
        if (chunked) {
            response.setChunked(true);
        } else {
            response.putHeader("Content-Length", Long.toString(total));
        }
        long[] sent = new long[1];
        Runnable[] pump = new Runnable[1];
        pump[0] = () -> {
            while (sent[0] < total && !response.writeQueueFull()) {
                int n = (int) Math.min(64 * 1024, total - sent[0]);
                byte[] bytes = new byte[n];
                for (int i = 0; i < n; i++) {
                    bytes[i] = pattern(sent[0] + i);
                }
                sent[0] += n;
                counter.addAndGet(n);
                response.write(Buffer.buffer(bytes));
            }
            if (sent[0] >= total) {
                response.end();
            } else {
                response.drainHandler(v -> pump[0].run());
            }
        };
        pump[0].run();
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        TestVertx.await(server.close());
    }
}
