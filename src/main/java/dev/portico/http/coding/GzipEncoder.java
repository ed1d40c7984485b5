package dev.portico.http.coding;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.vertx.core.buffer.Buffer;

import java.nio.ByteBuffer;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * gzip (RFC 1952) over the JDK's zlib {@link Deflater}: the 10-byte header, raw deflate with a sync flush after
 * every piece, then the CRC-32 and length trailer, as {@code GZIPOutputStream} writes them. Unlike it, the deflater
 * is reused: zlib's state (about 256 KiB, cleared on every init) costs more to set up than a small body takes to
 * compress, so each thread keeps finished deflaters ({@link IdleStates}), reset, for its next responses; the
 * level is set per response.
 */
final class GzipEncoder implements BodyEncoder {

    private static final byte[] HEADER = {0x1f, (byte) 0x8b, Deflater.DEFLATED, 0, 0, 0, 0, 0, 0, (byte) 0xff};
    private static final IdleStates<Deflater> IDLE = new IdleStates<>(
            () -> new Deflater(Deflater.DEFAULT_COMPRESSION, true), Deflater::reset, Deflater::end);

    private final long expectedLength;
    private final CRC32 crc = new CRC32();
    private Deflater deflater;
    private long consumed;
    private boolean started;

    private GzipEncoder(int level, long expectedLength) {
        this.expectedLength = expectedLength;
        this.deflater = IDLE.take();
        deflater.setLevel(level);
    }

    /** @param expectedLength the body's length when its head declared it, else -1 */
    static BodyEncoder start(int level, long expectedLength) {
        return new GzipEncoder(level, expectedLength);
    }

    @Override
    public Buffer encode(Buffer piece) {
        if (deflater == null) {
            throw new IllegalStateException("the encoder has finished");
        }
        ByteBuf bytes = piece.getByteBuf();
        ByteBuffer input = bytes.nioBufferCount() == 1 ? bytes.nioBuffer() : ByteBuffer.wrap(piece.getBytes());
        int length = input.remaining();
        crc.update(input.duplicate());
        deflater.setInput(input);
        consumed += length;
        ByteBuf out = Unpooled.buffer(length / 2 + 64);
        header(out);
        if (consumed == expectedLength) {
            end(out);
        } else {
            drain(out, Deflater.SYNC_FLUSH);
        }
        return Buffer.buffer(out);
    }

    @Override
    public Buffer finish() {
        if (deflater == null) {
            return Buffer.buffer(0);
        }
        ByteBuf out = Unpooled.buffer(64);
        header(out);
        end(out);
        return Buffer.buffer(out);
    }

    @Override
    public boolean finished() {
        return deflater == null;
    }

    @Override
    public void release() {
        if (deflater != null) {
            recycle();
        }
    }

    private void header(ByteBuf out) {
        if (!started) {
            started = true;
            out.writeBytes(HEADER);
        }
    }

    /** Deflates all input given so far; with SYNC_FLUSH, until zlib leaves output space unused (its rule). */
    private void drain(ByteBuf out, int flush) {
        while (true) {
            out.ensureWritable(256);
            int room = out.writableBytes();
            int n = deflater.deflate(out.nioBuffer(out.writerIndex(), room), flush);
            out.writerIndex(out.writerIndex() + n);
            if (n < room && deflater.needsInput()) {
                return;
            }
        }
    }

    private void end(ByteBuf out) {
        deflater.finish();
        while (!deflater.finished()) {
            out.ensureWritable(256);
            int room = out.writableBytes();
            int n = deflater.deflate(out.nioBuffer(out.writerIndex(), room), Deflater.NO_FLUSH);
            out.writerIndex(out.writerIndex() + n);
        }
        out.writeIntLE((int) crc.getValue());
        out.writeIntLE((int) consumed);
        recycle();
    }

    private void recycle() {
        Deflater used = deflater;
        deflater = null;
        IDLE.give(used);
    }
}
