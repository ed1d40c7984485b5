package dev.portico.vhost;

import java.util.List;

/**
 * A vhost's response compression: which codings it offers, for which responses, and how hard each codec works.
 *
 * @param enabled whether responses are compressed for clients that accept a coding
 * @param encodings the codings offered, most preferred first ({@code br}, {@code zstd}, {@code gzip}); a client's
 *                  q-values decide first, this order breaks ties
 * @param types media types compressed: {@code type/subtype}, {@code type/*} or {@code type/*+suffix}
 *              ({@code text/event-stream} never is: events must reach the client as they are sent)
 * @param minLength bodies shorter than this (by their {@code Content-Length}) are sent as they are; a body of
 *                  unknown length is compressed
 * @param gzipLevel 1-9
 * @param brotliLevel 0-11
 * @param zstdLevel 1-19
 */
public record CompressionSpec(boolean enabled, List<String> encodings, List<String> types, long minLength,
                              int gzipLevel, int brotliLevel, int zstdLevel) {

    public static final List<String> DEFAULT_ENCODINGS = List.of("br", "zstd", "gzip");
    public static final List<String> DEFAULT_TYPES = List.of("text/*", "application/json", "application/*+json",
            "application/javascript", "application/x-javascript", "application/xml", "application/*+xml",
            "application/wasm", "image/svg+xml", "image/x-icon", "image/vnd.microsoft.icon", "font/ttf", "font/otf",
            "application/vnd.ms-fontobject");
    public static final long DEFAULT_MIN_LENGTH = 1024;
    public static final int DEFAULT_GZIP_LEVEL = 5;
    public static final int DEFAULT_BROTLI_LEVEL = 4;
    public static final int DEFAULT_ZSTD_LEVEL = 3;

    /** Off: what a vhost gets when it says nothing (as nginx's {@code gzip off} and Caddy without {@code encode}). */
    public static final CompressionSpec DISABLED = new CompressionSpec(false, DEFAULT_ENCODINGS, DEFAULT_TYPES,
            DEFAULT_MIN_LENGTH, DEFAULT_GZIP_LEVEL, DEFAULT_BROTLI_LEVEL, DEFAULT_ZSTD_LEVEL);

    public CompressionSpec {
        encodings = List.copyOf(encodings);
        types = List.copyOf(types);
    }
}
