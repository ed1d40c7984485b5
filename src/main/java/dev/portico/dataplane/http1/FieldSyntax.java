package dev.portico.dataplane.http1;

/**
 * The byte classes of RFC 9110 section 5.6 and RFC 9112, as lookup tables: one array load per byte, so the checks
 * run in the tight loops the JIT compiles best.
 */
final class FieldSyntax {

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

    static boolean isTarget(byte b) {
        return TARGET[b & 0xFF];
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
