package dev.portico.proxy.files;

import dev.portico.http.DateHeader;
import dev.portico.http.coding.BodyEncoder;
import dev.portico.http.coding.CompressionPolicy;
import dev.portico.http.conditional.ByteRanges;
import dev.portico.http.conditional.Conditionals;
import dev.portico.http.negotiation.AcceptEncoding;
import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.RequestTarget;
import dev.portico.proxy.core.outcome.LocalReason;
import dev.portico.proxy.files.offloop.Lookup;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;

import java.util.List;

/**
 * Answers a GET or HEAD for a found file: picks the representation (the file, a precompressed sibling, or the file
 * compressed on the fly when the vhost compresses and there is no sibling for the client), then per RFC 9110
 * section 13.2.2 evaluates the preconditions (412, 304), then {@code Range} with {@code If-Range} (206,
 * multipart/byteranges, 416), and sends the body from memory, with zero-copy {@code sendfile}, or streamed. A request
 * with {@code Range} gets ranges of the file, never a compressed body. Stateless; one instance per static stage.
 */
final class FileResponder {

    /** More ranges than this in one request, and {@code Range} is ignored (RFC 9110 section 14.2). */
    static final int MAX_RANGES = 32;
    private static final CharSequence BYTES = HttpHeaderValues.BYTES;
    private static final CharSequence ACCEPT_ENCODING = HttpHeaders.createOptimized("Accept-Encoding");

    private final boolean sendfile;
    private final CompressionPolicy compression;

    /** @param compression the vhost's, or null */
    FileResponder(boolean sendfile, CompressionPolicy compression) {
        this.sendfile = sendfile;
        this.compression = compression;
    }

    /** @param vanished what to do when the file is gone by the time it is opened (nothing was sent yet) */
    void respond(Exchange exchange, Lookup.Found found, Runnable vanished) {
        HttpServerRequest request = exchange.request();
        MultiMap requestHeaders = request.headers();
        HttpServerResponse response = exchange.response();
        MultiMap headers = response.headers();
        Lookup.Representation file = found.identity();
        boolean varies = found.hasSiblings();
        if (varies) {
            AcceptEncoding.Coding coding = AcceptEncoding.select(AcceptEncoding.of(requestHeaders), found.available());
            if (coding != null) {
                file = found.siblings()[coding.ordinal()];
            }
        }
        headers.set(HttpHeaderNames.DATE, DateHeader.now());
        headers.set(HttpHeaderNames.ETAG, file.etag());
        headers.set(HttpHeaderNames.LAST_MODIFIED, file.lastModified());
        if (found.cacheControl() != null) {
            headers.set(HttpHeaderNames.CACHE_CONTROL, found.cacheControl());
        }
        if (varies) {
            headers.set(HttpHeaderNames.VARY, ACCEPT_ENCODING);
        }
        HttpMethod method = request.method();
        AcceptEncoding.Coding compressWith = null;
        if (compression != null && file.coding() == null) {
            headers.set(HttpHeaderNames.CONTENT_TYPE, found.contentType());
            if (compression.prepare(200, headers, file.size()) && !requestHeaders.contains(HttpHeaderNames.RANGE)) {
                compressWith = compression.choose(method, request.version(), exchange.clientAcceptEncoding());
            }
            if (compressWith != null) {
                // A 304 carries the validator the compressed 200 would; Content-Encoding waits for the body.
                headers.set(HttpHeaderNames.ETAG, CompressionPolicy.weakened(file.etag()));
            }
        }
        switch (Conditionals.evaluate(method, requestHeaders, file.etag(), file.lastModifiedMillis())) {
            case PRECONDITION_FAILED -> {
                exchange.replyLocal(LocalReason.PRECONDITION_FAILED, "A precondition of the request failed");
                return;
            }
            case NOT_MODIFIED -> {
                // Set above only to decide on compression: a 304 describes no body.
                headers.remove(HttpHeaderNames.CONTENT_TYPE);
                response.setStatusCode(304);
                finish(exchange, () -> response.end());
                return;
            }
            default -> {
                // send the representation
            }
        }
        if (compressWith != null) {
            compression.compressed(headers, compressWith);
            sendCompressed(exchange, file, compressWith, vanished);
            return;
        }
        headers.set(HttpHeaderNames.ACCEPT_RANGES, BYTES);
        long size = file.size();
        ByteRanges.Result ranges = null;
        String range = method == HttpMethod.GET ? request.getHeader(HttpHeaderNames.RANGE) : null;
        if (range != null && Conditionals.ifRangeMatches(requestHeaders, file.etag(), file.lastModifiedMillis())) {
            ranges = ByteRanges.parse(range, size, MAX_RANGES);
            if (ranges.kind() == ByteRanges.Kind.UNSATISFIABLE) {
                headers.set(HttpHeaderNames.CONTENT_RANGE, ByteRanges.unsatisfied(size));
                exchange.replyLocal(LocalReason.RANGE_NOT_SATISFIABLE, "No requested range overlaps the file");
                return;
            }
        }
        if (file.coding() != null) {
            headers.set(HttpHeaderNames.CONTENT_ENCODING, file.coding().token());
        }
        if (ranges == null || ranges.kind() == ByteRanges.Kind.FULL) {
            headers.set(HttpHeaderNames.CONTENT_TYPE, found.contentType());
            send(exchange, file, 0, size, vanished);
        } else if (ranges.ranges().size() == 1) {
            ByteRanges.Range only = ranges.ranges().get(0);
            response.setStatusCode(206);
            headers.set(HttpHeaderNames.CONTENT_TYPE, found.contentType());
            headers.set(HttpHeaderNames.CONTENT_RANGE, ByteRanges.contentRange(only, size));
            send(exchange, file, only.start(), only.length(), vanished);
        } else {
            Multipart multipart = Multipart.of(ranges.ranges(), found.contentType(), size);
            response.setStatusCode(206);
            headers.set(HttpHeaderNames.CONTENT_TYPE, multipart.contentType());
            sendMultipart(exchange, file, multipart, vanished);
        }
    }

    private void send(Exchange exchange, Lookup.Representation file, long offset, long length, Runnable vanished) {
        HttpServerResponse response = exchange.response();
        response.headers().set(HttpHeaderNames.CONTENT_LENGTH, Long.toString(length));
        if (exchange.request().method() == HttpMethod.HEAD) {
            finish(exchange, () -> response.end());
        } else if (file.content() != null) {
            Buffer body = file.content().slice((int) offset, (int) (offset + length));
            finish(exchange, () -> response.end(body));
        } else if (sendfile && !exchange.request().isSSL()) {
            // Vert.x computes the length itself from the file as it is now; a file replaced in place meanwhile is
            // then at least framed consistently.
            response.headers().remove(HttpHeaderNames.CONTENT_LENGTH);
            finish(exchange, () -> response.sendFile(file.path(), offset, length).onFailure(e -> {
                if (!response.closed()) {
                    // Gone (or cut short) since the cached lookup. The exchange has already run its response
                    // hooks, so no other answer can follow: close, and let the next request look again.
                    vanished.run();
                    exchange.abort(LocalReason.FILE_NOT_FOUND);
                    response.close();
                }
            }));
        } else {
            stream(exchange, file, List.of(FileBody.Segment.file(offset, length)), vanished, null);
        }
    }

    /** The whole file, compressed: held content from its compressed copy, a larger file streamed through a codec. */
    private void sendCompressed(Exchange exchange, Lookup.Representation file, AcceptEncoding.Coding coding,
                                Runnable vanished) {
        HttpServerResponse response = exchange.response();
        if (file.content() != null) {
            Buffer body = file.compressed(coding, compression);
            response.headers().set(HttpHeaderNames.CONTENT_LENGTH, Integer.toString(body.length()));
            finish(exchange, () -> response.end(body));
        } else {
            response.setChunked(true);
            stream(exchange, file, List.of(FileBody.Segment.file(0, file.size())), vanished,
                    compression.encoder(coding, -1));
        }
    }

    private void sendMultipart(Exchange exchange, Lookup.Representation file, Multipart multipart,
                               Runnable vanished) {
        HttpServerResponse response = exchange.response();
        response.headers().set(HttpHeaderNames.CONTENT_LENGTH, Long.toString(multipart.length()));
        if (file.content() != null) {
            Buffer body = multipart.assemble(file.content());
            finish(exchange, () -> response.end(body));
        } else {
            stream(exchange, file, multipart.segments(), vanished, null);
        }
    }

    /** Streams once the file is open; the head waits for that, so a vanished file can still get its 404. */
    private static void stream(Exchange exchange, Lookup.Representation file, List<FileBody.Segment> segments,
                               Runnable vanished, BodyEncoder encoder) {
        boolean close = mustClose(exchange);
        FileBody.send(exchange, file.path(), segments, encoder, close, () -> {
            head(exchange, close);
            if (!close) {
                exchange.request().resume();
            }
        }, vanished);
    }

    /** Sends the head, runs {@code body}, then closes the connection or reads on, as local replies do. */
    static void finish(Exchange exchange, Runnable body) {
        boolean close = mustClose(exchange);
        head(exchange, close);
        body.run();
        if (close) {
            exchange.closeAfterReply();
        } else {
            exchange.request().resume();
        }
    }

    private static void head(Exchange exchange, boolean close) {
        if (close) {
            exchange.response().headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        }
        exchange.sendHead();
    }

    /** An unread request body would otherwise sit in front of the next request on this connection. */
    private static boolean mustClose(Exchange exchange) {
        HttpServerRequest request = exchange.request();
        return !request.isEnded() && RequestTarget.hasBody(request);
    }
}
