package dev.portico.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * The {@code Content-Type} of a file from its extension (case-insensitive): Portico's own table,
 * {@code media-types.properties} beside this class (the Apache httpd table, with the current registrations for the
 * web formats it lacks or names by their old {@code x-} types). Text types get {@code ; charset=utf-8}, as Caddy
 * does; anything unknown is {@code application/octet-stream}, nginx's {@code default_type}. Pure once loaded.
 */
public final class MediaTypes {

    public static final String DEFAULT = "application/octet-stream";

    private static final String TABLE = "media-types.properties";

    // Read once when the class loads (the first static file served or probed), from the application's own jar.
    private static final Map<String, String> BY_EXTENSION = load();

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
        String type = BY_EXTENSION.get(fileName.substring(dot + 1).toLowerCase(Locale.ROOT));
        if (type == null) {
            return DEFAULT;
        }
        return type.startsWith("text/") ? type + "; charset=utf-8" : type;
    }

    private static Map<String, String> load() {
        Properties table = new Properties();
        try (InputStream in = MediaTypes.class.getResourceAsStream(TABLE)) {
            if (in == null) {
                throw new IllegalStateException(TABLE + " is missing from the application");
            }
            table.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + TABLE, e);
        }
        Map<String, String> byExtension = new HashMap<>(table.size() * 2);
        table.forEach((extension, type) -> byExtension.put((String) extension, (String) type));
        return Map.copyOf(byExtension);
    }
}
