package dev.portico.http;

import io.vertx.core.http.impl.MimeMapping;

import java.util.Locale;
import java.util.Map;

/**
 * The {@code Content-Type} of a file from its extension (case-insensitive): Vert.x's table, with the current
 * registrations for the web formats it lacks or names by their old {@code x-} types. Text types get
 * {@code ; charset=utf-8}, as Caddy does; anything unknown is {@code application/octet-stream}, nginx's
 * {@code default_type}. Pure.
 */
public final class MediaTypes {

    public static final String DEFAULT = "application/octet-stream";

    private static final Map<String, String> OVERRIDES = Map.ofEntries(
            Map.entry("avif", "image/avif"),
            Map.entry("webmanifest", "application/manifest+json"),
            Map.entry("map", "application/json"),
            Map.entry("md", "text/markdown"),
            Map.entry("woff", "font/woff"),
            Map.entry("ttf", "font/ttf"),
            Map.entry("otf", "font/otf"),
            Map.entry("gz", "application/gzip"),
            Map.entry("zst", "application/zstd"),
            Map.entry("mjs", "text/javascript"),
            Map.entry("js", "text/javascript"),
            Map.entry("wasm", "application/wasm"));

    private MediaTypes() {
    }

    /** The media type for a file name (the last path segment or the whole path). */
    public static String of(String fileName) {
        int slash = fileName.lastIndexOf('/');
        int dot = fileName.lastIndexOf('.');
        if (dot <= slash + 1 || dot == fileName.length() - 1) {
            // No extension, or a dotfile such as ".htaccess" whose only dot starts the name.
            return DEFAULT;
        }
        String extension = fileName.substring(dot + 1).toLowerCase(Locale.ROOT);
        String type = OVERRIDES.get(extension);
        if (type == null) {
            type = MimeMapping.getMimeTypeForExtension(extension);
        }
        if (type == null) {
            return DEFAULT;
        }
        return type.startsWith("text/") ? type + "; charset=utf-8" : type;
    }
}
