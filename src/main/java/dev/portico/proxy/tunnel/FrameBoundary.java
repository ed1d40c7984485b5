package dev.portico.proxy.tunnel;

import io.vertx.core.buffer.Buffer;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Follows one direction of a WebSocket connection just far enough to know whether it stands between two frames
 * (RFC 6455 section 5.2: a two-byte header, a 16- or 64-bit extended length, a masking key when masked, then the
 * payload), so Portico can put a close frame of its own there without breaking the peer's framing. Nothing else of
 * the frames is read; extensions do not change the framing. Confined to the tunnel's loop.
 */
final class FrameBoundary {

    /** Header bytes of the frame being read; its length is known once the first two are in. */
    private final byte[] header = new byte[14];
    private int headerRead;
    private long payloadLeft;

    /** Whether every frame seen so far is complete. */
    boolean atBoundary() {
        return headerRead == 0 && payloadLeft == 0;
    }

    /** Takes the next bytes of the direction, in order. */
    void follow(Buffer bytes) {
        int at = 0;
        int length = bytes.length();
        while (at < length) {
            if (payloadLeft > 0) {
                long skipped = Math.min(payloadLeft, length - at);
                payloadLeft -= skipped;
                at += (int) skipped;
                continue;
            }
            header[headerRead++] = bytes.getByte(at++);
            int needed = headerLength();
            if (headerRead == needed) {
                payloadLeft = payloadLength();
                headerRead = 0;
            }
        }
    }

    /** The whole header's length, or more than read so far while that is not known yet. */
    private int headerLength() {
        if (headerRead < 2) {
            return 2 + 1;
        }
        int length7 = header[1] & 0x7f;
        int extended = length7 == 126 ? 2 : length7 == 127 ? 8 : 0;
        int mask = (header[1] & 0x80) != 0 ? 4 : 0;
        return 2 + extended + mask;
    }

    private long payloadLength() {
        int length7 = header[1] & 0x7f;
        if (length7 < 126) {
            return length7;
        }
        int bytes = length7 == 126 ? 2 : 8;
        long length = 0;
        for (int i = 0; i < bytes; i++) {
            length = (length << 8) | (header[2 + i] & 0xff);
        }
        return length;
    }

    /** A close frame with status 1001 (Going Away), from a server (unmasked) or a client (masked, RFC 6455 5.3). */
    static Buffer goingAway(boolean masked) {
        byte[] reason = "Going Away".getBytes(StandardCharsets.US_ASCII);
        int payload = 2 + reason.length;
        Buffer frame = Buffer.buffer(2 + (masked ? 4 : 0) + payload);
        frame.appendByte((byte) 0x88);
        frame.appendByte((byte) ((masked ? 0x80 : 0) | payload));
        byte[] body = new byte[payload];
        body[0] = (byte) (1001 >> 8);
        body[1] = (byte) (1001 & 0xff);
        System.arraycopy(reason, 0, body, 2, reason.length);
        if (masked) {
            // The key only has to be unpredictable to defeat cache poisoning by scripts; this frame is Portico's own.
            byte[] key = new byte[4];
            ThreadLocalRandom.current().nextBytes(key);
            frame.appendBytes(key);
            for (int i = 0; i < payload; i++) {
                body[i] ^= key[i % 4];
            }
        }
        return frame.appendBytes(body);
    }
}
