package dev.portico.proxy.server.http2;

import dev.portico.proxy.core.counters.ReasonCounts;
import dev.portico.proxy.core.outcome.LocalReason;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Stream;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.impl.ConnectionBase;
import org.jboss.logging.Logger;

import java.util.concurrent.TimeUnit;

/**
 * The send timeout for what is left of an HTTP/2 response once Portico has written all of it. Vert.x reports a
 * stream's end as written as soon as Netty's flow controller has queued it, so the relay, the cache and the file
 * server are done while the last DATA frames still wait for the client's window: a client that keeps its window
 * shut would hold the stream, and what is queued for it, for as long as it keeps the connection busy. Such a tail
 * is watched (only then: a stream whose frames all went out costs nothing) and its stream reset with CANCEL once
 * the client has opened no window for the send timeout, as nginx's {@code send_timeout} cuts an HTTP/2 stream
 * blocked by flow control. Each opening of the window, the stream's or the connection's, restarts the wait, so a
 * slow client that keeps reading gets the whole body. One per event loop.
 */
public final class HeldBackTails {

    private static final Logger LOG = Logger.getLogger(HeldBackTails.class);

    private final long timeoutMillis;
    private final ReasonCounts counts;
    private final int loop;

    /** @param timeoutMillis the client send timeout; 0 turns the watch off */
    public HeldBackTails(long timeoutMillis, ReasonCounts counts, int loop) {
        this.timeoutMillis = timeoutMillis;
        this.counts = counts;
        this.loop = loop;
    }

    /**
     * The response to {@code request} has ended: watches its stream if frames of it are held back. Looked at once
     * the current event is handled, since the exchange completes as the response's last write begins, before that
     * write has reached the flow controller.
     */
    void watch(HttpServerRequest request) {
        if (timeoutMillis > 0) {
            Channel channel = ((ConnectionBase) request.connection()).channel();
            channel.eventLoop().execute(() -> watchNow(request, channel));
        }
    }

    private void watchNow(HttpServerRequest request, Channel channel) {
        Http2ConnectionHandler handler = channel.pipeline().get(Http2ConnectionHandler.class);
        if (handler == null) {
            return;
        }
        Http2Stream stream = handler.connection().stream(request.streamId());
        if (stream != null && handler.encoder().flowController().hasFlowControlled(stream)) {
            new Tail(request, handler, stream, WindowOpenings.on(handler.decoder())).arm(channel);
        }
    }

    /** One stream's held-back frames, checked every send timeout until they are out or the stream is cut. */
    private final class Tail {

        private final HttpServerRequest request;
        private final Http2ConnectionHandler handler;
        private final Http2Stream stream;
        private final WindowOpenings openings;

        Tail(HttpServerRequest request, Http2ConnectionHandler handler, Http2Stream stream,
             WindowOpenings openings) {
            this.request = request;
            this.handler = handler;
            this.stream = stream;
            this.openings = openings;
            openings.watch(stream.id());
        }

        void arm(Channel channel) {
            channel.eventLoop().schedule(() -> check(channel), timeoutMillis, TimeUnit.MILLISECONDS);
        }

        private void check(Channel channel) {
            boolean sent = stream.state() == Http2Stream.State.CLOSED
                    || !handler.encoder().flowController().hasFlowControlled(stream) || !channel.isActive();
            if (sent) {
                openings.forget(stream.id());
            } else if (openings.openedSinceLastAsked(stream.id())) {
                arm(channel);
            } else {
                openings.forget(stream.id());
                counts.counted(loop, LocalReason.CLIENT_SEND_TIMEOUT);
                LOG.debugf("HTTP/2 stream %d from %s reset: its window stayed shut on the rest of the response "
                        + "for %d ms", stream.id(), request.connection().remoteAddress(), Long.valueOf(timeoutMillis));
                // Not through Vert.x: it resets no stream whose request and response have both ended.
                ChannelHandlerContext context = channel.pipeline().context(handler);
                handler.resetStream(context, stream.id(), Http2Error.CANCEL.code(), context.newPromise());
                context.flush();
            }
        }
    }
}
