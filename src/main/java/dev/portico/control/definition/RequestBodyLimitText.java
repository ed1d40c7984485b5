package dev.portico.control.definition;

/**
 * A vhost's {@code maxRequestBody} as clients write it: a size ({@code 1048576}, {@code 512KiB}, {@code 64MiB},
 * {@code 1GiB}), or {@code unlimited} (also written {@code 0}, as in nginx's {@code client_max_body_size 0}).
 * Null means the global default, {@code portico.dataplane.max-request-body}.
 */
final class RequestBodyLimitText {

    static final String UNLIMITED = "unlimited";
    /** Above this, say unlimited. */
    static final long MAX = 1L << 40;

    private RequestBodyLimitText() {
    }

    /**
     * The normal form: the shortest size text, or {@code unlimited}; null stays null.
     *
     * @throws IllegalArgumentException with a reason fit for an API error
     */
    static String normalise(String text) {
        if (text == null) {
            return null;
        }
        if (text.trim().equalsIgnoreCase(UNLIMITED)) {
            return UNLIMITED;
        }
        long bytes;
        try {
            bytes = ByteSizeText.parse(text, 0, MAX);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage() + ", or unlimited");
        }
        return bytes == 0 ? UNLIMITED : ByteSizeText.format(bytes);
    }

    /** Bytes of a normalised value: 0 for unlimited, null for the global default. */
    static Long toBytes(String normalised) {
        if (normalised == null) {
            return null;
        }
        return normalised.equals(UNLIMITED) ? 0L : ByteSizeText.parse(normalised, 0, MAX);
    }
}
