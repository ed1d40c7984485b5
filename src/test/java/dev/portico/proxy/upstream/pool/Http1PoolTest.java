package dev.portico.proxy.upstream.pool;

import dev.portico.testing.Eventually;
import dev.portico.testing.RawOrigin;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpVersion;
import io.vertx.core.Vertx;
import io.vertx.core.impl.ContextInternal;
import io.vertx.core.impl.VertxInternal;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Portico's own HTTP/1.1 upstream pool against real origins on loopback sockets, well-behaved and not: reuse of
 * kept-alive connections, the pool's limits (size, wait queue, queue timeout, keep-alive timeout), connect failures,
 * and responses that end early, run past their length or are cut off by a reset.
 */
class Http1PoolTest {

    private static Vertx vertx;
    private static ContextInternal loop;
    private final List<RawOrigin> origins = new ArrayList<>();
    private Http1Pool pool;

    @BeforeAll
    static void startVertx() {
        vertx = Vertx.vertx();
        loop = (ContextInternal) vertx.getOrCreateContext();
    }

    @AfterAll
    static void stopVertx() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @AfterEach
    void closeEverything() throws IOException {
        if (pool != null) {
            onLoop(() -> {
                pool.close();
                return null;
            });
        }
        for (RawOrigin origin : origins) {
            origin.close();
        }
    }

    @Test
    void aKeptAliveConnectionCarriesTheNextExchange() throws Exception {
        RawOrigin origin = origin(request -> request.write(ok("hello " + request.number())));
        pool = pool(origin, 4, 4, 55_000);

        assertEquals("200 hello 1", exchange("/a").join().summary());
        assertEquals("200 hello 2", exchange("/b").join().summary());

        assertEquals(1, origin.connections());
        assertEquals(1, (int) onLoop(pool::idle));
        assertTrue(origin.heads().get(1).startsWith("GET /b HTTP/1.1\r\n"), origin.heads().get(1));
    }

    @Test
    void aResponseThatClosesTheConnectionIsNotReused() throws Exception {
        RawOrigin origin = origin(request -> request.write(
                "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"));
        pool = pool(origin, 4, 4, 55_000);

        assertEquals("200 ok", exchange("/").join().summary());
        assertEquals("200 ok", exchange("/").join().summary());

        assertEquals(2, origin.connections());
        assertEquals(0, (int) onLoop(pool::idle));
    }

    @Test
    void bytesBeyondTheContentLengthEndTheResponseAndTheConnection() throws Exception {
        RawOrigin origin = origin(request -> request.write(
                "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokHTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nforge"));
        pool = pool(origin, 4, 4, 55_000);

        assertEquals("200 ok", exchange("/").join().summary());
        assertEquals("200 ok", exchange("/").join().summary());

        assertEquals(2, origin.connections(), "the smuggled response must never answer the second request");
    }

    @Test
    void aFullPoolQueuesThenRefuses() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        RawOrigin origin = origin(request -> {
            if (request.path().equals("/slow")) {
                release.await(10, TimeUnit.SECONDS);
            }
            request.write(ok(request.path()));
        });
        pool = pool(origin, 1, 1, 55_000);

        CompletableFuture<Outcome> slow = exchange("/slow");
        Eventually.within(Duration.ofSeconds(5), () -> assertEquals(1, origin.heads().size()));
        CompletableFuture<Outcome> queued = exchange("/queued");
        CompletableFuture<Outcome> refused = exchange("/refused");

        Outcome refusal = refused.join();
        assertInstanceOf(PoolRejection.class, refusal.failure());
        assertFalse(((PoolRejection) refusal.failure()).timedOut());
        release.countDown();
        assertEquals("200 /slow", slow.join().summary());
        assertEquals("200 /queued", queued.join().summary());
        assertEquals(1, origin.connections(), "the queued request got the connection the first one released");
    }

    @Test
    void aQueuedRequestGivesUpAfterItsQueueTimeout() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        RawOrigin origin = origin(request -> {
            release.await(10, TimeUnit.SECONDS);
            request.write(ok("late"));
        });
        pool = pool(origin, 1, 4, 55_000);

        CompletableFuture<Outcome> holding = exchange("/");
        Eventually.within(Duration.ofSeconds(5), () -> assertEquals(1, origin.heads().size()));
        long start = System.nanoTime();
        Outcome waited = exchange("/", 300).join();
        long waitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        assertInstanceOf(PoolRejection.class, waited.failure());
        assertTrue(((PoolRejection) waited.failure()).timedOut());
        assertTrue(waitedMillis >= 250, "gave up after " + waitedMillis + " ms");
        release.countDown();
        assertEquals("200 late", holding.join().summary());
    }

    @Test
    void aRefusedConnectionFailsTheAcquire() throws Exception {
        int port;
        try (ServerSocket unused = new ServerSocket(0)) {
            port = unused.getLocalPort();
        }
        int closedPort = port;
        pool = onLoop(() -> newPool(new InetSocketAddress("127.0.0.1", closedPort), 4, 4, 55_000));

        Outcome outcome = exchange("/").join();

        assertInstanceOf(ConnectException.class, rootOf(outcome.failure()), String.valueOf(outcome.failure()));
        assertEquals(0, (int) onLoop(pool::open));
    }

    @Test
    void aResponseCutShortFailsAfterTheBytesThatCame() throws Exception {
        RawOrigin origin = origin(request -> {
            request.write("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly ten!!");
            request.socket().close();
        });
        pool = pool(origin, 4, 4, 55_000);

        Outcome outcome = exchange("/").join();

        assertEquals(200, outcome.status());
        assertEquals("only ten!!", outcome.body());
        assertInstanceOf(ClosedChannelException.class, outcome.failure());
        Eventually.within(Duration.ofSeconds(5), () -> assertEquals(0, (int) onLoop(pool::open)));
    }

    @Test
    void anIdleConnectionTheOriginClosesLeavesThePool() throws Exception {
        RawOrigin origin = origin(request -> {
            request.write(ok("once"));
            request.socket().close();
        });
        pool = pool(origin, 4, 4, 55_000);

        assertEquals("200 once", exchange("/").join().summary());
        Eventually.within(Duration.ofSeconds(5), () -> assertEquals(0, (int) onLoop(pool::open)));
        assertEquals("200 once", exchange("/").join().summary());

        assertEquals(2, origin.connections());
    }

    @Test
    void idleConnectionsCloseAfterTheKeepAliveTimeout() throws Exception {
        RawOrigin origin = origin(request -> request.write(ok("x")));
        pool = pool(origin, 4, 4, 300);

        assertEquals("200 x", exchange("/").join().summary());
        assertEquals(1, (int) onLoop(pool::idle));

        Eventually.within(Duration.ofSeconds(5), () -> assertEquals(1, origin.closedByPeer()));
        assertEquals(0, (int) onLoop(pool::open));
    }

    @Test
    void aResetExchangeFailsWithItsCauseAndClosesTheConnection() throws Exception {
        RawOrigin origin = origin(request -> request.awaitClosedByPeer(10_000));
        pool = pool(origin, 4, 4, 55_000);
        CompletableFuture<Http1Connection> held = new CompletableFuture<>();
        CompletableFuture<Throwable> failure = new CompletableFuture<>();
        loop.runOnContext(v -> pool.acquire(1000, acquirer(held, failure)));
        Http1Connection connection = held.join();
        Outcome outcome = new Outcome();
        loop.runOnContext(v -> connection.send(get("/"), outcome));
        Eventually.within(Duration.ofSeconds(5), () -> assertEquals(1, origin.heads().size()));

        IllegalStateException cause = new IllegalStateException("gave up");
        loop.runOnContext(v -> connection.reset(cause));

        assertEquals(cause, outcome.done.join().failure());
        Eventually.within(Duration.ofSeconds(5), () -> assertEquals(1, origin.closedByPeer()));
        assertEquals(0, (int) onLoop(pool::open));
    }

    @Test
    void aRequestBodyIsWrittenInPiecesAndTheConnectionIsReused() throws Exception {
        RawOrigin origin = origin(request -> request.write(ok("got it")));
        pool = pool(origin, 4, 4, 55_000);
        CompletableFuture<Http1Connection> held = new CompletableFuture<>();
        loop.runOnContext(v -> pool.acquire(1000, acquirer(held, new CompletableFuture<>())));
        Http1Connection connection = held.join();
        Outcome outcome = new Outcome();
        HttpRequest post = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/upload",
                new DefaultHttpHeaders().set("Host", "origin").set("Content-Length", "11"));
        loop.runOnContext(v -> {
            connection.send(post, outcome);
            connection.write(Unpooled.copiedBuffer("hello ", StandardCharsets.US_ASCII), ChannelFutureListener.CLOSE_ON_FAILURE);
            connection.end(Unpooled.copiedBuffer("world", StandardCharsets.US_ASCII), null,
                    ChannelFutureListener.CLOSE_ON_FAILURE);
        });

        assertEquals("200 got it", outcome.done.join().summary());
        assertEquals("200 got it", exchange("/next").join().summary());
        assertEquals(1, origin.connections(), "the body was read whole, so the next head was where it belonged");
    }

    @Test
    void anOriginsShorterKeepAliveTimeoutRetiresItsConnectionFirst() throws Exception {
        // Keep-Alive: timeout=1 leaves no second of margin: the idle connection is never reused.
        RawOrigin origin = origin(request -> request.write(
                "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nKeep-Alive: timeout=1, max=100\r\n\r\nx"));
        pool = pool(origin, 4, 4, 55_000);

        assertEquals("200 x", exchange("/").join().summary());
        assertEquals("200 x", exchange("/").join().summary());

        assertEquals(2, origin.connections());
    }

    @Test
    void aRequestResetBeforeItsHeadWentOutFailsItsResponse() throws Exception {
        RawOrigin origin = origin(request -> request.write(ok("unexpected")));
        pool = pool(origin, 4, 4, 55_000);
        CompletableFuture<Http1Connection> held = new CompletableFuture<>();
        loop.runOnContext(v -> pool.acquire(1000, acquirer(held, new CompletableFuture<>())));
        Http1Connection connection = held.join();
        CompletableFuture<Throwable> failure = new CompletableFuture<>();
        IllegalStateException cause = new IllegalStateException("the client left");

        loop.runOnContext(v -> {
            Http1UpstreamRequest request = new Http1UpstreamRequest(connection, io.vertx.core.http.HttpMethod.POST,
                    "/", "origin");
            request.headers().set("Content-Length", "5");
            request.response().onComplete(result -> failure.complete(result.cause()));
            request.reset(cause);
        });

        assertEquals(cause, failure.get(5, TimeUnit.SECONDS));
        Eventually.within(Duration.ofSeconds(5), () -> assertEquals(0, (int) onLoop(pool::open)));
        assertEquals(0, origin.heads().size(), "nothing was sent");
    }

    @Test
    void aBodyWithoutFramingIsRefusedBeforeAnyByteGoesOut() throws Exception {
        RawOrigin origin = origin(request -> request.write(ok("unexpected")));
        pool = pool(origin, 4, 4, 55_000);
        CompletableFuture<Http1Connection> held = new CompletableFuture<>();
        loop.runOnContext(v -> pool.acquire(1000, acquirer(held, new CompletableFuture<>())));
        Http1Connection connection = held.join();

        Throwable refused = onLoop(() -> {
            Http1UpstreamRequest request = new Http1UpstreamRequest(connection, io.vertx.core.http.HttpMethod.POST,
                    "/", "origin");
            try {
                request.write(io.vertx.core.buffer.Buffer.buffer("body"));
                return null;
            } catch (IllegalStateException e) {
                request.reset(e);
                return e;
            }
        });

        assertInstanceOf(IllegalStateException.class, refused);
        assertEquals(0, origin.heads().size());
    }

    @Test
    void anUnaskedSwitchOfProtocolsFailsTheExchangeAndItsBytesAreDropped() throws Exception {
        RawOrigin origin = origin(request -> {
            request.write("HTTP/1.1 101 Switching Protocols\r\nUpgrade: raw\r\nConnection: upgrade\r\n\r\n"
                    + "raw bytes of another protocol");
            request.awaitClosedByPeer(5000);
        });
        pool = pool(origin, 4, 4, 55_000);

        Outcome outcome = exchange("/").join();

        assertInstanceOf(io.netty.handler.codec.DecoderException.class, outcome.failure());
        Eventually.within(Duration.ofSeconds(5), () -> assertEquals(0, (int) onLoop(pool::open)));
    }

    // ---- helpers ----

    private static String ok(String body) {
        return "HTTP/1.1 200 OK\r\nContent-Length: " + body.length() + "\r\n\r\n" + body;
    }

    private RawOrigin origin(RawOrigin.Script script) throws IOException {
        RawOrigin origin = RawOrigin.start(script);
        origins.add(origin);
        return origin;
    }

    private Http1Pool pool(RawOrigin origin, int size, int pending, long keepAliveMillis) {
        URI url = URI.create(origin.url());
        return onLoop(() -> newPool(InetSocketAddress.createUnresolved(url.getHost(), url.getPort()), size, pending,
                keepAliveMillis));
    }

    private static Http1Pool newPool(InetSocketAddress address, int size, int pending, long keepAliveMillis) {
        VertxInternal owner = loop.owner();
        return new Http1Pool(loop.nettyEventLoop(), owner.transport().channelFactory(false),
                owner.nettyAddressResolverGroup(), address,
                new Http1Pool.Settings(size, pending, 2000, keepAliveMillis, new HttpDecoderConfig()));
    }

    /** A whole GET: a request without a body is written with its end. */
    private static HttpRequest get(String path) {
        return new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, path, Unpooled.EMPTY_BUFFER,
                new DefaultHttpHeaders().set("Host", "origin"), EmptyHttpHeaders.INSTANCE);
    }

    private CompletableFuture<Outcome> exchange(String path) {
        return exchange(path, 5000);
    }

    /** Acquires a connection (waiting at most {@code queueTimeoutMillis}) and sends a GET on it. */
    private CompletableFuture<Outcome> exchange(String path, long queueTimeoutMillis) {
        Outcome outcome = new Outcome();
        loop.runOnContext(v -> pool.acquire(queueTimeoutMillis, new Http1Pool.Acquirer() {
            @Override
            public void acquired(Http1Connection connection) {
                connection.send(get(path), outcome);
            }

            @Override
            public void failed(Throwable cause) {
                outcome.failed(cause);
            }
        }));
        return outcome.done;
    }

    private static Http1Pool.Acquirer acquirer(CompletableFuture<Http1Connection> held,
                                               CompletableFuture<Throwable> failure) {
        return new Http1Pool.Acquirer() {
            @Override
            public void acquired(Http1Connection connection) {
                held.complete(connection);
            }

            @Override
            public void failed(Throwable cause) {
                failure.complete(cause);
                held.completeExceptionally(cause);
            }
        };
    }

    private static Throwable rootOf(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root;
    }

    private static <T> T onLoop(Supplier<T> action) {
        CompletableFuture<T> result = new CompletableFuture<>();
        loop.runOnContext(v -> {
            try {
                result.complete(action.get());
            } catch (RuntimeException e) {
                result.completeExceptionally(e);
            }
        });
        return result.join();
    }

    /** What one exchange got: the head's status, the body's bytes, and how it ended. */
    private static final class Outcome implements Http1Connection.ResponseListener {
        final CompletableFuture<Outcome> done = new CompletableFuture<>();
        private final StringBuilder body = new StringBuilder();
        private int status;
        private Throwable failure;

        @Override
        public void head(HttpResponse head) {
            status = head.status().code();
        }

        @Override
        public void piece(ByteBuf piece) {
            body.append(piece.toString(StandardCharsets.ISO_8859_1));
            piece.release();
        }

        @Override
        public void end(HttpHeaders trailers) {
            done.complete(this);
        }

        @Override
        public void failed(Throwable cause) {
            failure = cause;
            done.complete(this);
        }

        int status() {
            return status;
        }

        String body() {
            return body.toString();
        }

        Throwable failure() {
            return failure;
        }

        /** "status body" of a response that ended whole. */
        String summary() {
            assertNull(failure, () -> "failed: " + failure);
            return status + " " + body;
        }
    }
}
