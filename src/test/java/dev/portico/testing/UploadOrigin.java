package dev.portico.testing;

import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A real origin on a loopback socket that records what became of each request body: read to its end, or failed
 * (the connection was reset or closed under it). Counts the connections it accepted, so a test can prove that
 * nothing at all reached it. {@code /upload} answers {@code 200} with the body length once the body has ended;
 * {@code /early} answers with its head and a first piece at once, before reading the body, and ends the response
 * when the body ends.
 */
public final class UploadOrigin implements AutoCloseable {

    /** What became of one request body: {@code failed}, or ended after {@code bytes}. */
    public record Body(String uri, long bytes, boolean ended, boolean failed) {
    }

    private final HttpServer server;
    private final AtomicInteger connections = new AtomicInteger();
    private final AtomicInteger requests = new AtomicInteger();
    private final List<Body> bodies = new CopyOnWriteArrayList<>();
    private final AtomicLong bytesReceived = new AtomicLong();

    private UploadOrigin(HttpServer server) {
        this.server = server;
    }

    public static UploadOrigin start() {
        UploadOrigin[] self = new UploadOrigin[1];
        HttpServer server = TestVertx.get().createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(0)
                        .setHandle100ContinueAutomatically(true))
                .connectionHandler(connection -> self[0].connections.incrementAndGet())
                .requestHandler(request -> self[0].handle(request));
        self[0] = new UploadOrigin(server);
        TestVertx.await(server.listen());
        return self[0];
    }

    public String url() {
        return "http://127.0.0.1:" + server.actualPort();
    }

    /** Connections accepted so far. */
    public int connections() {
        return connections.get();
    }

    /** Request heads received so far. */
    public int requests() {
        return requests.get();
    }

    /** Request body bytes read so far, over every request. */
    public long bytesReceived() {
        return bytesReceived.get();
    }

    /** The requests whose body has ended or failed, in that order. */
    public List<Body> bodies() {
        return List.copyOf(bodies);
    }

    private void handle(HttpServerRequest request) {
        requests.incrementAndGet();
        String uri = request.uri();
        long[] bytes = new long[1];
        boolean early = request.path().equals("/early");
        if (early) {
            request.response().setChunked(true).write("started");
        }
        request.handler(piece -> {
            bytes[0] += piece.length();
            bytesReceived.addAndGet(piece.length());
        });
        boolean[] failed = new boolean[1];
        request.exceptionHandler(failure -> {
            if (!failed[0]) {
                failed[0] = true;
                bodies.add(new Body(uri, bytes[0], false, true));
            }
        });
        request.endHandler(end -> {
            bodies.add(new Body(uri, bytes[0], true, false));
            if (early) {
                request.response().end();
            } else {
                request.response().end(Long.toString(bytes[0]));
            }
        });
    }

    @Override
    public void close() {
        TestVertx.await(server.close());
    }
}
