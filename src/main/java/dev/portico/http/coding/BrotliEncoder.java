package dev.portico.http.coding;

import com.aayushatharva.brotli4j.encoder.BrotliOutputStream;
import com.aayushatharva.brotli4j.encoder.Encoder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.vertx.core.buffer.Buffer;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;

/**
 * Brotli (RFC 7932) through brotli4j's streaming {@code BrotliOutputStream}: each piece is written and flushed,
 * which keeps the codec's history across pieces; the last piece of a body of known length ends the stream at once.
 * A fresh native encoder per response: brotli4j's cannot be reset for another stream.
 */
final class BrotliEncoder implements BodyEncoder {

    /** The window: 2^19 bytes, as ngx_brotli's default; the format allows up to 2^24. */
    static final int WINDOW = 19;

    private final Sink sink = new Sink();
    private final OutputStream codec;
    private final long expectedLength;
    private long consumed;
    private boolean closed;

    private BrotliEncoder(int level, long expectedLength) throws IOException {
        this.expectedLength = expectedLength;
        this.codec = new BrotliOutputStream(sink, new Encoder.Parameters().setQuality(level).setWindow(WINDOW),
                16 * 1024);
    }

    /** @param expectedLength the body's length when its head declared it, else -1 */
    static BodyEncoder start(int level, long expectedLength) {
        try {
            return new BrotliEncoder(level, expectedLength);
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
