package dev.portico.telemetry.accesslog;

/**
 * Writes string contents for a JSON line (RFC 8259 section 7) into a {@link LineBuffer}, capped and always valid
 * UTF-8. Quotes, backslashes, C0 and C1 controls and DEL are escaped ({@code \"}, {@code \\},
 * <code>&#92;u00XX</code>), so a hostile value can neither end its string nor put terminal escapes into the file.
 *
 * <p>Two kinds of input. <em>Wire</em> values come from the HTTP decoder as ISO-8859-1, one char per byte: byte
 * sequences that are well-formed UTF-8 are kept as UTF-8 (a non-ASCII {@code User-Agent} reads as sent), every other
 * byte of 0x80 and above becomes U+FFFD. <em>Text</em> values are Java strings (the request target among them: the
 * decoder reads it as UTF-8): encoded as UTF-8, with unpaired surrogates replaced by U+FFFD. A value longer than its cap is cut before the cap, never inside a UTF-8 sequence or
 * a surrogate pair, and marked with a trailing {@code ...}.
 */
final class JsonEscaper {

    private static final String REPLACEMENT = "\\ufffd";
    static final String TRUNCATED = "...";

    private JsonEscaper() {
    }

    /** Appends {@code s[0, end)} as wire bytes, at most {@code max} of them; no quotes. */
    static void wire(LineBuffer out, String s, int end, int max) {
        append(out, s, end, max, true);
    }

    /** Appends {@code s} as Java text, at most {@code max} chars of it; no quotes. */
    static void text(LineBuffer out, String s, int max) {
        append(out, s, s.length(), max, false);
    }

    /** Appends {@code s[0, end)} as Java text, at most {@code max} chars of it; no quotes. */
    static void text(LineBuffer out, String s, int end, int max) {
        append(out, s, end, max, false);
    }

    private static void append(LineBuffer out, String s, int end, int max, boolean wire) {
        int limit = Math.min(end, max);
        // Worst case six bytes per unit (an escape), plus the truncation mark.
        out.ensure(limit * 6 + TRUNCATED.length());
        int i = 0;
        while (i < end) {
            int run = plainRun(s, i, limit);
            if (run > i) {
                out.latin1(s, i, run);
                i = run;
                continue;
            }
            char c = s.charAt(i);
            int units;
            if (c < 0x80) {
                units = 1;
                if (i + units > limit) {
                    break;
                }
                ascii(out, c);
            } else if (wire && c <= 0xff) {
                units = Utf8.sequenceLength(s, i, end);
                if (units == 0) {
                    units = 1;
                    if (i + units > limit) {
                        break;
                    }
                    out.ascii(REPLACEMENT);
                } else {
                    if (i + units > limit) {
                        break;
                    }
                    int codePoint = Utf8.decode(s, i, units);
                    if (codePoint < 0xa0) {
                        escape(out, codePoint);
                    } else {
                        for (int k = 0; k < units; k++) {
                            out.put(s.charAt(i + k));
                        }
                    }
                }
            } else {
                boolean pair = Character.isHighSurrogate(c) && i + 1 < end
                        && Character.isLowSurrogate(s.charAt(i + 1));
                units = pair ? 2 : 1;
                if (i + units > limit) {
                    break;
                }
                if (pair) {
                    Utf8.encode(out, Character.toCodePoint(c, s.charAt(i + 1)));
                } else if (Character.isSurrogate(c)) {
                    out.ascii(REPLACEMENT);
                } else if (c < 0xa0) {
                    escape(out, c);
                } else {
                    Utf8.encode(out, c);
                }
            }
            i += units;
        }
        if (i < end) {
            out.ascii(TRUNCATED);
        }
    }

    /**
     * The end of the run of printable ASCII other than {@code "} and {@code \} that starts at {@code from}: what
     * both formats copy as it is, in bulk. Most values are nothing else.
     */
    static int plainRun(String s, int from, int to) {
        int i = from;
        while (i < to) {
            char c = s.charAt(i);
            if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\') {
                break;
            }
            i++;
        }
        return i;
    }

    private static void ascii(LineBuffer out, char c) {
        if (c == '"' || c == '\\') {
            out.put('\\');
            out.put(c);
        } else if (c < 0x20 || c == 0x7f) {
            escape(out, c);
        } else {
            out.put(c);
        }
    }

    private static void escape(LineBuffer out, int c) {
        out.put('\\');
        out.put('u');
        out.put('0');
        out.put('0');
        out.hex2(c);
    }
}
