package dev.portico.control.definition;

/** Sizes as an API client writes them: {@code 65536}, {@code 512KiB}, {@code 64MiB}, {@code 1GiB}. */
final class ByteSizeText {

    private static final String FORM = "must be a whole number of bytes, optionally followed by KiB, MiB or GiB, "
            + "e.g. 64MiB";

    private ByteSizeText() {
    }

    /** @throws IllegalArgumentException with a reason fit for an API error */
    static long parse(String text, long min, long max) {
        String t = text.trim();
        int unitAt = 0;
        while (unitAt < t.length() && Character.isDigit(t.charAt(unitAt))) {
            unitAt++;
        }
        if (unitAt == 0 || unitAt > 12) {
            throw new IllegalArgumentException(FORM);
        }
        long amount = Long.parseLong(t.substring(0, unitAt));
        int shift = switch (t.substring(unitAt).trim()) {
            case "", "B" -> 0;
            case "KiB" -> 10;
            case "MiB" -> 20;
            case "GiB" -> 30;
            default -> throw new IllegalArgumentException(FORM);
        };
        if (amount > (max >> shift)) {
            throw new IllegalArgumentException("must be at most " + format(max));
        }
        long bytes = amount << shift;
        if (bytes < min) {
            throw new IllegalArgumentException("must be at least " + format(min));
        }
        return bytes;
    }

    /** The shortest exact text: 1048576 becomes {@code 1MiB}. */
    static String format(long bytes) {
        if (bytes != 0 && bytes % (1L << 30) == 0) {
            return (bytes >> 30) + "GiB";
        }
        if (bytes != 0 && bytes % (1L << 20) == 0) {
            return (bytes >> 20) + "MiB";
        }
        if (bytes != 0 && bytes % (1L << 10) == 0) {
            return (bytes >> 10) + "KiB";
        }
        return Long.toString(bytes);
    }
}
