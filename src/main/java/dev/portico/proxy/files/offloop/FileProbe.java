package dev.portico.proxy.files.offloop;

import dev.portico.http.MediaTypes;
import dev.portico.http.negotiation.AcceptEncoding;
import dev.portico.vhost.StaticSpec;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.DateFormatter;
import io.vertx.core.buffer.Buffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Resolves a decoded request path against a vhost's root the way nginx's {@code try_files} does, with blocking
 * file-system calls. <strong>Runs only on the file worker pool, never on an event loop</strong>; it is the one
 * class of the data plane allowed to touch {@code java.nio.file.Files} (an ArchUnit rule holds the others to
 * that).
 *
 * <p>Every candidate is taken to its real path (every symbolic link resolved) and used only when that path lies
 * inside the real path of the root and names a regular file (or a directory, for entries ending in {@code /}).
 * A symbolic link inside the root to elsewhere inside it is followed, as nginx and Caddy do by default; one that
 * leads out of the root is treated as absent. Without {@code hidden}, a real path with a dotfile segment is
 * refused too, so a link cannot smuggle out {@code .git}. Any I/O error (no such file, permission denied, a loop of
 * links) makes the candidate absent: a refused path is a 404, never a 500.
 */
public final class FileProbe {

    /** Files up to this size are read into (direct) memory by the probe and kept with its result. */
    static final int MAX_HELD_BYTES = 16 * 1024;
    /** A listing shows at most this many entries. */
    static final int MAX_LISTED = 10_000;
    private static final String URI = "$uri";

    private final Path root;
    private final List<String> index;
    private final List<String> tryFiles;
    private final boolean listing;
    private final boolean hidden;
    private final boolean precompressed;
    private final CacheControlRules cacheControl;

    public FileProbe(StaticSpec spec) {
        this.root = Path.of(spec.root());
        this.index = spec.index();
        this.tryFiles = spec.tryFiles();
        this.listing = spec.listing();
        this.hidden = spec.hidden();
        this.precompressed = spec.precompressed();
        this.cacheControl = CacheControlRules.of(spec.cacheControl());
    }

    /**
     * What {@code path} (as {@link RequestPath#decode} returned it) resolves to. Blocking.
     *
     * @param previous what it resolved to last time, or null: a file found unchanged (same inode, size and
     *                 modification time) is taken over with its held content instead of being read again
     */
    public Lookup lookup(String path, Lookup previous) {
        Map<String, Lookup.Representation> known = new HashMap<>(4);
        if (previous instanceof Lookup.Found found) {
            known.put(found.identity().path(), found.identity());
            for (Lookup.Representation sibling : found.siblings()) {
                if (sibling != null) {
                    known.put(sibling.path(), sibling);
                }
            }
        }
        Path rootReal;
        try {
            rootReal = root.toRealPath();
        } catch (IOException | SecurityException e) {
            return Lookup.Miss.INSTANCE;
        }
        for (String entry : tryFiles) {
            String candidate = RequestPath.normalise(entry.replace(URI, path), hidden);
            if (candidate == null) {
                continue;
            }
            boolean directory = entry.endsWith("/");
            if (!directory) {
                if (!candidate.endsWith("/")) {
                    Lookup found = file(rootReal, candidate, known);
                    if (found != null) {
                        return found;
                    }
                }
                continue;
            }
            Path dir = inside(rootReal, resolve(rootReal, candidate));
            if (dir == null || !Files.isDirectory(dir)) {
                continue;
            }
            // Only "$uri/" names the request's own directory; another directory entry is a fallback target.
            boolean redirect = entry.equals(URI + "/") && !path.endsWith("/");
            for (String name : index) {
                String indexPath = candidate + name;
                if (RequestPath.normalise(indexPath, hidden) == null) {
                    continue;
                }
                Lookup found = file(rootReal, indexPath, known);
                if (found != null) {
                    return redirect ? Lookup.Redirect.INSTANCE : found;
                }
            }
            if (listing) {
                return redirect ? Lookup.Redirect.INSTANCE : new Lookup.Listing(listingOf(rootReal, dir, candidate));
            }
        }
        return Lookup.Miss.INSTANCE;
    }

    /** The regular file at {@code candidate} with its siblings, or null. */
    private Lookup.Found file(Path rootReal, String candidate, Map<String, Lookup.Representation> known) {
        Path path = resolve(rootReal, candidate);
        Lookup.Representation identity = representation(rootReal, path, null, known);
        if (identity == null) {
            return null;
        }
        Lookup.Representation[] siblings = new Lookup.Representation[AcceptEncoding.Coding.values().length];
        if (precompressed) {
            for (AcceptEncoding.Coding coding : AcceptEncoding.Coding.values()) {
                Path sibling = resolve(rootReal, candidate + coding.extension());
                siblings[coding.ordinal()] = sibling == null ? null
                        : representation(rootReal, sibling, coding, known);
            }
        }
        return new Lookup.Found(candidate, MediaTypes.of(candidate), cacheControl.valueFor(candidate), identity,
                siblings);
    }

    private Lookup.Representation representation(Path rootReal, Path path, AcceptEncoding.Coding coding,
                                                 Map<String, Lookup.Representation> known) {
        Path real = inside(rootReal, path);
        if (real == null) {
            return null;
        }
        try {
            BasicFileAttributes attributes = Files.readAttributes(real, BasicFileAttributes.class);
            if (!attributes.isRegularFile()) {
                return null;
            }
            long mtime = attributes.lastModifiedTime().toMillis();
            long size = attributes.size();
            Object fileKey = attributes.fileKey();
            Lookup.Representation before = known.get(real.toString());
            if (before != null && before.coding() == coding && before.unchanged(fileKey, mtime, size)) {
                return before;
            }
            Buffer content = null;
            if (size <= MAX_HELD_BYTES) {
                content = read(real);
                size = content.length();
            }
            String etag = '"' + Long.toHexString(mtime) + '-' + Long.toHexString(size)
                    + (coding == null ? "" : "-" + coding.token()) + '"';
            long seconds = Math.floorDiv(mtime, 1000) * 1000;
            return new Lookup.Representation(real.toString(), fileKey, mtime, size, etag, seconds,
                    DateFormatter.format(new Date(seconds)), content, coding,
                    content == null || coding != null ? null
                            : new AtomicReferenceArray<>(AcceptEncoding.Coding.values().length));
        } catch (IOException | SecurityException e) {
            return null;
        }
    }

    /** The whole of a small file, in direct memory so that every response writes it without a copy. */
    private static Buffer read(Path real) throws IOException {
        try (FileChannel channel = FileChannel.open(real, StandardOpenOption.READ)) {
            int size = (int) Math.min(channel.size(), MAX_HELD_BYTES);
            ByteBuffer bytes = ByteBuffer.allocateDirect(size);
            while (bytes.hasRemaining() && channel.read(bytes) >= 0) {
                // read until full or end of file (a file that shrank meanwhile is taken as it is now)
            }
            bytes.flip();
            ByteBuf buf = Unpooled.wrappedBuffer(bytes);
            return Buffer.buffer(buf);
        }
    }

    /** The real path of {@code path} when it exists inside the root (and passes the dotfile rule), else null. */
    private Path inside(Path rootReal, Path path) {
        if (path == null) {
            return null;
        }
        try {
            Path real = path.toRealPath();
            if (!real.startsWith(rootReal)) {
                return null;
            }
            Path relative = rootReal.relativize(real);
            if (!hidden && !relative.toString().isEmpty()) {
                for (int i = 0; i < relative.getNameCount(); i++) {
                    if (!RequestPath.allowed(relative.getName(i).toString(), i, false)) {
                        return null;
                    }
                }
            }
            return real;
        } catch (IOException | SecurityException e) {
            return null;
        }
    }

    private static Path resolve(Path rootReal, String candidate) {
        try {
            return rootReal.resolve(candidate.substring(1));
        } catch (InvalidPathException e) {
            return null;
        }
    }

    private Buffer listingOf(Path rootReal, Path dir, String urlPath) {
        List<ListingPage.Entry> entries = new ArrayList<>();
        boolean truncated = false;
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
            for (Path child : stream) {
                String name = child.getFileName().toString();
                if (!hidden && name.startsWith(".")) {
                    continue;
                }
                if (entries.size() == MAX_LISTED) {
                    truncated = true;
                    break;
                }
                Path real = inside(rootReal, child);
                if (real == null) {
                    continue;
                }
                try {
                    BasicFileAttributes a = Files.readAttributes(real, BasicFileAttributes.class);
                    if (a.isDirectory() || a.isRegularFile()) {
                        entries.add(new ListingPage.Entry(name, a.isDirectory(), a.size(),
                                a.lastModifiedTime().toMillis()));
                    }
                } catch (IOException | SecurityException e) {
                    // gone meanwhile, or unreadable: not listed
                }
            }
        } catch (IOException | SecurityException e) {
            // an unreadable directory lists as empty
        }
        return ListingPage.render(urlPath, entries, truncated);
    }
}
