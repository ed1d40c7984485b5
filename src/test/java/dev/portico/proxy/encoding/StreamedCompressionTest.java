package dev.portico.proxy.encoding;

import dev.portico.http.coding.BodyEncoderTest;
import dev.portico.testing.Api;
import dev.portico.testing.Decode;
import dev.portico.testing.Eventually;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.Prefix;
import dev.portico.testing.TestVertx;
import dev.portico.testing.TextOrigin;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.time.Duration;
import java.util.Arrays;
import java.util.zip.GZIPInputStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Compression streams: what the origin has sent reaches the client, decodable, before the origin finishes; events
 * are never compressed or held; a body far larger than any buffer comes through whole.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class StreamedCompressionTest extends CompressionTestSupport {

    private static final String HOST = "stream.test";

    /** Sends a GET and hands every received piece to {@code pieces}; completes with the response once it ends. */
    private Future<HttpClientResponse> open(String uri, String acceptEncoding, Buffer pieces) {
        RequestOptions options = new RequestOptions().setHost("127.0.0.1").setPort(dataPlane.port())
                .setMethod(HttpMethod.GET).setURI(uri).setTimeout(60_000)
                .putHeader("Host", HOST).putHeader("Accept-Encoding", acceptEncoding);
        Promise<HttpClientResponse> ended = Promise.promise();
        client.raw().request(options).compose(request -> request.send().onSuccess(response -> {
            response.handler(piece -> {
                synchronized (pieces) {
                    pieces.appendBuffer(piece);
                }
            });
            response.endHandler(v -> ended.complete(response));
            response.exceptionHandler(ended::tryFail);
        })).onFailure(ended::tryFail);
        return ended.future();
    }

    /** Waits until what the client has received so far satisfies {@code enough}; the origin has not finished. */
    private static byte[] waitFor(Buffer pieces, java.util.function.Predicate<byte[]> enough) {
        return Eventually.value(Duration.ofSeconds(10), () -> {
            synchronized (pieces) {
                return pieces.getBytes();
            }
        }, enough);
    }

    @Test
    void whatTheOriginSentIsDecodableBeforeItFinishes() throws Exception {
        for (String coding : new String[]{"gzip", "br", "zstd"}) {
            origin.close();
            origin = TextOrigin.start();
            Api.deleteAll();
            Api.create(vhost(HOST, compression()));
            Buffer pieces = Buffer.buffer();
            Future<HttpClientResponse> response = open("/stream", coding, pieces);
            byte[] first = BodyEncoderTest.text(TextOrigin.STREAM_PIECE, 9);
            waitFor(pieces, bytes -> {
                try {
                    return Arrays.equals(first, Prefix.decode(coding, bytes, first.length));
                } catch (Exception notYet) {
                    return false;
                }
            });
            origin.release();
            HttpClientResponse done = TestVertx.await(response);
            assertEquals(coding, done.getHeader("Content-Encoding"));
            byte[] whole = Decode.body(coding, pieces.getBytes());
            assertEquals(first.length + TextOrigin.PAGE.length, whole.length, coding);
            assertArrayEquals(TextOrigin.PAGE, Arrays.copyOfRange(whole, first.length, whole.length));
        }
    }

    @Test
    void serverSentEventsAreNeitherCompressedNorHeld() throws Exception {
        Api.create(vhost(HOST, compression("types", new io.vertx.core.json.JsonArray().add("text/*"))));
        Buffer pieces = Buffer.buffer();
        Future<HttpClientResponse> response = open("/events", "br, gzip, zstd", pieces);
        waitFor(pieces, bytes -> new String(bytes).equals("data: first\n\n"));
        origin.release();
        HttpClientResponse done = TestVertx.await(response);
        assertNull(done.getHeader("Content-Encoding"));
        assertNull(done.getHeader("Vary"));
        assertEquals("data: first\n\ndata: last\n\n", pieces.toString());
    }

    @Test
    void aLargeBodyStreamsThroughWhole() throws Exception {
        Api.create(vhost(HOST, compression()));
        Buffer pieces = Buffer.buffer();
        HttpClientResponse done = TestVertx.await(open("/large", "gzip", pieces));
        assertEquals("gzip", done.getHeader("Content-Encoding"));
        assertTrue(pieces.length() < TextOrigin.LARGE / 4, "compressed to " + pieces.length());
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(pieces.getBytes()), 64 * 1024)) {
            long line = 0;
            byte[] got = new byte[TextOrigin.PIECE_LINES * TextOrigin.LINE];
            while (line * TextOrigin.LINE < TextOrigin.LARGE) {
                int n = in.readNBytes(got, 0, got.length);
                assertEquals(got.length, n, "body ends early at line " + line);
                assertArrayEquals(TextOrigin.lines(line, TextOrigin.PIECE_LINES), got, "at line " + line);
                line += TextOrigin.PIECE_LINES;
            }
            assertEquals(-1, in.read(), "body longer than sent");
        }
    }

    /**
     * A client that stops reading holds the compressor, and through it the origin, back (the relay pauses the upstream
     * socket, which the codec reads straight from); once it reads again it gets every byte, and the upstream
     * connection, read to the end, serves the next request at once instead of waiting for its read timeout.
     */
    @Test
    void aClientThatStopsReadingGetsItAllAndTheUpstreamServesOn() throws Exception {
        Api.create(vhost(HOST, compression()));
        RequestOptions options = new RequestOptions().setHost("127.0.0.1").setPort(dataPlane.port())
                .setMethod(HttpMethod.GET).setURI("/large").setTimeout(60_000)
                .putHeader("Host", HOST).putHeader("Accept-Encoding", "gzip");
        Buffer pieces = Buffer.buffer();
        Promise<HttpClientResponse> ended = Promise.promise();
        client.raw().request(options).compose(request -> request.send().onSuccess(response -> {
            response.pause();
            response.handler(pieces::appendBuffer);
            response.endHandler(v -> ended.complete(response));
            response.exceptionHandler(ended::tryFail);
            TestVertx.get().setTimer(1500, t -> response.resume());
        })).onFailure(ended::tryFail);
        assertEquals("gzip", TestVertx.await(ended.future()).getHeader("Content-Encoding"));
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(pieces.getBytes()), 64 * 1024)) {
            assertEquals(TextOrigin.LARGE, in.transferTo(java.io.OutputStream.nullOutputStream()));
        }
        // A body of known length, which the compressor ends with its last byte.
        for (int i = 0; i < 3; i++) {
            Buffer page = Buffer.buffer();
            long started = System.nanoTime();
            HttpClientResponse response = TestVertx.await(open("/page", "gzip", page));
            assertEquals("gzip", response.getHeader("Content-Encoding"));
            assertArrayEquals(TextOrigin.PAGE, Decode.body("gzip", page.getBytes()));
            assertTrue(Duration.ofNanos(System.nanoTime() - started).toSeconds() < 5, "answered without a wait");
        }
    }
}
