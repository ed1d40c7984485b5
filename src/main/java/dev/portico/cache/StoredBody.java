package dev.portico.cache;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.vertx.core.buffer.Buffer;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * Copies a response body into the direct memory it is stored in. A stored body is written to a socket on every hit:
 * from direct memory Netty writes it as it is, while a heap body would be copied into a direct buffer each time
 * (100 KiB per hit for a 100 KiB object). The memory is an ordinary {@code DirectByteBuffer}, freed by the garbage
 * collector once the entry is evicted and no write holds it any more; nothing is reference counted by hand, so an
 * eviction can never free a body while a hit is still writing it.
 */
public final class StoredBody {

    private StoredBody() {
    }

    public static Buffer copyOf(List<Buffer> chunks, int size) {
        ByteBuf target = Unpooled.wrappedBuffer(ByteBuffer.allocateDirect(size)).clear();
        for (Buffer chunk : chunks) {
            target.writeBytes(chunk.getByteBuf());
        }
        return Buffer.buffer(target);
    }

    public static Buffer copyOf(Buffer body) {
        return copyOf(List.of(body), body.length());
    }
}
