package dev.portico.telemetry.analytics.offloop;

/**
 * Makes request text storable in PostgreSQL: {@code text} and {@code jsonb} cannot hold NUL (a jsonb string refuses
 * even the escape {@code \u0000}), and a UTF-16 surrogate without its pair is not a character at all, so it cannot
 * be encoded as the UTF-8 the database takes. Both become U+FFFD, the replacement character, as a decoder shows
 * bytes it cannot read; every other character, control characters included, is kept (JSON escapes those).
 */
final class StorableText {

    static final char REPLACEMENT = '\uFFFD';

    private StorableText() {
    }

    /** {@code value} itself when it is storable as it is (the usual case: no copy), else a repaired copy. */
    static String of(String value) {
        int bad = firstUnstorable(value);
        if (bad < 0) {
            return value;
        }
        char[] chars = value.toCharArray();
        for (int i = bad; i < chars.length; i++) {
            char c = chars[i];
            if (c == 0) {
                chars[i] = REPLACEMENT;
            } else if (Character.isHighSurrogate(c)) {
                if (i + 1 < chars.length && Character.isLowSurrogate(chars[i + 1])) {
                    i++;
                } else {
                    chars[i] = REPLACEMENT;
                }
            } else if (Character.isLowSurrogate(c)) {
                chars[i] = REPLACEMENT;
            }
        }
        return new String(chars);
    }

    private static int firstUnstorable(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == 0) {
                return i;
            }
            if (Character.isSurrogate(c)) {
                if (Character.isHighSurrogate(c) && i + 1 < value.length()
                        && Character.isLowSurrogate(value.charAt(i + 1))) {
                    i++;
                } else {
                    return i;
                }
            }
        }
        return -1;
    }
}
