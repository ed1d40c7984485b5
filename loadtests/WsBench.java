// The WebSocket benchmark's origin and load generator (loadtests/websocket.sh), one file run by the java launcher
// with Portico's own Vert.x on the class path:
//
//   java -cp 'target/quarkus-app/lib/main/*' loadtests/WsBench.java origin PORT
//       an echo origin: every WebSocket message on any path comes back as it was sent (one event loop)
//   java -cp ... loadtests/WsBench.java load URL HOST CONNECTIONS SECONDS SIZE
//       CONNECTIONS WebSocket clients through the proxy at URL (Host: HOST), each sending a SIZE-byte binary
//       message and the next one as soon as its echo is back, for SECONDS; then one line
//       RESULT messages=N duration_us=N p50_us=N p99_us=N errors=N
//       (messages: echoes received and checked; errors: connections that failed or echoes that differed)
//
// Not part of Portico: a tool of the benchmark, like wrk and h2load.

import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.http.WebSocketConnectOptions;

import java.net.URI;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

public class WsBench {

    public static void main(String[] args) throws Exception {
        switch (args.length > 0 ? args[0] : "") {
            case "origin" -> origin(Integer.parseInt(args[1]));
            case "load" -> load(URI.create(args[1]), args[2], Integer.parseInt(args[3]), Integer.parseInt(args[4]),
                    Integer.parseInt(args[5]));
            default -> {
                System.err.println("usage: WsBench origin PORT | load URL HOST CONNECTIONS SECONDS SIZE");
                System.exit(2);
            }
        }
    }

    private static Vertx oneLoop() {
        return Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1).setWorkerPoolSize(1));
    }

    private static void origin(int port) throws InterruptedException {
        Vertx vertx = oneLoop();
        vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(port).setTcpNoDelay(true)
                        .setMaxWebSocketFrameSize(1 << 20).setMaxWebSocketMessageSize(1 << 20))
                .webSocketHandler(socket -> socket.binaryMessageHandler(socket::writeBinaryMessage)
                        .textMessageHandler(socket::writeTextMessage))
                // A plain GET answers too: websocket.sh waits on it to know the origin is up.
                .requestHandler(request -> request.response().end("ok"))
                .listen()
                .toCompletionStage().toCompletableFuture().join();
        System.out.println("echo origin on 127.0.0.1:" + port);
        new CountDownLatch(1).await();
    }

    private static void load(URI url, String host, int connections, int seconds, int size) throws Exception {
        Vertx vertx = oneLoop();
        byte[] payload = new byte[size];
        for (int i = 0; i < size; i++) {
            payload[i] = (byte) ('a' + i % 26);
        }
        Buffer message = Buffer.buffer(payload);
        var client = vertx.createWebSocketClient(new WebSocketClientOptions().setMaxConnections(connections)
                .setTcpNoDelay(true).setMaxFrameSize(1 << 20).setMaxMessageSize(1 << 20));
        WebSocketConnectOptions connect = new WebSocketConnectOptions().setHost(url.getHost())
                .setPort(url.getPort()).setURI(url.getRawPath().isEmpty() ? "/" : url.getRawPath())
                .addHeader("Host", host);
        AtomicLong messages = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        // Round-trip times in microseconds (the last slot collects everything from a second up).
        long[] histogram = new long[1_000_001];
        CountDownLatch opened = new CountDownLatch(connections);
        WebSocket[] sockets = new WebSocket[connections];
        for (int c = 0; c < connections; c++) {
            int index = c;
            client.connect(connect).onComplete(result -> {
                if (result.failed()) {
                    errors.incrementAndGet();
                    System.err.println("connect failed: " + result.cause());
                } else {
                    sockets[index] = result.result();
                }
                opened.countDown();
            });
        }
        if (!opened.await(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("connections did not open within 30 s");
        }
        long start = System.nanoTime();
        long end = start + TimeUnit.SECONDS.toNanos(seconds);
        CountDownLatch finished = new CountDownLatch(connections);
        for (WebSocket socket : sockets) {
            if (socket == null) {
                finished.countDown();
                continue;
            }
            vertx.runOnContext(v -> pingPong(socket, message, end, messages, errors, histogram, finished));
        }
        finished.await(seconds + 30L, TimeUnit.SECONDS);
        long duration = (System.nanoTime() - start) / 1000;
        long n = messages.get();
        System.out.printf("RESULT messages=%d duration_us=%d p50_us=%d p99_us=%d errors=%d%n", n, duration,
                percentile(histogram, n, 0.50), percentile(histogram, n, 0.99), errors.get());
        vertx.close();
    }

    /** One connection's loop: send, wait for the echo, check it, count it, send the next until the time is up. */
    private static void pingPong(WebSocket socket, Buffer message, long end, AtomicLong messages, AtomicLong errors,
                                 long[] histogram, CountDownLatch finished) {
        long[] sentAt = new long[1];
        boolean[] done = new boolean[1];
        Runnable send = () -> {
            sentAt[0] = System.nanoTime();
            socket.writeBinaryMessage(message);
        };
        socket.binaryMessageHandler(echo -> {
            long now = System.nanoTime();
            if (echo.length() != message.length() || !Arrays.equals(echo.getBytes(), message.getBytes())) {
                errors.incrementAndGet();
            } else {
                messages.incrementAndGet();
                histogram[(int) Math.min(histogram.length - 1, (now - sentAt[0]) / 1000)]++;
            }
            if (now < end) {
                send.run();
            } else if (!done[0]) {
                done[0] = true;
                socket.close((short) 1000);
                finished.countDown();
            }
        });
        socket.exceptionHandler(failure -> errors.incrementAndGet());
        socket.closeHandler(v -> {
            if (!done[0]) {
                done[0] = true;
                errors.incrementAndGet();
                finished.countDown();
            }
        });
        send.run();
    }

    private static long percentile(long[] histogram, long total, double p) {
        long wanted = (long) Math.ceil(total * p);
        long seen = 0;
        for (int i = 0; i < histogram.length; i++) {
            seen += histogram[i];
            if (seen >= wanted && wanted > 0) {
                return i;
            }
        }
        return 0;
    }
}
