package dev.portico.proxy.upstream.pool;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import org.junit.jupiter.api.Test;

import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The read-stream contract of a response on Portico's own connections, event by event (the connection is an
 * embedded channel: what is tested is the order in which a reader hears of pieces, the end and a failure).
 */
class Http1UpstreamResponseTest {

    private final EmbeddedChannel channel = new EmbeddedChannel();
    private final Http1UpstreamResponse response = new Http1UpstreamResponse(
            new Http1Connection(channel, null, null),
            new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK));
    private final List<String> heard = new ArrayList<>();

    private void listen() {
        response.handler(piece -> heard.add("piece " + piece.toString(StandardCharsets.US_ASCII)));
        response.endHandler(v -> heard.add("end"));
        response.exceptionHandler(failure -> heard.add("failed " + failure.getClass().getSimpleName()));
    }

    @Test
    void piecesAndTheEndWaitWhilePausedAndComeInOrderOnResume() {
        listen();
        response.pause();
        assertFalse(channel.config().isAutoRead(), "a paused reader stops the socket");

        response.piece(Unpooled.copiedBuffer("a", StandardCharsets.US_ASCII));
        response.piece(Unpooled.copiedBuffer("b", StandardCharsets.US_ASCII));
        response.end(EmptyHttpHeaders.INSTANCE);
        assertTrue(heard.isEmpty());

        response.resume();
        assertEquals(List.of("piece a", "piece b", "end"), heard);
    }

    @Test
    void eventsBeforeAnyHandlerWaitForIt() {
        response.piece(Unpooled.copiedBuffer("early", StandardCharsets.US_ASCII));
        response.end(EmptyHttpHeaders.INSTANCE);

        listen();

        assertEquals(List.of("piece early", "end"), heard);
    }

    @Test
    void aFailureReachesAPausedReaderAtOnceAndDropsWhatWaited() {
        listen();
        response.pause();
        response.piece(Unpooled.copiedBuffer("partial", StandardCharsets.US_ASCII));

        response.failed(new ClosedChannelException());

        assertEquals(List.of("failed ClosedChannelException"), heard);
        response.resume();
        assertEquals(List.of("failed ClosedChannelException"), heard, "the pieces of a broken body are not delivered");
    }

    @Test
    void aPauseAfterTheEndLeavesTheConnectionReading() {
        listen();
        response.end(EmptyHttpHeaders.INSTANCE);

        response.pause();
        response.bodySource().pause();

        assertTrue(channel.config().isAutoRead(), "the connection may already carry the next exchange");
    }
}
