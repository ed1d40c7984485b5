package dev.portico.proxy.files;

import dev.portico.testing.Api;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * A real document root in a temporary directory, with a secret next to it that nothing may ever serve:
 * <pre>
 *   tmp/site/            the root: index.html, hello.txt, typed files, docs/, empty/, assets/, precomp/, dotfiles,
 *                        links inside and out
 *   tmp/secret/secret.txt, tmp/site-evil/x.txt   outside the root (the second shares its name prefix)
 * </pre>
 */
final class Site implements AutoCloseable {

    static final String SECRET = "TOP-SECRET-DO-NOT-SERVE";
    /** Every file's modification time, so Last-Modified and the ETag are predictable. */
    static final Instant MTIME = Instant.parse("2024-05-01T12:00:00Z");
    static final String LAST_MODIFIED = "Wed, 01 May 2024 12:00:00 GMT";
    /** A file larger than what the probe holds in memory: sent with sendfile or streamed. */
    static final int BIG = 200 * 1024;
    /** A text file larger than what the probe holds: compressed while it streams. */
    static final int LARGE_TEXT = 100 * 1024;

    final Path dir;
    final Path root;

    private Site(Path dir) {
        this.dir = dir;
        this.root = dir.resolve("site");
    }

    static Site create() {
        try {
            Site site = new Site(Files.createTempDirectory("portico-static"));
            site.populate();
            return site;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void populate() throws IOException {
        write("index.html", "<h1>home</h1>");
        write("hello.txt", "hello world\n");
        write("style.css", "body{}");
        write("app.js", "console.log(1)");
        write("data.json", "{}");
        write("logo.svg", "<svg/>");
        write("image.png", "PNG");
        write("font.woff2", "WOF2");
        write("noext", "plain");
        write("docs/index.html", "<h1>docs</h1>");
        write("docs/guide.html", "<h1>guide</h1>");
        write("assets/app.css", "a{}");
        write("about.html", "<h1>about</h1>");
        Files.createDirectories(root.resolve("empty"));
        write("listed/a.txt", "a");
        write("listed/<b>&\"quote\".txt", "b");
        write("listed/sub/c.txt", "c");
        write("listed/.hidden", "h");
        write(".env", SECRET);
        write(".git/config", SECRET);
        write(".well-known/security.txt", "Contact: mailto:security@example.com");
        write("precomp/app.js", "identity-js");
        write("precomp/app.js.br", "brotli-js");
        write("precomp/app.js.zst", "zstd-js");
        write("precomp/app.js.gz", "gzip-js");
        write("precomp/only-gz.css", "identity-css");
        write("precomp/only-gz.css.gz", "gzip-css");
        write("precomp/plain.txt", "no siblings");
        write("precomp/escape.txt", "inside");
        write("empty.txt", "");
        write("compress/page.html", text(8 * 1024));
        write("compress/large.txt", text(LARGE_TEXT));
        write("compress/sibling.css", text(4 * 1024));
        write("compress/sibling.css.gz", "gzip-sibling");
        byte[] big = new byte[BIG];
        for (int i = 0; i < big.length; i++) {
            big[i] = (byte) ('a' + i % 26);
        }
        Files.createDirectories(root);
        Files.write(root.resolve("big.bin"), big);
        Files.createDirectories(dir.resolve("secret"));
        Files.createDirectories(dir.resolve("site-evil"));
        Files.writeString(dir.resolve("secret/secret.txt"), SECRET, StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("site-evil/x.txt"), SECRET, StandardCharsets.UTF_8);
        Files.createSymbolicLink(root.resolve("link-inside.txt"), root.resolve("hello.txt"));
        Files.createSymbolicLink(root.resolve("docs-link"), root.resolve("docs"));
        Files.createSymbolicLink(root.resolve("etc"), Path.of("/etc"));
        Files.createSymbolicLink(root.resolve("passwd"), Path.of("/etc/passwd"));
        Files.createSymbolicLink(root.resolve("secret.txt"), Path.of("../secret/secret.txt"));
        Files.createSymbolicLink(root.resolve("evil.txt"), dir.resolve("site-evil/x.txt"));
        Files.createSymbolicLink(root.resolve("env-link.txt"), root.resolve(".env"));
        Files.createSymbolicLink(root.resolve("precomp/escape.txt.gz"), dir.resolve("secret/secret.txt"));
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.toList()) {
                if (!Files.isSymbolicLink(p)) {
                    Files.setLastModifiedTime(p, FileTime.from(MTIME));
                }
            }
        }
    }

    /** Compressible text of {@code size} ASCII bytes, the same every time. */
    static String text(int size) {
        StringBuilder out = new StringBuilder(size + 40);
        for (int line = 0; out.length() < size; line++) {
            out.append("<p class=\"row\">line ").append(line).append(" of a page</p>\n");
        }
        return out.substring(0, size);
    }

    private void write(String relative, String content) throws IOException {
        Path file = root.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, content, StandardCharsets.UTF_8);
    }

    /** The strong ETag Portico computes for a file of this content length written at {@link #MTIME}. */
    static String etag(long size) {
        return "\"" + Long.toHexString(MTIME.toEpochMilli()) + "-" + Long.toHexString(size) + "\"";
    }

    /** A static-only vhost serving this site. */
    JsonObject vhost(String name, String host) {
        return new JsonObject().put("name", name).put("hostnames", new JsonArray().add(host))
                .put("static", new JsonObject().put("root", root.toString()));
    }

    /** Creates {@code vhost} and returns its id. */
    static String create(JsonObject vhost) {
        return Api.create(vhost);
    }

    @Override
    public void close() {
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
