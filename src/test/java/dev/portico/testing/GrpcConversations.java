package dev.portico.testing;

import io.grpc.CallOptions;
import io.grpc.Metadata;
import io.grpc.Status;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The gRPC calls of every kind, with their assertions, run by a test against {@link GrpcOrigin} either directly
 * (proving the harness) or through Portico (proving the proxy): the same conversation must look the same to the
 * client both ways.
 */
public final class GrpcConversations {

    /** A message whose grpc-message needs percent-encoding (RFC 3986 unreserved only travels as is). */
    public static final String AWKWARD_TEXT = "résumé 100% gone: ünïcode, \"quotes\" and a\ttab";

    private GrpcConversations() {
    }

    public static void unary(GrpcClient client) {
        assertEquals(AWKWARD_TEXT, client.ask(GrpcProbe.ECHO, AWKWARD_TEXT));
    }

    /** A message larger than every HTTP/2 window on the way (64 KiB initial): flow control has to move both ways. */
    public static void largeMessage(GrpcClient client) {
        String large = "L".repeat(3 * 1024 * 1024 + 17);
        assertEquals(large, client.ask(GrpcProbe.ECHO, large));
    }

    /** {@code calls} unary calls at once on one channel (one HTTP/2 connection): each gets its own answer. */
    public static void concurrentCalls(GrpcClient client, int calls) {
        List<GrpcCall> started = new ArrayList<>();
        for (int i = 0; i < calls; i++) {
            started.add(client.start(GrpcProbe.ECHO).send("call " + i).halfClose());
        }
        for (int i = 0; i < calls; i++) {
            assertOk(started.get(i).closed(GrpcClient.WAIT));
            assertEquals(List.of("call " + i), started.get(i).messages());
        }
    }

    /** {@code n} small messages from the origin, all of them, in order. */
    public static void serverStreaming(GrpcClient client, int n) {
        GrpcCall call = client.start(GrpcProbe.COUNT).send(GrpcProbe.count(n, 8)).halfClose();
        assertOk(call.closed(GrpcClient.WAIT));
        assertInOrder(call.messages(), n, 8);
    }

    public static void clientStreaming(GrpcClient client) {
        GrpcCall call = client.start(GrpcProbe.SUM);
        for (int i = 1; i <= 1000; i++) {
            call.send(Integer.toString(i));
        }
        assertOk(call.halfClose().closed(GrpcClient.WAIT));
        assertEquals(List.of("500500"), call.messages());
    }

    /** Each message is answered before the next is sent: the two directions interleave on one open stream. */
    public static void bidirectional(GrpcClient client) {
        GrpcCall call = client.start(GrpcProbe.CHAT);
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            call.send("m" + i);
            expected.add("echo:m" + i);
            int answered = i + 1;
            Eventually.value(GrpcClient.WAIT, call::messages, received -> received.size() == answered);
        }
        assertEquals(expected, call.messages());
        assertTrue(!call.isClosed(), "the stream stays open until the client half-closes");
        assertOk(call.halfClose().closed(GrpcClient.WAIT));
    }

    /** The origin's status code, description and trailer metadata reach the client exactly. */
    public static void errorStatus(GrpcClient client) {
        GrpcCall.Closed closed = client.unary(GrpcProbe.FAIL, "NOT_FOUND:" + AWKWARD_TEXT);
        assertEquals(Status.Code.NOT_FOUND, closed.status().getCode());
        assertEquals(AWKWARD_TEXT, closed.status().getDescription());
        assertEquals("from the origin", closed.trailers().get(GrpcOrigin.FAILURE_DETAIL));
        assertEquals("Fail", closed.trailers().get(GrpcOrigin.TRAILER));
    }

    /** Request metadata (text and binary) reaches the origin; its response headers and trailers come back. */
    public static Metadata metadata(GrpcClient client, GrpcOrigin origin) {
        Metadata sent = new Metadata();
        Metadata.Key<String> color = Metadata.Key.of("x-probe-color", Metadata.ASCII_STRING_MARSHALLER);
        Metadata.Key<byte[]> data = Metadata.Key.of("x-probe-data-bin", Metadata.BINARY_BYTE_MARSHALLER);
        byte[] bytes = {0, 1, 2, (byte) 0xff, '\r', '\n'};
        sent.put(color, "blue");
        sent.put(data, bytes);
        GrpcCall call = client.start(GrpcProbe.ECHO, CallOptions.DEFAULT, sent, Integer.MAX_VALUE)
                .send("hello").halfClose();
        GrpcCall.Closed closed = call.closed(GrpcClient.WAIT);
        assertOk(closed);
        assertEquals(List.of("hello"), call.messages());
        Metadata seen = origin.lastHeaders();
        assertEquals("blue", seen.get(color));
        assertArrayEquals(bytes, seen.get(data));
        Metadata headers = call.headers(GrpcClient.WAIT);
        assertEquals("blue", headers.get(Metadata.Key.of("x-echo-color", Metadata.ASCII_STRING_MARSHALLER)));
        assertArrayEquals(bytes, headers.get(Metadata.Key.of("x-echo-data-bin", Metadata.BINARY_BYTE_MARSHALLER)));
        assertEquals("Echo", closed.trailers().get(GrpcOrigin.TRAILER));
        return seen;
    }

    /**
     * A client whose deadline passes: it gets DEADLINE_EXCEEDED by itself, the origin was told the deadline
     * ({@code grpc-timeout}) and the call ends on the origin too.
     */
    public static void deadline(GrpcClient client, GrpcOrigin origin) {
        int cancelledBefore = origin.cancelled();
        GrpcCall.Closed closed = client.start(GrpcProbe.HANG,
                        CallOptions.DEFAULT.withDeadlineAfter(500, TimeUnit.MILLISECONDS), new Metadata(), 1)
                .send("wait").halfClose().closed(GrpcClient.WAIT);
        assertEquals(Status.Code.DEADLINE_EXCEEDED, closed.status().getCode(), closed.status().toString());
        assertNotNull(origin.lastHeaders().get(Metadata.Key.of("grpc-timeout", Metadata.ASCII_STRING_MARSHALLER)),
                "grpc-timeout reached the origin");
        Eventually.within(GrpcClient.WAIT, () -> assertTrue(origin.cancelled() > cancelledBefore,
                "the call ended on the origin"));
    }

    /**
     * A client that reads one message and then nothing: the origin, sending only while its stream is ready, must
     * be told to stop long before it has sent everything (nobody in between buffers without bound), and every
     * message must still arrive, in order, once the client reads.
     */
    public static void backPressure(GrpcClient client, GrpcOrigin origin) {
        int total = 4096;
        int padding = 16 * 1024;
        int sentBefore = origin.sent();
        GrpcCall call = client.start(GrpcProbe.COUNT, CallOptions.DEFAULT, new Metadata(), 1)
                .send(GrpcProbe.count(total, padding)).halfClose();
        Eventually.within(GrpcClient.WAIT, () -> assertTrue(origin.stalls() > 0, "the origin was never held back"));
        int held = (int) Eventually.stable(GrpcClient.WAIT, Duration.ofMillis(500), origin::sent) - sentBefore;
        // The client's own 1 MiB window is 64 of these messages; HTTP/2 windows, not socket buffers, bound the rest.
        assertTrue(held < 256, "the origin sent " + held + " of " + total + " 16 KiB messages to a client that read 1: "
                + "over 4 MiB held in between");
        assertTrue(call.messages().size() <= 1, "received " + call.messages().size() + " after requesting 1");
        call.request(total);
        assertOk(call.closed(Duration.ofSeconds(60)));
        assertInOrder(call.messages(), total, padding);
    }

    public static void assertOk(GrpcCall.Closed closed) {
        assertTrue(closed.status().isOk(), "status " + closed.status() + ", trailers " + closed.trailers());
    }

    /** {@code messages} are {@link GrpcProbe#numbered} 0..n-1 in order, each with {@code padding}. */
    public static void assertInOrder(List<String> messages, int n, int padding) {
        assertEquals(n, messages.size(), "messages received");
        for (int i = 0; i < n; i++) {
            assertEquals(i, GrpcProbe.indexOf(messages.get(i)), "message " + i);
            assertEquals(padding, messages.get(i).length() - messages.get(i).indexOf(':') - 1, "message " + i);
        }
    }
}
