package dev.portico.proxy.server.http1;

import dev.portico.proxy.core.outcome.LocalReason;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import io.vertx.core.http.HttpServerOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The guard and the decoder behind it on an embedded channel, fed the same bytes cut into reads at every position:
 * however a stream arrives, the same requests come out, and a violation is found at the same place.
 */
class RequestGuardTest {

    private static final String PIPELINE = "\r\nGET /caf\u00c3\u00a9?q=1 HTTP/1.1\r\nHost: a.test\r\nX-Long: "
            + "v".repeat(300) + "\r\n\r\n"
            + "POST /fixed HTTP/1.1\r\nHost: a.test\r\nContent-Length: 11\r\n\r\nhello world"
            + "POST /chunked HTTP/1.1\r\nHost: a.test\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "5;name=\"quoted \\\" value\";flag\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: t\r\n\r\n"
            + "GET /last HTTP/1.2\r\nHost: a.test\r\n\r\n";

    /** What the decoder handed on: one line per request (method, target, version) and per body piece. */
    private static List<String> decode(String stream, int... cuts) {
        EmbeddedChannel channel = new EmbeddedChannel();
        GuardedConnections connections = new GuardedConnections(8192, 32768, Duration.ZERO);
        channel.pipeline().addLast("httpDecoder", new StrictRequestDecoder(new HttpServerOptions()
                .setMaxInitialLineLength(8192).setMaxHeaderSize(32768)));
        RequestGuard guard = new RequestGuard(connections);
        channel.pipeline().addBefore("httpDecoder", RequestGuard.NAME, guard);
        byte[] bytes = stream.getBytes(StandardCharsets.ISO_8859_1);
        int from = 0;
        for (int cut : cuts) {
            channel.writeInbound(Unpooled.wrappedBuffer(bytes, from, cut - from));
            from = cut;
        }
        channel.writeInbound(Unpooled.wrappedBuffer(bytes, from, bytes.length - from));
        List<String> out = new ArrayList<>();
        StringBuilder body = new StringBuilder();
        Object message;
        while ((message = channel.readInbound()) != null) {
            if (message instanceof HttpRequest request) {
                if (request.decoderResult().isFailure()) {
                    Throwable cause = request.decoderResult().cause();
                    out.add("REFUSED " + (cause instanceof RequestRefused refused ? refused.reason() : cause));
                } else {
                    out.add(request.method() + " " + request.uri() + " " + request.protocolVersion());
                }
            } else if (message instanceof HttpContent content) {
                assertFalse(content.decoderResult().isFailure(), () -> "the decoder failed a body: "
                        + content.decoderResult().cause());
                body.append(content.content().toString(StandardCharsets.ISO_8859_1));
                if (message instanceof LastHttpContent && body.length() > 0) {
                    out.add("BODY " + body);
                    body.setLength(0);
                }
            }
            ReferenceCountUtil.release(message);
        }
        channel.finishAndReleaseAll();
        return out;
    }

    @Test
    void theSameRequestsComeOutWhereverTheReadsAreCut() {
        List<String> whole = decode(PIPELINE);
        assertEquals(List.of("GET /caf\u00e9?q=1 HTTP/1.1", "POST /fixed HTTP/1.1", "BODY hello world",
                "POST /chunked HTTP/1.1", "BODY hello world", "GET /last HTTP/1.1"), whole);
        for (int cut = 1; cut < PIPELINE.length(); cut++) {
            assertEquals(whole, decode(PIPELINE, cut), "cut at " + cut);
        }
    }

    @Test
    void theSameRequestsComeOutFromOneByteReads() {
        int[] everyByte = new int[PIPELINE.length() - 1];
        for (int i = 0; i < everyByte.length; i++) {
            everyByte[i] = i + 1;
        }
        assertEquals(decode(PIPELINE), decode(PIPELINE, everyByte));
    }

    @Test
    void aViolationIsFoundWhereverTheReadsAreCut() {
        String stream = "GET /ok HTTP/1.1\r\nHost: a.test\r\n\r\n"
                + "GET /bad HTTP/1.1\r\nHost: a.test\r\nX-Folded: a\r\n b\r\n\r\n"
                + "GET /never HTTP/1.1\r\nHost: a.test\r\n\r\n";
        List<String> expected = List.of("GET /ok HTTP/1.1", "REFUSED " + LocalReason.BAD_REQUEST);
        assertEquals(expected, decode(stream));
        for (int cut = 1; cut < stream.length(); cut++) {
            assertEquals(expected, decode(stream, cut), "cut at " + cut);
        }
    }

    @Test
    void aBrokenChunkedBodyStopsTheStreamWhereverTheReadsAreCut() {
        String stream = "POST /up HTTP/1.1\r\nHost: a.test\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "3\r\nabc\r\n3 \r\ndef\r\n0\r\n\r\nGET /never HTTP/1.1\r\nHost: a.test\r\n\r\n";
        for (int cut = 1; cut < stream.length(); cut++) {
            List<String> out = decode(stream, cut);
            assertEquals("POST /up HTTP/1.1", out.get(0), "cut at " + cut);
            assertTrue(out.stream().noneMatch(line -> line.contains("/never") || line.contains("def")),
                    "cut at " + cut + ": " + out);
        }
    }

    /**
     * Whatever framing fields the reader lets through, Netty behind it reads the same body: the next request starts
     * where the reader thinks it does. Anything else is refused.
     */
    @ParameterizedTest
    @ValueSource(strings = {"Transfer-Encoding: chunked", "transfer-encoding: CHUNKED", "Transfer-Encoding:chunked",
            "Transfer-Encoding: chunked \t", "Transfer-Encoding:\tchunked", "Transfer-Encoding: , chunked",
            "Transfer-Encoding: chunked,", "Transfer-Encoding: ,\tchunked", "Transfer-Encoding: chunked,\t",
            "Transfer-Encoding: chunked\r\nTransfer-Encoding: ", "Transfer-Encoding: \r\nTransfer-Encoding: chunked",
            "Transfer-Encoding: chunk", "Transfer-Encoding: chunked;", "Transfer-Encoding: chunked , chunked",
            "Transfer-Encoding: \"chunked\"", "Transfer-Encoding: chunked\r\nContent-Length: 0"})
    void nettyReadsTheSameChunkedBodyOrTheRequestIsRefused(String field) {
        String stream = "POST /a HTTP/1.1\r\nHost: a.test\r\n" + field + "\r\n\r\n5\r\nhello\r\n0\r\n\r\n"
                + "GET /next HTTP/1.1\r\nHost: a.test\r\n\r\n";
        assertAgreedOrRefused(decode(stream));
    }

    @ParameterizedTest
    @ValueSource(strings = {"Content-Length: 5", "Content-Length: 005", "Content-Length:5", "Content-Length: 5 \t",
            "Content-Length:\t5", "content-length: 5", "Content-Length: 5,5", "Content-Length: 5\r\nContent-Length: 5",
            "Content-Length: 5\r\nContent-Length: 6", "Content-Length: +5", "Content-Length: 5.0",
            "Content-Length: 0x5", "Content-Length: 5\r\nSec-WebSocket-Key1: a\r\nSec-WebSocket-Key2: b"})
    void nettyReadsTheSameFixedBodyOrTheRequestIsRefused(String field) {
        String stream = "POST /a HTTP/1.1\r\nHost: a.test\r\n" + field + "\r\n\r\nhello"
                + "GET /next HTTP/1.1\r\nHost: a.test\r\n\r\n";
        assertAgreedOrRefused(decode(stream));
    }

    private static void assertAgreedOrRefused(List<String> out) {
        if (out.get(0).startsWith("REFUSED")) {
            assertEquals(1, out.size(), out.toString());
        } else {
            assertEquals(List.of("POST /a HTTP/1.1", "BODY hello", "GET /next HTTP/1.1"), out);
        }
    }

    @Test
    void aLineLongerThanTheLimitIsRefusedEvenInPieces() {
        String stream = "GET /" + "a".repeat(9000) + " HTTP/1.1\r\nHost: a.test\r\n\r\n";
        assertEquals(List.of("REFUSED " + LocalReason.URI_TOO_LONG), decode(stream, 100, 4000, 8000));
        String fields = "GET / HTTP/1.1\r\nHost: a.test\r\n" + ("X-Many: " + "b".repeat(90) + "\r\n").repeat(400)
                + "\r\n";
        assertEquals(List.of("REFUSED " + LocalReason.HEADERS_TOO_LARGE), decode(fields, 1000, 20000));
    }
}
