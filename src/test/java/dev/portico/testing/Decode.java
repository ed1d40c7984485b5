package dev.portico.testing;

import com.aayushatharva.brotli4j.Brotli4jLoader;
import com.aayushatharva.brotli4j.decoder.BrotliInputStream;
import com.github.luben.zstd.ZstdInputStream;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.zip.GZIPInputStream;

/** Decodes a response body with the reference decoder of its content coding. */
public final class Decode {

    private Decode() {
    }

    /** @param coding a Content-Encoding value, or null for none */
    public static byte[] body(String coding, byte[] encoded) {
        if (coding == null) {
            return encoded;
        }
        try (InputStream in = stream(coding, new ByteArrayInputStream(encoded))) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("not valid " + coding, e);
        }
    }

    private static InputStream stream(String coding, InputStream raw) throws IOException {
        return switch (coding) {
            case "gzip" -> new GZIPInputStream(raw);
            case "br" -> {
                Brotli4jLoader.ensureAvailability();
                yield new BrotliInputStream(raw);
            }
            case "zstd" -> new ZstdInputStream(raw);
            default -> throw new IllegalArgumentException("unknown coding " + coding);
        };
    }
}
