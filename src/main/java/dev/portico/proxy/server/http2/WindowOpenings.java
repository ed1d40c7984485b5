package dev.portico.proxy.server.http2;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.Http2ConnectionDecoder;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2FrameListener;
import io.netty.handler.codec.http2.Http2FrameListenerDecorator;
import io.netty.util.collection.IntObjectHashMap;
import io.netty.util.collection.IntObjectMap;

/**
 * Which watched streams of one connection the client has opened a flow-control window for (a WINDOW_UPDATE on the
 * stream, or on the connection, which lets every stream move). It sits in front of Vert.x's frame listener and
 * passes every frame on; it is put in only once a stream of the connection holds back a tail
 * ({@link HeldBackTails}), so other connections read their frames as before. Runs on the connection's event loop.
 */
final class WindowOpenings extends Http2FrameListenerDecorator {

    private static final Object OPENED = new Object();
    private static final Object SHUT = new Object();

    /** Watched stream id to {@link #OPENED} or {@link #SHUT}. */
    private final IntObjectMap<Object> watched = new IntObjectHashMap<>(4);

    private WindowOpenings(Http2FrameListener listener) {
        super(listener);
    }

    /** The connection's openings, put in front of its frame listener the first time they are asked for. */
    static WindowOpenings on(Http2ConnectionDecoder decoder) {
        Http2FrameListener current = decoder.frameListener();
        if (current instanceof WindowOpenings openings) {
            return openings;
        }
        WindowOpenings openings = new WindowOpenings(current);
        decoder.frameListener(openings);
        return openings;
    }

    void watch(int streamId) {
        watched.put(streamId, SHUT);
    }

    void forget(int streamId) {
        watched.remove(streamId);
    }

    /** Whether the window of {@code streamId} was opened since the watch began or this was last asked. */
    boolean openedSinceLastAsked(int streamId) {
        return watched.put(streamId, SHUT) == OPENED;
    }

    @Override
    public void onWindowUpdateRead(ChannelHandlerContext ctx, int streamId, int windowSizeIncrement)
            throws Http2Exception {
        if (!watched.isEmpty()) {
            if (streamId == 0) {
                for (IntObjectMap.PrimitiveEntry<Object> entry : watched.entries()) {
                    entry.setValue(OPENED);
                }
            } else if (watched.containsKey(streamId)) {
                watched.put(streamId, OPENED);
            }
        }
        super.onWindowUpdateRead(ctx, streamId, windowSizeIncrement);
    }
}
