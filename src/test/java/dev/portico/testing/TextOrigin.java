package dev.portico.testing;

import dev.portico.http.coding.BodyEncoderTest;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.GZIPOutputStream;

/**
 * A real origin on loopback serving the kinds of responses compression must tell apart: text of known and unknown
 * length, too small, not text, already encoded, no-transform, partial, server-sent events and a long streamed body.
 * Streams that must prove they are not buffered wait on {@link #release()}.
 */
public final class TextOrigin implements AutoCloseable {

    public static final byte[] PAGE = BodyEncoderTest.text(20_000, 7);
    public static final int STREAM_PIECE = 64 * 1024;
    public static final long LARGE = 32L << 20;

    private final HttpServer server;
    private final AtomicInteger requests = new AtomicInteger();
    private volatile Promise<Void> gate = Promise.promise();

    private TextOrigin(HttpServer server) {
        this.server = server;
    }

    public static TextOrigin start() {
        TextOrigin[] self = new TextOrigin[1];
        HttpServer server = TestVertx.get().createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(0))
                .requestHandler(request -> self[0].handle(request));
        self[0] = new TextOrigin(server);
        TestVertx.await(server.listen());
        return self[0];
    }

    public String url() {
        return "http://127.0.0.1:" + server.actualPort();
    }

    public int requests() {
        return requests.get();
    }

    /** Lets the held streams ({@code /events}, {@code /stream}) finish. */
    public void release() {
        gate.tryComplete();
    }

    private void handle(HttpServerRequest request) {
        requests.incrementAndGet();
        HttpServerResponse response = request.response();
        String path = request.path();
        switch (path) {
            case "/page" -> text(response, "text/html; charset=utf-8").putHeader("ETag", "\"v1\"")
                    .putHeader("Cache-Control", "max-age=60").end(Buffer.buffer(PAGE));
            case "/json" -> text(response, "application/problem+json").end(Buffer.buffer(PAGE));
            case "/chunked" -> {
                text(response, "text/plain").setChunked(true);
                response.write(Buffer.buffer().appendBytes(PAGE, 0, 10_000));
                response.end(Buffer.buffer().appendBytes(PAGE, 10_000, PAGE.length - 10_000));
            }
            case "/small" -> text(response, "text/html").end(Buffer.buffer().appendBytes(PAGE, 0, 500));
            case "/image" -> text(response, "image/png").end(Buffer.buffer(PAGE));
            case "/encoded" -> text(response, "text/html").putHeader("Content-Encoding", "gzip")
                    .end(Buffer.buffer(gzip(PAGE)));
            case "/no-transform" -> text(response, "text/html").putHeader("Cache-Control", "public, no-transform")
                    .end(Buffer.buffer(PAGE));
            case "/partial" -> text(response, "text/html").setStatusCode(206)
                    .putHeader("Content-Range", "bytes 0-9999/20000")
                    .end(Buffer.buffer().appendBytes(PAGE, 0, 10_000));
            case "/not-modified" -> response.setStatusCode(304).putHeader("ETag", "\"v1\"").end();
            case "/events" -> {
                text(response, "text/event-stream").setChunked(true);
                response.write("data: first\n\n");
                gate.future().onComplete(v -> response.end("data: last\n\n"));
            }
            case "/stream" -> {
                text(response, "text/plain").setChunked(true);
                response.write(Buffer.buffer().appendBytes(BodyEncoderTest.text(STREAM_PIECE, 9)));
                gate.future().onComplete(v -> response.end(Buffer.buffer(PAGE)));
            }
            case "/large" -> large(response);
            default -> response.setStatusCode(404).end();
        }
    }

    private static HttpServerResponse text(HttpServerResponse response, String type) {
        return response.putHeader("Content-Type", type);
    }

    /** {@link #LARGE} bytes of {@link #lines} text, chunked, written as fast as the proxy takes them. */
    private static void large(HttpServerResponse response) {
        text(response, "text/plain").setChunked(true);
        long[] sent = {0};
        Runnable[] pump = new Runnable[1];
        pump[0] = () -> {
            while (sent[0] < LARGE && !response.writeQueueFull()) {
                response.write(Buffer.buffer(lines(sent[0] / LINE, PIECE_LINES)));
                sent[0] += (long) PIECE_LINES * LINE;
            }
            if (sent[0] >= LARGE) {
                response.end();
            } else {
                response.drainHandler(v -> pump[0].run());
            }
        };
        pump[0].run();
    }

    public static final int LINE = 32;
    public static final int PIECE_LINES = 1024;

    /** Text that compresses, but not to nothing: {@code count} numbered 32-byte lines from line {@code first}. */
    public static byte[] lines(long first, int count) {
        byte[] template = "line 00000000 of the large body\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        byte[] out = new byte[count * LINE];
        for (int l = 0; l < count; l++) {
            System.arraycopy(template, 0, out, l * LINE, LINE);
            long n = first + l;
            for (int d = 12; d >= 5; d--) {
                out[l * LINE + d] = (byte) ('0' + n % 10);
                n /= 10;
            }
        }
        return out;
    }

    public static byte[] gzip(byte[] bytes) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
                gz.write(bytes);
            }
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        gate.tryComplete();
        TestVertx.await(server.close());
    }
}
