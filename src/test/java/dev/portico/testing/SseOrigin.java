package dev.portico.testing;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A server-sent events origin on a loopback port: {@code GET /events} streams {@code id: n} / {@code data: n} events,
 * n counting from 1, one every {@code /events?everyMs=N} milliseconds (100 by default), until the client goes.
 */
public final class SseOrigin implements AutoCloseable {

    private final HttpServer server;
    private final AtomicInteger open = new AtomicInteger();

    private SseOrigin(HttpServer server) {
        this.server = server;
    }

    public static SseOrigin start() {
        Vertx vertx = TestVertx.get();
        SseOrigin[] origin = new SseOrigin[1];
        HttpServer server = vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(0));
        origin[0] = new SseOrigin(server);
        server.requestHandler(request -> {
            String every = request.getParam("everyMs");
            long period = every == null ? 100 : Long.parseLong(every);
            request.response().setChunked(true).putHeader("Content-Type", "text/event-stream")
                    .putHeader("Cache-Control", "no-cache");
            request.response().write(": open\n\n");
            origin[0].open.incrementAndGet();
            long[] n = {0};
            long timer = vertx.setPeriodic(period, id -> request.response()
                    .write("id: " + ++n[0] + "\ndata: " + n[0] + "\n\n"));
            request.connection().closeHandler(v -> {
                vertx.cancelTimer(timer);
                origin[0].open.decrementAndGet();
            });
        });
        TestVertx.await(server.listen());
        return origin[0];
    }

    public String url() {
        return "http://127.0.0.1:" + server.actualPort();
    }

    /** Streams open at the origin now. */
    public int openStreams() {
        return open.get();
    }

    @Override
    public void close() {
        TestVertx.await(server.close());
    }
}
