package dev.portico.proxy.core.body;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The write sequence of {@link SlicedBody}, against a response that records what it is given and whose write
 * futures the test completes: at most one slice outstanding, in order, one end, nothing after a failure.
 */
class SlicedBodyTest {

    /** What the response was asked to do; the write futures are completed (or not) by the test. */
    private static final class Recorder {
        final List<Buffer> writes = new ArrayList<>();
        final List<Promise<Void>> pending = new ArrayList<>();
        Buffer ended;
        int ends;
        boolean closed;
        /** Complete each write before returning it, as a socket that takes everything at once does. */
        boolean immediate;

        HttpServerResponse response() {
            return (HttpServerResponse) Proxy.newProxyInstance(getClass().getClassLoader(),
                    new Class<?>[]{HttpServerResponse.class}, (proxy, method, args) -> switch (method.getName()) {
                        case "write" -> {
                            writes.add((Buffer) args[0]);
                            Promise<Void> promise = Promise.promise();
                            if (immediate) {
                                promise.complete();
                            } else {
                                pending.add(promise);
                            }
                            yield promise.future();
                        }
                        case "end" -> {
                            ends++;
                            ended = args == null ? Buffer.buffer() : (Buffer) args[0];
                            yield Future.succeededFuture();
                        }
                        case "close" -> {
                            closed = true;
                            yield null;
                        }
                        case "closed" -> closed;
                        default -> throw new UnsupportedOperationException(method.getName());
                    });
        }

        Buffer all() {
            Buffer out = Buffer.buffer();
            writes.forEach(out::appendBuffer);
            return ended == null ? out : out.appendBuffer(ended);
        }
    }

    private static Buffer body(int size) {
        byte[] bytes = new byte[size];
        new Random(size).nextBytes(bytes);
        return Buffer.buffer(bytes);
    }

    @Test
    void aSmallBodyIsOneEnd() {
        Recorder recorder = new Recorder();
        Buffer body = body(SlicedBody.SLICE);
        SlicedBody.end(recorder.response(), body);
        assertEquals(0, recorder.writes.size());
        assertEquals(1, recorder.ends);
        assertEquals(body, recorder.ended);
    }

    @Test
    void oneSliceIsOutstandingAtATimeAndTheLastOneEnds() {
        Recorder recorder = new Recorder();
        Buffer body = body(3 * SlicedBody.SLICE + 100);
        SlicedBody.end(recorder.response(), body);
        for (int i = 1; i <= 3; i++) {
            assertEquals(i, recorder.writes.size(), "one slice waits for the one before it");
            assertEquals(SlicedBody.SLICE, recorder.writes.get(i - 1).length());
            assertEquals(0, recorder.ends);
            recorder.pending.get(i - 1).complete();
        }
        assertEquals(3, recorder.writes.size());
        assertEquals(1, recorder.ends);
        assertEquals(100, recorder.ended.length());
        assertEquals(body, recorder.all());
        assertFalse(recorder.closed);
    }

    @Test
    void writesTheSocketTakesAtOnceLoopWithoutDeepeningTheStack() {
        Recorder recorder = new Recorder();
        recorder.immediate = true;
        // 64 MiB in 2048 slices: continuing from each completion instead of looping would overflow the stack.
        Buffer body = body(64 << 20);
        SlicedBody.end(recorder.response(), body);
        assertEquals(2047, recorder.writes.size());
        assertEquals(1, recorder.ends);
        assertEquals(body, recorder.all());
    }

    @Test
    void aFailedWriteStopsTheBody() {
        Recorder recorder = new Recorder();
        SlicedBody.end(recorder.response(), body(4 * SlicedBody.SLICE));
        recorder.pending.get(0).complete();
        recorder.pending.get(1).fail("broken pipe");
        assertEquals(2, recorder.writes.size());
        assertEquals(0, recorder.ends);
        // Not closed here: Vert.x reports the broken connection to the exchange, which completes it.
        assertFalse(recorder.closed);
    }

    @Test
    void aResponseClosedMeanwhileGetsNothingMore() {
        Recorder recorder = new Recorder();
        SlicedBody.end(recorder.response(), body(4 * SlicedBody.SLICE));
        recorder.closed = true;
        recorder.pending.get(0).complete();
        assertEquals(1, recorder.writes.size());
        assertEquals(0, recorder.ends);
    }
}
