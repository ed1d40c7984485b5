package dev.portico.proxy.tunnel;

import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Frame boundaries of RFC 6455 streams, fed in every split a socket might deliver. */
class FrameBoundaryTest {

    /** An unmasked frame with a payload of {@code length} bytes, with the length encoding RFC 6455 requires. */
    private static Buffer frame(int length, boolean masked) {
        Buffer frame = Buffer.buffer().appendByte((byte) 0x82);
        int maskBit = masked ? 0x80 : 0;
        if (length < 126) {
            frame.appendByte((byte) (maskBit | length));
        } else if (length < 65536) {
            frame.appendByte((byte) (maskBit | 126)).appendShort((short) length);
        } else {
            frame.appendByte((byte) (maskBit | 127)).appendLong(length);
        }
        if (masked) {
            frame.appendInt(0x01020304);
        }
        return frame.appendBytes(new byte[length]);
    }

    @Test
    void everyLengthEncodingEndsWhereItSays() {
        Buffer stream = Buffer.buffer().appendBuffer(frame(0, false)).appendBuffer(frame(125, true))
                .appendBuffer(frame(126, false)).appendBuffer(frame(70_000, true)).appendBuffer(frame(5, false));
        // Fed byte by byte, the stream is between frames exactly at the frames' ends.
        FrameBoundary boundary = new FrameBoundary();
        int[] ends = {2, 2 + 2 + 4 + 125, 133 + 4 + 126, 263 + 14 + 70_000, 70_277 + 7};
        int next = 0;
        for (int i = 0; i < stream.length(); i++) {
            boundary.follow(stream.getBuffer(i, i + 1));
            boolean end = next < ends.length && ends[next] == i + 1;
            assertEquals(end, boundary.atBoundary(), "after byte " + (i + 1));
            if (end) {
                next++;
            }
        }
        assertEquals(ends.length, next);
    }

    @Test
    void piecesOfAnySizeGiveTheSameAnswer() {
        Buffer stream = Buffer.buffer().appendBuffer(frame(300, true)).appendBuffer(frame(3, false));
        for (int piece = 1; piece <= stream.length(); piece++) {
            FrameBoundary boundary = new FrameBoundary();
            for (int at = 0; at < stream.length(); at += piece) {
                boundary.follow(stream.getBuffer(at, Math.min(stream.length(), at + piece)));
            }
            assertTrue(boundary.atBoundary(), "pieces of " + piece);
        }
        FrameBoundary half = new FrameBoundary();
        half.follow(stream.getBuffer(0, 100));
        assertFalse(half.atBoundary());
    }

    @Test
    void goingAwayIsACloseFrameWith1001() {
        Buffer server = FrameBoundary.goingAway(false);
        assertEquals((byte) 0x88, server.getByte(0));
        assertEquals(12, server.getByte(1));
        assertEquals(1001, server.getShort(2));
        assertArrayEquals("Going Away".getBytes(), server.getBytes(4, 14));

        Buffer client = FrameBoundary.goingAway(true);
        assertEquals((byte) (0x80 | 12), client.getByte(1));
        byte[] key = client.getBytes(2, 6);
        byte[] unmasked = new byte[12];
        for (int i = 0; i < 12; i++) {
            unmasked[i] = (byte) (client.getByte(6 + i) ^ key[i % 4]);
        }
        assertEquals(1001, ((unmasked[0] & 0xff) << 8) | (unmasked[1] & 0xff));
        FrameBoundary after = new FrameBoundary();
        after.follow(client);
        assertTrue(after.atBoundary(), "Portico's own frame is a whole frame");
    }
}
