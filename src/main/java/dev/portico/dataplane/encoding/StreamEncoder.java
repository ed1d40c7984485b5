package dev.portico.dataplane.encoding;

import com.aayushatharva.brotli4j.encoder.BrotliOutputStream;
import com.aayushatharva.brotli4j.encoder.Encoder;
import com.github.luben.zstd.RecyclingBufferPool;
import com.github.luben.zstd.ZstdOutputStreamNoFinalizer;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.vertx.core.buffer.Buffer;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;

/**
 * A {@link BodyEncoder} over a codec library's streaming compressor: brotli4j's Brotli, zstd-jni's Zstandard (gzip
 * is {@link GzipEncoder}). Each piece is written and flushed (a Brotli flush, a Zstandard block end), which keeps
 * the codec's history across pieces; the last piece of a body of known length ends the stream at once.
 */
final class StreamEncoder implements BodyEncoder {

    /** Brotli's window for streamed bodies: 2^19 bytes, as ngx_brotli's default; the format allows up to 2^24. */
    static final int BROTLI_WINDOW = 19;
    /** Zstandard's window for streamed bodies: 2^19 bytes, which bounds each stream's memory to about 1 MiB. */
    static final int ZSTD_WINDOW = 19;

    private final Sink sink = new Sink();
    private final OutputStream codec;
    private final long expectedLength;
    private long consumed;
    private boolean closed;

    private StreamEncoder(AcceptEncoding.Coding coding, int level, long expectedLength) throws IOException {
        this.expectedLength = expectedLength;
        this.codec = switch (coding) {
            case GZIP -> throw new IllegalArgumentException("gzip is GzipEncoder's");
            case BR -> new BrotliOutputStream(sink, new Encoder.Parameters().setQuality(level)
                    .setWindow(BROTLI_WINDOW), 16 * 1024);
            case ZSTD -> new ZstdOutputStreamNoFinalizer(sink, RecyclingBufferPool.INSTANCE).setLevel(level)
                    .setWindowLog(ZSTD_WINDOW);
        };
    }

    /**
     * @param expectedLength the body's length when its head declared it, else -1
     */
    static BodyEncoder start(AcceptEncoding.Coding coding, int level, long expectedLength) {
        try {
            return new StreamEncoder(coding, level, expectedLength);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public Buffer encode(Buffer piece) {
        if (closed) {
            throw new IllegalStateException("the encoder has finished");
        }
        consumed += piece.length();
        try {
            ByteBuf bytes = piece.getByteBuf();
            if (bytes.hasArray()) {
                codec.write(bytes.array(), bytes.arrayOffset() + bytes.readerIndex(), bytes.readableBytes());
            } else {
                codec.write(piece.getBytes());
            }
            if (consumed == expectedLength) {
                return finish();
            }
            codec.flush();
        } catch (IOException e) {
            release();
            throw new UncheckedIOException(e);
        }
        return sink.take();
    }

    @Override
    public Buffer finish() {
        if (closed) {
            return Buffer.buffer(0);
        }
        closed = true;
        try {
            codec.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return sink.take();
    }

    @Override
    public boolean finished() {
        return closed;
    }

    @Override
    public void release() {
        if (!closed) {
            closed = true;
            try {
                codec.close();
            } catch (IOException | RuntimeException e) {
                // Releasing native memory of an abandoned stream: what it would have written does not matter.
            }
        }
    }

    /** Collects what the codec writes; {@link #take()} hands it over as a buffer of its own. */
    private static final class Sink extends OutputStream {

        private ByteBuf out = Unpooled.buffer(512);

        @Override
        public void write(int b) {
            out.writeByte(b);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            out.writeBytes(b, off, len);
        }

        Buffer take() {
            if (!out.isReadable()) {
                return Buffer.buffer(0);
            }
            Buffer taken = Buffer.buffer(out);
            out = Unpooled.buffer(Math.max(512, Math.min(64 * 1024, taken.length())));
            return taken;
        }
    }
}
