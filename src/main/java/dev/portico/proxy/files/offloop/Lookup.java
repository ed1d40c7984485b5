package dev.portico.proxy.files.offloop;

import dev.portico.http.coding.BodyEncoder;
import dev.portico.http.coding.CompressionPolicy;
import dev.portico.http.negotiation.AcceptEncoding;
import io.vertx.core.buffer.Buffer;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * What a request path resolved to under a vhost's root, as {@link FileProbe} found it and the lookup cache keeps it
 * for a moment. Immutable; shared by every event loop.
 */
public sealed interface Lookup permits Lookup.Miss, Lookup.Found, Lookup.Redirect, Lookup.Listing {

    /** Bookkeeping every entry costs in the lookup cache, besides the bytes it holds. */
    int OVERHEAD = 256;

    /** The cache weight: roughly the bytes the entry keeps alive. */
    int weight();

    /** No {@code tryFiles} entry matched (or the path was refused). */
    enum Miss implements Lookup {
        INSTANCE;

        @Override
        public int weight() {
            return OVERHEAD;
        }
    }

    /**
     * A regular file to serve.
     *
     * @param servedPath the file's path relative to the root, for the {@code Cache-Control} rules
     * @param contentType of the file itself, also when a compressed sibling is sent
     * @param cacheControl the matching rule's value, or null
     * @param identity the file itself
     * @param siblings precompressed variants by {@link AcceptEncoding.Coding#ordinal()}, null where absent
     */
    record Found(String servedPath, String contentType, String cacheControl, Representation identity,
                 Representation[] siblings) implements Lookup {

        /** Whether any sibling exists, and so whether the response varies on {@code Accept-Encoding}. */
        public boolean hasSiblings() {
            for (Representation sibling : siblings) {
                if (sibling != null) {
                    return true;
                }
            }
            return false;
        }

        public boolean[] available() {
            boolean[] available = new boolean[siblings.length];
            for (int i = 0; i < siblings.length; i++) {
                available[i] = siblings[i] != null;
            }
            return available;
        }

        @Override
        public int weight() {
            int weight = OVERHEAD + identity.heldBytes();
            for (Representation sibling : siblings) {
                weight += sibling == null ? 0 : sibling.heldBytes();
            }
            return weight;
        }
    }

    /**
     * The request path names a directory without its trailing slash: redirect there, so relative links in the
     * index page resolve (nginx and Caddy do the same).
     */
    enum Redirect implements Lookup {
        INSTANCE;

        @Override
        public int weight() {
            return OVERHEAD;
        }
    }

    /** A directory without an index file, on a vhost with {@code listing}: the rendered HTML page. */
    record Listing(Buffer page) implements Lookup {

        @Override
        public int weight() {
            return OVERHEAD + page.length();
        }
    }

    /**
     * One file as it will be sent: the file itself or a precompressed sibling.
     *
     * @param path the real path (symbolic links resolved), which is what gets opened
     * @param fileKey the file system's identity of the file (device and inode), or null where there is none
     * @param mtimeMillis the modification time
     * @param size in bytes
     * @param etag strong: {@code "<mtime ms hex>-<size hex>"}, plus {@code -<coding>} for a sibling
     * @param lastModifiedMillis the modification time truncated to whole seconds, as {@code Last-Modified} says it
     * @param lastModified the {@code Last-Modified} value
     * @param content the whole file when it is small enough to be held, else null (read at send time)
     * @param coding the content coding, null for the file itself
     * @param compressedCopies for held content: the content compressed on the fly, by
     *                         {@link AcceptEncoding.Coding#ordinal()}, made by the first request that needs one
     *                         (two loops racing both make a valid copy); null for other files
     */
    record Representation(String path, Object fileKey, long mtimeMillis, long size, String etag,
                          long lastModifiedMillis, String lastModified, Buffer content, AcceptEncoding.Coding coding,
                          AtomicReferenceArray<Buffer> compressedCopies) {

        int heldBytes() {
            return content == null ? 0 : content.length();
        }

        /** The held content compressed with {@code coding}, made by {@code compression} the first time. */
        public Buffer compressed(AcceptEncoding.Coding coding, CompressionPolicy compression) {
            Buffer copy = compressedCopies.get(coding.ordinal());
            if (copy == null) {
                BodyEncoder encoder = compression.encoder(coding, content.length());
                copy = encoder.encode(content).appendBuffer(encoder.finish());
                compressedCopies.set(coding.ordinal(), copy);
            }
            return copy;
        }

        /** Whether this is still the file described: same inode, size and modification time. */
        boolean unchanged(Object key, long mtime, long length) {
            return fileKey != null && fileKey.equals(key) && mtimeMillis == mtime && size == length;
        }
    }
}
