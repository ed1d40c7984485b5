package dev.portico.proxy.server.http1;

import dev.portico.proxy.server.keepalive.KeepAliveTimeout;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.impl.ConnectionBase;
import org.jboss.logging.Logger;

import java.time.Duration;

/**
 * The client connections of one event loop that a {@link RequestGuard} watches, and their header timeout: one
 * periodic sweep per loop looks at every connection, so a request costs no timer at all (a Vert.x timer per request
 * costs a few per cent of a small forwarded request). A connection is waiting for a head from its first byte (a new
 * connection: from its opening, as nginx's {@code client_header_timeout}) until the blank line; between requests
 * the idle timeout applies instead. Deadlines fire up to two sweeps late, never early. Confined to its loop.
 */
public final class GuardedConnections {

    private static final Logger LOG = Logger.getLogger(GuardedConnections.class);
    private static final String DECODER = "httpDecoder";

    private final int maxRequestLine;
    private final int maxHeaderSize;
    private final long headerTimeoutMillis;
    private final long sweepMillis;
    private final byte[] scratch;
    private RequestGuard first;
    private long timer = -1;

    /**
     * @param headerTimeout how long a request head may take; zero turns the timeout off
     */
    public GuardedConnections(int maxRequestLine, int maxHeaderSize, Duration headerTimeout) {
        this.maxRequestLine = maxRequestLine;
        this.maxHeaderSize = maxHeaderSize;
        this.headerTimeoutMillis = headerTimeout.toMillis();
        this.sweepMillis = headerTimeoutMillis <= 0 ? 1000 : Math.max(50, Math.min(1000, headerTimeoutMillis / 10));
        // Room for the longest line any limit allows, its CRLF, and some bytes after it to read on.
        this.scratch = new byte[Math.max(Math.max(maxRequestLine, maxHeaderSize), ChunkedBody.MAX_SIZE_LINE) + 64];
    }

    /**
     * Starts the sweep; call on the loop's context, whose timers then run it. It also watches clients that
     * half-closed while a response was due (see {@link RequestGuard#checkPeer()}), so it runs even without a header
     * timeout.
     */
    public void start(Vertx vertx) {
        timer = vertx.setPeriodic(sweepMillis, id -> sweep());
    }

    public void stop(Vertx vertx) {
        if (timer >= 0) {
            vertx.cancelTimer(timer);
            timer = -1;
        }
    }

    /**
     * Puts a guard in front of a new HTTP/1 connection's decoder, and swaps the decoder for one that keeps the
     * request target's UTF-8 (see {@link StrictRequestDecoder}). Half-closure is allowed, so a client's FIN reaches
     * the guard as an event instead of closing the connection before its responses are written. The idle timeout
     * becomes a keep-alive timeout ({@link KeepAliveTimeout}): it spares a connection whose request the guard knows
     * is being answered. Call from the server's connection handler, which Vert.x runs before the connection reads its
     * first byte.
     */
    public void guard(HttpConnection connection, HttpServerOptions options) {
        if (!(connection instanceof ConnectionBase)) {
            return;
        }
        Channel channel = ((ConnectionBase) connection).channel();
        ChannelPipeline pipeline = channel.pipeline();
        if (pipeline.get(DECODER) == null) {
            return;
        }
        channel.config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, true);
        pipeline.replace(DECODER, DECODER, new StrictRequestDecoder(options));
        RequestGuard guard = new RequestGuard(this);
        pipeline.addBefore(DECODER, RequestGuard.NAME, guard);
        RequestGuard.attachTo(channel, guard);
        KeepAliveTimeout.replaceIn(pipeline, options, guard::answering);
    }

    int maxRequestLine() {
        return maxRequestLine;
    }

    int maxHeaderSize() {
        return maxHeaderSize;
    }

    long headerTimeoutMillis() {
        return headerTimeoutMillis;
    }

    /** A buffer for the line being checked, long enough for any line the limits allow; valid until the next use. */
    byte[] scratch() {
        return scratch;
    }

    void add(RequestGuard guard) {
        if (guard.listed) {
            return;
        }
        guard.listed = true;
        guard.previous = null;
        guard.next = first;
        if (first != null) {
            first.previous = guard;
        }
        first = guard;
    }

    void remove(RequestGuard guard) {
        if (!guard.listed) {
            return;
        }
        guard.listed = false;
        if (guard.previous == null) {
            first = guard.next;
        } else {
            guard.previous.next = guard.next;
        }
        if (guard.next != null) {
            guard.next.previous = guard.previous;
        }
        guard.previous = null;
        guard.next = null;
    }

    /**
     * Notes when each connection started waiting for its current head (at the first sweep that sees it: that sweep
     * is never before the head began) and ends those that waited longer than the timeout. A new head on the same
     * connection (more heads passed) starts a new wait; so does time when Portico itself was not reading.
     */
    void sweep() {
        long now = System.nanoTime();
        long timeout = headerTimeoutMillis * 1_000_000L;
        RequestGuard guard = first;
        while (guard != null) {
            RequestGuard following = guard.next;
            if (guard.lingering) {
                guard.checkLinger(now);
            } else if (guard.watchingPeer) {
                guard.checkPeer();
            } else if (timeout <= 0 || !guard.waitingForHead() || !guard.reading()) {
                guard.waitingSince = -1;
            } else if (guard.waitingSince < 0 || guard.waitingHeads != guard.headsPassed()) {
                guard.waitingSince = now;
                guard.waitingHeads = guard.headsPassed();
            } else if (now - guard.waitingSince >= timeout) {
                try {
                    guard.headTimedOut();
                } catch (RuntimeException e) {
                    // Caught so the other connections are still swept.
                    LOG.error("Ending a request head that timed out failed", e);
                }
            }
            guard = following;
        }
    }
}
