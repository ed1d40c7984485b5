package dev.portico.proxy.server.http1;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The byte classes of RFC 9110 section 5.6 and RFC 9112, as lookup tables: one array load per byte, so the checks
 * run in the tight loops the JIT compiles best.
 */
final class FieldSyntax {

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGH_BITS = 0x8080808080808080L;

    /** {@code tchar}: the characters of a token (methods, field names, codings, extension names). */
    private static final boolean[] TCHAR = new boolean[256];
    /** {@code field-vchar / SP / HTAB}: what a field value may hold (obs-text included, every control but HTAB not). */
    private static final boolean[] FIELD_VALUE = new boolean[256];
    /** A request-target byte: visible ASCII, or part of a UTF-8 sequence (checked separately). */
    private static final boolean[] TARGET = new boolean[256];
    /** {@code qdtext} of a quoted string. */
    private static final boolean[] QDTEXT = new boolean[256];

    static {
        for (int c = '0'; c <= '9'; c++) {
            TCHAR[c] = true;
        }
        for (int c = 'a'; c <= 'z'; c++) {
            TCHAR[c] = true;
            TCHAR[c - 32] = true;
        }
        for (char c : "!#$%&'*+-.^_`|~".toCharArray()) {
            TCHAR[c] = true;
        }
        FIELD_VALUE['\t'] = true;
        for (int c = 0x20; c <= 0xFF; c++) {
            FIELD_VALUE[c] = c != 0x7F;
            TARGET[c] = c != 0x20 && c != 0x7F;
            QDTEXT[c] = c != 0x7F && c != '"' && c != '\\';
        }
        QDTEXT['\t'] = true;
    }

    private FieldSyntax() {
    }

    static boolean isTchar(byte b) {
        return TCHAR[b & 0xFF];
    }

    static boolean isFieldValue(byte b) {
        return FIELD_VALUE[b & 0xFF];
    }

    static boolean isQdtext(byte b) {
        return QDTEXT[b & 0xFF];
    }

    static boolean isOws(byte b) {
        return b == ' ' || b == '\t';
    }

    /** The first index at or after {@code from} that is not a tchar ({@code to} when all are). */
    static int skipToken(byte[] a, int from, int to) {
        int i = from;
        while (i < to && TCHAR[a[i] & 0xFF]) {
            i++;
        }
        return i;
    }

    /**
     * The first index at or after {@code from} that cannot be part of a field value (a CR where the line ends).
     * Eight bytes at a time while none is a control byte or DEL, which is nearly all of a head.
     */
    static int skipFieldValue(byte[] a, int from, int to) {
        int i = from;
        while (i + 8 <= to && !hasControlOrDel((long) LONGS.get(a, i))) {
            i += 8;
        }
        while (i < to && FIELD_VALUE[a[i] & 0xFF]) {
            i++;
        }
        return i;
    }

    /**
     * The first index at or after {@code from} that cannot be part of a request target (a SP where it ends), eight
     * bytes at a time while none is a control byte, SP or DEL.
     */
    static int skipTarget(byte[] a, int from, int to) {
        int i = from;
        while (i + 8 <= to && !hasControlSpaceOrDel((long) LONGS.get(a, i))) {
            i += 8;
        }
        while (i < to && TARGET[a[i] & 0xFF]) {
            i++;
        }
        return i;
    }

    /** Whether any of {@code a[from, to)} is above 0x7F. */
    static boolean hasNonAscii(byte[] a, int from, int to) {
        int i = from;
        for (; i + 8 <= to; i += 8) {
            if (((long) LONGS.get(a, i) & HIGH_BITS) != 0) {
                return true;
            }
        }
        for (; i < to; i++) {
            if (a[i] < 0) {
                return true;
            }
        }
        return false;
    }

    /*
     * The classic "has a byte less than n" test (Hacker's Delight, 6-1): (x - n*ONES) & ~x & HIGH_BITS is non-zero
     * exactly when some byte below 0x80 is less than n; bytes of 0x80 and above (obs-text) never set it.
     */
    private static boolean hasControlOrDel(long x) {
        return ((x - 0x2020202020202020L) & ~x & HIGH_BITS) != 0 || hasByte(x, 0x7F7F7F7F7F7F7F7FL);
    }

    private static boolean hasControlSpaceOrDel(long x) {
        return ((x - 0x2121212121212121L) & ~x & HIGH_BITS) != 0 || hasByte(x, 0x7F7F7F7F7F7F7F7FL);
    }

    /** Whether a byte of {@code x} equals the byte repeated in {@code pattern} (a zero byte of their XOR). */
    private static boolean hasByte(long x, long pattern) {
        long y = x ^ pattern;
        return ((y - ONES) & ~y & HIGH_BITS) != 0;
    }

    /** The first index at or after {@code from} that is not SP or HTAB. */
    static int skipOws(byte[] a, int from, int to) {
        int i = from;
        while (i < to && (a[i] == ' ' || a[i] == '\t')) {
            i++;
        }
        return i;
    }

    /** The end of {@code a[from, to)} with trailing SP and HTAB removed. */
    static int trimOws(byte[] a, int from, int to) {
        int i = to;
        while (i > from && (a[i - 1] == ' ' || a[i - 1] == '\t')) {
            i--;
        }
        return i;
    }

    /** Whether {@code a[from, to)} equals {@code lowerCase}, ASCII letters compared case-insensitively. */
    static boolean equalsIgnoreCase(byte[] a, int from, int to, String lowerCase) {
        if (to - from != lowerCase.length()) {
            return false;
        }
        for (int i = from; i < to; i++) {
            int c = a[i];
            if (c >= 'A' && c <= 'Z') {
                c += 32;
            }
            if (c != lowerCase.charAt(i - from)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether {@code a[from, to)} is well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing above
     * U+10FFFF).
     */
    static boolean isUtf8(byte[] a, int from, int to) {
        int i = from;
        while (i < to) {
            int b = a[i] & 0xFF;
            if (b < 0x80) {
                i++;
                continue;
            }
            int length;
            int min;
            int max = 0xBF;
            if (b >= 0xC2 && b <= 0xDF) {
                length = 2;
                min = 0x80;
            } else if (b >= 0xE0 && b <= 0xEF) {
                length = 3;
                min = b == 0xE0 ? 0xA0 : 0x80;
                max = b == 0xED ? 0x9F : 0xBF;
            } else if (b >= 0xF0 && b <= 0xF4) {
                length = 4;
                min = b == 0xF0 ? 0x90 : 0x80;
                max = b == 0xF4 ? 0x8F : 0xBF;
            } else {
                return false;
            }
            if (i + length > to) {
                return false;
            }
            int second = a[i + 1] & 0xFF;
            if (second < min || second > max) {
                return false;
            }
            for (int k = 2; k < length; k++) {
                int next = a[i + k] & 0xFF;
                if (next < 0x80 || next > 0xBF) {
                    return false;
                }
            }
            i += length;
        }
        return true;
    }
}
