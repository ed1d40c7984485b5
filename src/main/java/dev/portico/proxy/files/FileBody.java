package dev.portico.proxy.files;

import dev.portico.http.coding.BodyEncoder;
import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.outcome.LocalReason;
import io.vertx.core.AsyncResult;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.file.AsyncFile;
import io.vertx.core.file.OpenOptions;
import io.vertx.core.http.HttpServerResponse;

import java.util.List;

/**
 * Streams a response body made of literal pieces and byte ranges of one file through Vert.x's asynchronous file
 * system, with back-pressure: the next read starts only when the client connection can take more. Used for files
 * too large to be held, when {@code sendfile} is off or the connection is TLS, and for every
 * {@code multipart/byteranges} body of such a file. One instance per response; confined to its event loop.
 */
final class FileBody {

    /** One piece of the body: literal bytes, or {@code length} bytes of the file from {@code offset}. */
    record Segment(Buffer literal, long offset, long length) {

        static Segment literal(Buffer bytes) {
            return new Segment(bytes, 0, bytes.length());
        }

        static Segment file(long offset, long length) {
            return new Segment(null, offset, length);
        }
    }

    static final int CHUNK = 64 * 1024;
    private static final OpenOptions READ = new OpenOptions().setRead(true).setWrite(false).setCreate(false);

    private final Exchange exchange;
    private final HttpServerResponse response;
    private final List<Segment> segments;
    private final BodyEncoder encoder;
    private final boolean closeAfter;
    private AsyncFile file;
    private int segment;
    private long done;

    private FileBody(Exchange exchange, List<Segment> segments, BodyEncoder encoder, boolean closeAfter) {
        this.exchange = exchange;
        this.response = exchange.response();
        this.segments = segments;
        this.encoder = encoder;
        this.closeAfter = closeAfter;
    }

    /**
     * Opens {@code path}; once it is open runs {@code onOpen} (which sends the response head) and streams the
     * segments, or runs {@code onMissing} when the file cannot be opened, before anything was sent.
     *
     * @param encoder what the file's bytes are compressed with, or null to send them as they are
     * @param closeAfter close the connection once the body is written
     */
    static void send(Exchange exchange, String path, List<Segment> segments, BodyEncoder encoder, boolean closeAfter,
                     Runnable onOpen, Runnable onMissing) {
        FileBody body = new FileBody(exchange, segments, encoder, closeAfter);
        exchange.loop().context().owner().fileSystem().open(path, READ).onComplete(opened -> {
            if (opened.failed()) {
                body.releaseEncoder();
                if (!exchange.response().closed()) {
                    onMissing.run();
                }
                return;
            }
            body.file = opened.result();
            if (exchange.response().closed()) {
                body.releaseEncoder();
                body.file.close();
                return;
            }
            // A client that leaves while a drain is awaited would never be written to again: release now.
            exchange.onClientGone(() -> body.finish(false));
            onOpen.run();
            body.next();
        });
    }

    private void next() {
        while (segment < segments.size()) {
            if (response.closed()) {
                finish(false);
                return;
            }
            Segment current = segments.get(segment);
            if (current.literal() != null) {
                segment++;
                response.write(current.literal());
                if (response.writeQueueFull()) {
                    awaitDrain();
                    return;
                }
                continue;
            }
            long remaining = current.length() - done;
            if (remaining == 0) {
                segment++;
                done = 0;
                continue;
            }
            int size = (int) Math.min(CHUNK, remaining);
            file.read(Buffer.buffer(size), 0, current.offset() + done, size).onComplete(this::read);
            return;
        }
        finish(true);
    }

    private void read(AsyncResult<Buffer> result) {
        Segment current = segments.get(segment);
        long wanted = Math.min(CHUNK, current.length() - done);
        if (result.failed() || result.result().length() < wanted) {
            // The file shrank or failed under us after the head promised its length: the client must see a
            // truncated response, not a complete one.
            finish(false);
            return;
        }
        done += wanted;
        if (response.closed()) {
            finish(false);
            return;
        }
        Buffer piece = encoder == null ? result.result() : encoder.encode(result.result());
        if (piece.length() > 0) {
            response.write(piece);
        }
        if (response.writeQueueFull()) {
            awaitDrain();
        } else {
            next();
        }
    }

    private void awaitDrain() {
        // Vert.x calls a drain handler on every change back to writable: one continuation per wait, or two reads
        // could run at once.
        response.drainHandler(v -> {
            response.drainHandler(null);
            next();
        });
    }

    private void finish(boolean complete) {
        response.drainHandler(null);
        if (file != null) {
            file.close();
            file = null;
        }
        if (complete) {
            if (encoder != null) {
                Buffer rest = encoder.finish();
                if (rest.length() > 0) {
                    response.write(rest);
                }
            }
            response.end();
            if (closeAfter) {
                exchange.closeAfterReply();
            }
        } else {
            releaseEncoder();
            if (!response.closed()) {
                exchange.abort(LocalReason.INTERNAL_ERROR);
            }
        }
    }

    private void releaseEncoder() {
        if (encoder != null) {
            encoder.release();
        }
    }
}
