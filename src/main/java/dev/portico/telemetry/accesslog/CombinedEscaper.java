package dev.portico.telemetry.accesslog;

/**
 * Writes values for the {@code combined} format as nginx does by default: {@code "}, {@code \}, control bytes and
 * every byte of 0x7f and above become {@code \xHH}, so the line stays printable ASCII and a value cannot end its
 * quotes. Wire values are bytes already (one char per byte); a char above U+00FF (only in values Portico made
 * itself) is written as the {@code \xHH} escapes of its UTF-8 bytes, an unpaired surrogate as those of U+FFFD.
 * Caps and the {@code ...} mark work as in {@link JsonEscaper}.
 */
final class CombinedEscaper {

    private CombinedEscaper() {
    }

    /** Appends wire value {@code s[0, end)}, at most {@code max} chars of it. */
    static void append(LineBuffer out, String s, int end, int max) {
        append(out, s, end, max, 0xff);
    }

    /**
     * Appends Java text {@code s[0, end)} (the request target: the decoder reads it as UTF-8), at most {@code max}
     * chars of it: every char above 0x7F is written as the escapes of its UTF-8 bytes, the bytes the client sent.
     */
    static void appendText(LineBuffer out, String s, int end, int max) {
        append(out, s, end, max, 0x7f);
    }

    /** {@code lastByteChar}: the highest char that stands for one byte (0xFF for wire values, 0x7F for text). */
    private static void append(LineBuffer out, String s, int end, int max, int lastByteChar) {
        int limit = Math.min(end, max);
        // Worst case: a BMP char above U+07FF is three escaped bytes, twelve bytes for one unit.
        out.ensure(limit * 12 + JsonEscaper.TRUNCATED.length());
        int i = 0;
        while (i < end) {
            int run = JsonEscaper.plainRun(s, i, limit);
            if (run > i) {
                out.latin1(s, i, run);
                i = run;
                continue;
            }
            char c = s.charAt(i);
            int units = 1;
            if (c <= lastByteChar) {
                if (i + 1 > limit) {
                    break;
                }
                if (c == '"' || c == '\\' || c < 0x20 || c >= 0x7f) {
                    escape(out, c);
                } else {
                    out.put(c);
                }
            } else {
                boolean pair = Character.isHighSurrogate(c) && i + 1 < end
                        && Character.isLowSurrogate(s.charAt(i + 1));
                units = pair ? 2 : 1;
                if (i + units > limit) {
                    break;
                }
                int cp = pair ? Character.toCodePoint(c, s.charAt(i + 1))
                        : Character.isSurrogate(c) ? 0xfffd : c;
                escapeUtf8(out, cp);
            }
            i += units;
        }
        if (i < end) {
            out.ascii(JsonEscaper.TRUNCATED);
        }
    }

    private static void escapeUtf8(LineBuffer out, int cp) {
        if (cp < 0x800) {
            escape(out, 0xc0 | cp >> 6);
            escape(out, 0x80 | cp & 0x3f);
        } else if (cp < 0x10000) {
            escape(out, 0xe0 | cp >> 12);
            escape(out, 0x80 | cp >> 6 & 0x3f);
            escape(out, 0x80 | cp & 0x3f);
        } else {
            escape(out, 0xf0 | cp >> 18);
            escape(out, 0x80 | cp >> 12 & 0x3f);
            escape(out, 0x80 | cp >> 6 & 0x3f);
            escape(out, 0x80 | cp & 0x3f);
        }
    }

    private static void escape(LineBuffer out, int b) {
        out.put('\\');
        out.put('x');
        out.hex2Upper(b);
    }
}
