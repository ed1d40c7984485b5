package dev.portico.testing;

import io.vertx.core.Context;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A real origin on a loopback socket whose answers each test scripts per path, counting the requests it gets per
 * path: what cache tests need to prove how often the origin was asked. Unscripted paths answer 404.
 */
public final class ScriptedOrigin implements AutoCloseable {

    /**
     * One scripted answer; {@code delayMs} delays the head, {@code closeInstead} drops the connection, and
     * {@code gate} (when not null) holds the answer until it completes.
     */
    public record Reply(int status, Map<String, String> headers, Buffer body, long delayMs, boolean closeInstead,
                        CompletionStage<?> gate) {

        public static Reply of(int status, String body, String... headerPairs) {
            Map<String, String> headers = new LinkedHashMap<>();
            for (int i = 0; i + 1 < headerPairs.length; i += 2) {
                headers.put(headerPairs[i], headerPairs[i + 1]);
            }
            return new Reply(status, headers, Buffer.buffer(body), 0, false, null);
        }

        public static Reply close() {
            return new Reply(0, Map.of(), Buffer.buffer(), 0, true, null);
        }

        public Reply delayed(long ms) {
            return new Reply(status, headers, body, ms, closeInstead, gate);
        }

        public Reply withBody(Buffer newBody) {
            return new Reply(status, headers, newBody, delayMs, closeInstead, gate);
        }

        /** This answer, sent only once {@code until} completes (at once when it already has). */
        public Reply held(CompletionStage<?> until) {
            return new Reply(status, headers, body, delayMs, closeInstead, until);
        }
    }

    /** A request as the origin saw it. */
    public record Seen(String method, String uri, MultiMap headers) {
    }

    private final HttpServer server;
    private final Map<String, Function<HttpServerRequest, Reply>> scripts = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();
    private final List<Seen> seen = new CopyOnWriteArrayList<>();
    private final Map<String, List<String>> bodies = new ConcurrentHashMap<>();
    private boolean closed;

    private ScriptedOrigin(HttpServer server) {
        this.server = server;
    }

    /** An origin answering {@code /app} with {@code name}, or 503 {@code busy} while {@code failing} is set. */
    public static ScriptedOrigin failingWhile(String name, AtomicBoolean failing) {
        return start().on("/app", request -> failing.get() ? Reply.of(503, "busy") : Reply.of(200, name));
    }

    public static ScriptedOrigin start() {
        ScriptedOrigin[] self = new ScriptedOrigin[1];
        HttpServer server = TestVertx.get().createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(0))
                .requestHandler(request -> self[0].handle(request));
        self[0] = new ScriptedOrigin(server);
        TestVertx.await(server.listen());
        return self[0];
    }

    public String url() {
        return "http://127.0.0.1:" + server.actualPort();
    }

    /**
     * Answers {@code path} (path only, query ignored) with whatever {@code script} returns for each request; the
     * path {@code *} answers every path no other script names.
     */
    public ScriptedOrigin on(String path, Function<HttpServerRequest, Reply> script) {
        scripts.put(path, script);
        return this;
    }

    public ScriptedOrigin on(String path, Reply reply) {
        return on(path, request -> reply);
    }

    /** Answers the n-th request for {@code path} with the n-th reply; the last one answers every later request. */
    public ScriptedOrigin inTurn(String path, Reply... replies) {
        AtomicInteger turn = new AtomicInteger();
        return on(path, request -> replies[Math.min(turn.getAndIncrement(), replies.length - 1)]);
    }

    /** Requests seen for {@code path} (any method, any query). */
    public int count(String path) {
        AtomicInteger n = counts.get(path);
        return n == null ? 0 : n.get();
    }

    /** Requests seen for {@code path} (any query) with {@code method}. */
    public int count(String method, String path) {
        int n = 0;
        for (Seen s : seen) {
            if (s.method().equals(method) && pathOf(s.uri()).equals(path)) {
                n++;
            }
        }
        return n;
    }

    /** The request bodies read whole for {@code path}, in order (UTF-8 text). */
    public List<String> bodies(String path) {
        return bodies.getOrDefault(path, List.of());
    }

    public List<Seen> seen() {
        return seen;
    }

    /** The last request seen for {@code path}, or null. */
    public Seen last(String path) {
        for (int i = seen.size() - 1; i >= 0; i--) {
            Seen s = seen.get(i);
            if (pathOf(s.uri()).equals(path)) {
                return s;
            }
        }
        return null;
    }

    private static String pathOf(String uri) {
        int q = uri.indexOf('?');
        return q < 0 ? uri : uri.substring(0, q);
    }

    private void handle(HttpServerRequest request) {
        counts.computeIfAbsent(request.path(), p -> new AtomicInteger()).incrementAndGet();
        seen.add(new Seen(request.method().name(), request.uri(),
                MultiMap.caseInsensitiveMultiMap().addAll(request.headers())));
        Function<HttpServerRequest, Reply> script = scripts.getOrDefault(request.path(), scripts.get("*"));
        Reply reply = script == null ? Reply.of(404, "not scripted") : script.apply(request);
        Context context = TestVertx.get().getOrCreateContext();
        request.body().onComplete(body -> {
            if (body.succeeded()) {
                bodies.computeIfAbsent(request.path(), p -> new CopyOnWriteArrayList<>()).add(body.result().toString());
            }
            CompletionStage<?> gate = reply.gate() == null ? CompletableFuture.completedFuture(null) : reply.gate();
            gate.whenComplete((v, e) -> context.runOnContext(go -> {
                if (reply.delayMs() > 0) {
                    TestVertx.get().setTimer(reply.delayMs(), t -> answer(request, reply));
                } else {
                    answer(request, reply);
                }
            }));
        });
    }

    private static void answer(HttpServerRequest request, Reply reply) {
        if (reply.closeInstead()) {
            request.connection().close();
            return;
        }
        var response = request.response().setStatusCode(reply.status());
        reply.headers().forEach(response::putHeader);
        if (reply.status() == 304 || reply.status() == 204 || request.method().name().equals("HEAD")) {
            response.end();
        } else {
            response.end(reply.body());
        }
    }

    /** Stops listening (new connections are refused) and closes open connections; safe to call twice. */
    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            TestVertx.await(server.close());
        }
    }
}
