package dev.portico.telemetry.accesslog;

/** UTF-8 checks on wire values (one char per byte) and encoding of code points, for the escapers. */
final class Utf8 {

    private Utf8() {
    }

    /**
     * The length of the well-formed UTF-8 sequence (RFC 3629: no overlong forms, no surrogates, nothing above
     * U+10FFFF) that starts at {@code s[i]}, or 0 when there is none.
     */
    static int sequenceLength(String s, int i, int end) {
        int lead = s.charAt(i);
        int n;
        int low = 0x80;
        int high = 0xbf;
        if (lead >= 0xc2 && lead <= 0xdf) {
            n = 2;
        } else if (lead >= 0xe0 && lead <= 0xef) {
            n = 3;
            if (lead == 0xe0) {
                low = 0xa0;
            } else if (lead == 0xed) {
                high = 0x9f;
            }
        } else if (lead >= 0xf0 && lead <= 0xf4) {
            n = 4;
            if (lead == 0xf0) {
                low = 0x90;
            } else if (lead == 0xf4) {
                high = 0x8f;
            }
        } else {
            return 0;
        }
        if (i + n > end) {
            return 0;
        }
        int second = s.charAt(i + 1);
        if (second < low || second > high) {
            return 0;
        }
        for (int k = 2; k < n; k++) {
            int next = s.charAt(i + k);
            if (next < 0x80 || next > 0xbf) {
                return 0;
            }
        }
        return n;
    }

    /** The code point of a sequence {@link #sequenceLength} accepted. */
    static int decode(String s, int i, int n) {
        int lead = s.charAt(i);
        int cp = n == 2 ? lead & 0x1f : n == 3 ? lead & 0x0f : lead & 0x07;
        for (int k = 1; k < n; k++) {
            cp = cp << 6 | s.charAt(i + k) & 0x3f;
        }
        return cp;
    }

    /** Appends the UTF-8 bytes of a code point that is not a surrogate; the caller has made room (4 bytes). */
    static void encode(LineBuffer out, int cp) {
        if (cp < 0x80) {
            out.put(cp);
        } else if (cp < 0x800) {
            out.put(0xc0 | cp >> 6);
            out.put(0x80 | cp & 0x3f);
        } else if (cp < 0x10000) {
            out.put(0xe0 | cp >> 12);
            out.put(0x80 | cp >> 6 & 0x3f);
            out.put(0x80 | cp & 0x3f);
        } else {
            out.put(0xf0 | cp >> 18);
            out.put(0x80 | cp >> 12 & 0x3f);
            out.put(0x80 | cp >> 6 & 0x3f);
            out.put(0x80 | cp & 0x3f);
        }
    }
}
