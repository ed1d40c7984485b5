package dev.portico.http.coding;

import com.github.luben.zstd.EndDirective;
import com.github.luben.zstd.ZstdCompressCtx;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.vertx.core.buffer.Buffer;

import java.nio.ByteBuffer;

/**
 * Zstandard (RFC 8878) through zstd-jni's streaming compression context: a block end after every piece, the frame
 * end with the last one. The context is reused: each thread keeps finished contexts ({@link IdleStates}), reset,
 * for its next responses, and a body of known length is announced to the context first, which then sizes its
 * tables to the body (for a 1 KiB response, a fraction of what an open-ended stream needs).
 */
final class ZstdEncoder implements BodyEncoder {

    /** The window: 2^19 bytes, which bounds an open-ended stream's memory to about 1 MiB. */
    static final int WINDOW = 19;
    private static final IdleStates<ZstdCompressCtx> IDLE = new IdleStates<>(ZstdCompressCtx::new,
            ZstdCompressCtx::reset, ZstdCompressCtx::close);

    private final long expectedLength;
    private ZstdCompressCtx context;
    private long consumed;

    private ZstdEncoder(int level, long expectedLength) {
        this.expectedLength = expectedLength;
        context = IDLE.take();
        context.setLevel(level);
        context.setWindowLog(WINDOW);
        if (expectedLength >= 0) {
            context.setPledgedSrcSize(expectedLength);
        }
    }

    /** @param expectedLength the body's length when its head declared it, else -1 */
    static BodyEncoder start(int level, long expectedLength) {
        return new ZstdEncoder(level, expectedLength);
    }

    @Override
    public Buffer encode(Buffer piece) {
        if (context == null) {
            throw new IllegalStateException("the encoder has finished");
        }
        ByteBuf bytes = piece.getByteBuf();
        ByteBuffer input = bytes.nioBufferCount() == 1 ? bytes.nioBuffer() : ByteBuffer.wrap(piece.getBytes());
        consumed += input.remaining();
        boolean last = consumed == expectedLength;
        ByteBuf out = Unpooled.buffer(input.remaining() / 2 + 64);
        compress(out, input, last ? EndDirective.END : EndDirective.FLUSH);
        if (last) {
            recycle();
        }
        return Buffer.buffer(out);
    }

    @Override
    public Buffer finish() {
        if (context == null) {
            return Buffer.buffer(0);
        }
        ByteBuf out = Unpooled.buffer(64);
        compress(out, ByteBuffer.allocate(0), EndDirective.END);
        recycle();
        return Buffer.buffer(out);
    }

    @Override
    public boolean finished() {
        return context == null;
    }

    @Override
    public void release() {
        if (context != null) {
            recycle();
        }
    }

    /** Runs the context until it has taken all of {@code input} and flushed (or ended) everything. */
    private void compress(ByteBuf out, ByteBuffer input, EndDirective directive) {
        boolean done;
        do {
            out.ensureWritable(256);
            ByteBuffer target = out.nioBuffer(out.writerIndex(), out.writableBytes());
            done = context.compressByteBufferStream(target, input, directive);
            out.writerIndex(out.writerIndex() + target.position());
        } while (!done || input.hasRemaining());
    }

    private void recycle() {
        ZstdCompressCtx used = context;
        context = null;
        IDLE.give(used);
    }
}
