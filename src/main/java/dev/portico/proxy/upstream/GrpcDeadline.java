package dev.portico.proxy.upstream;

import dev.portico.http.syntax.FieldSyntax;
import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.outcome.GrpcReply;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.StreamResetException;

/**
 * A gRPC call's deadline, as its client sent it in {@code grpc-timeout}, and the one upstream failure it explains: a
 * gRPC server cancels a call whose deadline passed with {@code RST_STREAM CANCEL}. Seen by Portico that is a stream
 * reset before any response, which would otherwise be an upstream failure ({@code upstream_protocol_error},
 * UNAVAILABLE, and a mark against the upstream's health); it is the client's deadline instead, answered
 * DEADLINE_EXCEEDED as the client's own timer would have ended the call, and no verdict on the upstream.
 */
final class GrpcDeadline {

    /** RST_STREAM's CANCEL error code (RFC 9113 section 7). */
    private static final long CANCEL = 0x8;
    /** {@code grpc-timeout}'s value: at most 8 ASCII digits (gRPC's PROTOCOL-HTTP2), then the unit. */
    private static final int MAX_DIGITS = 8;

    private GrpcDeadline() {
    }

    /**
     * Whether {@code cause}, the failure of {@code exchange}'s call before any response, is the upstream cancelling
     * a gRPC call whose deadline had passed. Measured from when Portico received the request, which is before the
     * upstream did: the upstream's clock for the same deadline runs out later than this one.
     */
    static boolean cancelledAtDeadline(Exchange exchange, Throwable cause) {
        if (!(cause instanceof StreamResetException) || ((StreamResetException) cause).getCode() != CANCEL
                || !GrpcReply.isGrpc(exchange.request().getHeader(HttpHeaders.CONTENT_TYPE))) {
            return false;
        }
        long timeout = timeoutNanos(exchange.request().getHeader("grpc-timeout"));
        return timeout >= 0 && System.nanoTime() - exchange.startNanos() >= timeout;
    }

    /**
     * A {@code grpc-timeout} value ({@code 1-8 digits} and a unit: {@code H M S m u n}) in nanoseconds; -1 when
     * absent or malformed.
     */
    static long timeoutNanos(String value) {
        if (value == null || value.length() < 2 || value.length() > MAX_DIGITS + 1) {
            return -1;
        }
        // 1*DIGIT like delta-seconds; eight digits stay far below its saturation.
        long amount = FieldSyntax.deltaSeconds(value, 0, value.length() - 1);
        if (amount == FieldSyntax.INVALID_DELTA) {
            return -1;
        }
        long unitNanos = switch (value.charAt(value.length() - 1)) {
            case 'H' -> 3_600_000_000_000L;
            case 'M' -> 60_000_000_000L;
            case 'S' -> 1_000_000_000L;
            case 'm' -> 1_000_000L;
            case 'u' -> 1_000L;
            case 'n' -> 1L;
            default -> -1;
        };
        // 99,999,999 hours does not fit in a long of nanoseconds: such a deadline is as good as none.
        return unitNanos < 0 ? -1 : amount > Long.MAX_VALUE / unitNanos ? Long.MAX_VALUE : amount * unitNanos;
    }
}
