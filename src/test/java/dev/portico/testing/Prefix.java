package dev.portico.testing;

import com.aayushatharva.brotli4j.Brotli4jLoader;
import com.aayushatharva.brotli4j.decoder.DecoderJNI;
import com.github.luben.zstd.ZstdInputStream;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.zip.GZIPInputStream;

/** Decodes the start of an unfinished compressed stream: what a client can already show before the end arrives. */
public final class Prefix {

    private Prefix() {
    }

    /** Reads exactly {@code expected} bytes from the decoder, failing if the prefix does not hold that many. */
    public static byte[] decode(String coding, byte[] prefix, int expected) throws IOException {
        if (coding.equals("br")) {
            return brotli(prefix, expected);
        }
        InputStream raw = new ByteArrayInputStream(prefix);
        InputStream in = switch (coding) {
            case "gzip" -> new GZIPInputStream(raw);
            case "zstd" -> new ZstdInputStream(raw).setContinuous(true);
            default -> throw new IllegalArgumentException(coding);
        };
        byte[] out = new byte[expected];
        int n = 0;
        while (n < expected) {
            int r = in.read(out, n, expected - n);
            if (r < 0) {
                throw new IOException("only " + n + " bytes decodable from the prefix");
            }
            n += r;
        }
        return out;
    }

    /** brotli4j's BrotliInputStream fails at the end of its input, so its decoder is driven by hand. */
    private static byte[] brotli(byte[] prefix, int expected) throws IOException {
        Brotli4jLoader.ensureAvailability();
        DecoderJNI.Wrapper decoder = new DecoderJNI.Wrapper(prefix.length);
        try {
            decoder.getInputBuffer().put(prefix);
            decoder.push(prefix.length);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            while (decoder.getStatus() == DecoderJNI.Status.NEEDS_MORE_OUTPUT || decoder.hasOutput()) {
                ByteBuffer piece = decoder.pull();
                byte[] bytes = new byte[piece.remaining()];
                piece.get(bytes);
                out.write(bytes);
            }
            if (decoder.getStatus() == DecoderJNI.Status.ERROR || out.size() < expected) {
                throw new IOException("only " + out.size() + " bytes decodable from the prefix");
            }
            return java.util.Arrays.copyOf(out.toByteArray(), expected);
        } finally {
            decoder.destroy();
        }
    }
}
