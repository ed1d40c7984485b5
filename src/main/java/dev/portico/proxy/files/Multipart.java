package dev.portico.proxy.files;

import dev.portico.http.conditional.ByteRanges;
import io.vertx.core.buffer.Buffer;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The layout of a {@code multipart/byteranges} body (RFC 9110 section 14.6): for each range a delimiter line, its
 * {@code Content-Type} and {@code Content-Range}, an empty line and the bytes; then the close delimiter. The exact
 * length is known up front, so the response has a {@code Content-Length} like nginx's.
 *
 * @param boundary the delimiter, random per response so that it cannot occur in the file by accident
 * @param segments the body in order: literal framing and file ranges
 * @param length the total body length
 */
record Multipart(String boundary, List<FileBody.Segment> segments, long length) {

    /** The response's {@code Content-Type}. */
    String contentType() {
        return "multipart/byteranges; boundary=" + boundary;
    }

    static Multipart of(List<ByteRanges.Range> ranges, String contentType, long size) {
        String boundary = "portico-" + Long.toHexString(ThreadLocalRandom.current().nextLong() | Long.MIN_VALUE);
        List<FileBody.Segment> segments = new ArrayList<>(2 * ranges.size() + 1);
        long length = 0;
        for (int i = 0; i < ranges.size(); i++) {
            ByteRanges.Range range = ranges.get(i);
            String head = (i == 0 ? "" : "\r\n") + "--" + boundary + "\r\n"
                    + "Content-Type: " + contentType + "\r\n"
                    + "Content-Range: " + ByteRanges.contentRange(range, size) + "\r\n\r\n";
            Buffer framing = Buffer.buffer(head.getBytes(StandardCharsets.ISO_8859_1));
            segments.add(FileBody.Segment.literal(framing));
            segments.add(FileBody.Segment.file(range.start(), range.length()));
            length += framing.length() + range.length();
        }
        Buffer close = Buffer.buffer(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.ISO_8859_1));
        segments.add(FileBody.Segment.literal(close));
        length += close.length();
        return new Multipart(boundary, List.copyOf(segments), length);
    }

    /** The whole body from a file held in memory. */
    Buffer assemble(Buffer content) {
        Buffer body = Buffer.buffer((int) length);
        for (FileBody.Segment segment : segments) {
            if (segment.literal() != null) {
                body.appendBuffer(segment.literal());
            } else {
                body.appendBuffer(content, (int) segment.offset(), (int) segment.length());
            }
        }
        return body;
    }
}
