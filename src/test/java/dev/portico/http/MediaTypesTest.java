package dev.portico.http;

import io.vertx.core.http.impl.MimeMapping;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Content-Type by extension, with charset on text types. */
class MediaTypesTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "/index.html          | text/html; charset=utf-8",
            "/INDEX.HTM           | text/html; charset=utf-8",
            "/style.css           | text/css; charset=utf-8",
            "/app.js              | text/javascript; charset=utf-8",
            "/module.mjs          | text/javascript; charset=utf-8",
            "/data.json           | application/json",
            "/feed.xml            | application/xml",
            "/readme.txt          | text/plain; charset=utf-8",
            "/notes.md            | text/markdown; charset=utf-8",
            "/table.csv           | text/csv; charset=utf-8",
            "/logo.svg            | image/svg+xml",
            "/photo.png           | image/png",
            "/photo.JPG           | image/jpeg",
            "/anim.gif            | image/gif",
            "/photo.webp          | image/webp",
            "/photo.avif          | image/avif",
            "/favicon.ico         | image/x-icon",
            "/font.woff2          | font/woff2",
            "/font.woff           | font/woff",
            "/font.ttf            | font/ttf",
            "/app.wasm            | application/wasm",
            "/site.webmanifest    | application/manifest+json",
            "/app.js.map          | application/json",
            "/doc.pdf             | application/pdf",
            "/clip.mp4            | video/mp4",
            "/archive.tar.gz      | application/gzip",
            "/archive.zst         | application/zstd",
            "/noextension         | application/octet-stream",
            "/.htaccess           | application/octet-stream",
            "/dir.d/noext         | application/octet-stream",
            "/trailingdot.        | application/octet-stream",
            "/unknown.qqq         | application/octet-stream",
    })
    void byExtension(String path, String expected) {
        assertEquals(expected, MediaTypes.of(path));
    }

    /** The web formats whose old or missing registration Portico's table replaces. */
    private static final Set<String> MODERNISED = Set.of("avif", "webmanifest", "map", "md", "woff", "ttf", "otf",
            "gz", "zst", "mjs", "js", "wasm");

    /**
     * Portico's own table replaced Vert.x's internal one (issue 12): every extension Vert.x knew still gets the
     * same type, unless the table deliberately modernises it.
     */
    @Test
    void everyExtensionVertxKnewKeepsItsType() throws ReflectiveOperationException {
        List<String> changed = new ArrayList<>();
        vertxTable().forEach((extension, vertx) -> {
            String expected = vertx.startsWith("text/") ? vertx + "; charset=utf-8" : vertx;
            String ours = MediaTypes.of("/file." + extension);
            if (MODERNISED.contains(extension) ? ours.equals(MediaTypes.DEFAULT) : !ours.equals(expected)) {
                changed.add(extension + ": " + vertx + " -> " + ours);
            }
        });
        assertEquals(List.of(), changed);
    }

    /** Vert.x's internal table (it has no public accessor for the whole list; a test may look). */
    @SuppressWarnings("unchecked")
    private static Map<String, String> vertxTable() throws ReflectiveOperationException {
        Field mapping = MimeMapping.class.getDeclaredField("MAPPING");
        mapping.setAccessible(true);
        return (Map<String, String>) mapping.get(null);
    }
}
