package dev.portico.telemetry.accesslog;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One event loop's reusable scratch space for the line being formatted: plain bytes, appended to without
 * allocating. Values are escaped into it by {@link JsonEscaper} and {@link CombinedEscaper}; it only grows (once)
 * when a hostile request carries values near the length caps. Not thread-safe: confined to its loop.
 */
final class LineBuffer {

    private static final byte[] DIGITS = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] UPPER_DIGITS = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);

    private byte[] bytes;
    private int length;

    LineBuffer(int initialCapacity) {
        bytes = new byte[initialCapacity];
    }

    void reset() {
        length = 0;
    }

    int length() {
        return length;
    }

    byte[] bytes() {
        return bytes;
    }

    /** Makes room for {@code extra} more bytes; escapers call this once per value with its worst case. */
    void ensure(int extra) {
        if (length + extra > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + extra));
        }
    }

    /** Appends one byte; the caller has made room. */
    void put(int b) {
        bytes[length++] = (byte) b;
    }

    /** Appends a string known to be ASCII (field names, constants, codes). */
    LineBuffer ascii(String s) {
        int n = s.length();
        ensure(n);
        return latin1(s, 0, n);
    }

    /** Copies chars {@code [from, to)} of a string whose chars there are all below U+0100; room is made. */
    @SuppressWarnings("deprecation")
    LineBuffer latin1(String s, int from, int to) {
        // The one String method that copies chars to bytes without a charset: for a compact (Latin-1) string an
        // array copy, which is what makes the common, all-ASCII value cheap.
        s.getBytes(from, to, bytes, length);
        length += to - from;
        return this;
    }

    LineBuffer ascii(char c) {
        ensure(1);
        bytes[length++] = (byte) c;
        return this;
    }

    /** A decimal integer. */
    LineBuffer number(long value) {
        ensure(20);
        if (value < 0) {
            if (value == Long.MIN_VALUE) {
                return ascii(Long.toString(value));
            }
            put('-');
            value = -value;
        }
        int start = length;
        do {
            put('0' + (int) (value % 10));
            value /= 10;
        } while (value != 0);
        reverse(start, length - 1);
        return this;
    }

    /** {@code value} zero-padded to {@code width} digits (times, fractions). */
    LineBuffer padded(long value, int width) {
        ensure(width);
        for (int i = width - 1; i >= 0; i--) {
            bytes[length + i] = (byte) ('0' + value % 10);
            value /= 10;
        }
        length += width;
        return this;
    }

    /** {@code thousandths} as a decimal with three fraction digits: 1234 becomes {@code 1.234}. */
    LineBuffer thousandths(long thousandths) {
        if (thousandths < 0) {
            thousandths = 0;
        }
        number(thousandths / 1000);
        put('.');
        return padded(thousandths % 1000, 3);
    }

    /** Two lower-case hex digits (escapes). */
    void hex2(int value) {
        bytes[length++] = DIGITS[(value >> 4) & 0xf];
        bytes[length++] = DIGITS[value & 0xf];
    }

    /** Two upper-case hex digits (nginx's {@code \xHH} escapes). */
    void hex2Upper(int value) {
        bytes[length++] = UPPER_DIGITS[(value >> 4) & 0xf];
        bytes[length++] = UPPER_DIGITS[value & 0xf];
    }

    /** Copies {@code n} bytes of {@code src} (pre-rendered timestamps). */
    LineBuffer raw(byte[] src, int n) {
        ensure(n);
        System.arraycopy(src, 0, bytes, length, n);
        length += n;
        return this;
    }

    private void reverse(int from, int to) {
        while (from < to) {
            byte t = bytes[from];
            bytes[from++] = bytes[to];
            bytes[to--] = t;
        }
    }
}
