package dev.portico.proxy.core.outcome;

import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpHeaders;

import java.nio.charset.StandardCharsets;

/**
 * A local reply to a gRPC request: gRPC clients read the status from {@code grpc-status}, not from the HTTP status,
 * and cannot parse a problem document. So the reply is HTTP 200, {@code content-type: application/grpc} and a
 * trailers-only response (the gRPC over HTTP/2 protocol's "Trailers-Only": the status fields in the one HEADERS
 * frame) whose {@code grpc-message} carries the {@link LocalReason} code, the detail and the request id.
 */
public final class GrpcReply {

    public static final int DEADLINE_EXCEEDED = 4;
    public static final int UNAVAILABLE = 14;

    private GrpcReply() {
    }

    /** Whether a request's {@code content-type} is gRPC's ({@code application/grpc}, {@code application/grpc+proto}...). */
    public static boolean isGrpc(String contentType) {
        return contentType != null && contentType.regionMatches(true, 0, "application/grpc", 0, 16)
                && (contentType.length() == 16 || contentType.charAt(16) == '+' || contentType.charAt(16) == ';');
    }

    /**
     * The gRPC status code for {@code reason}, from its HTTP status as gRPC's own HTTP-to-gRPC mapping does, with
     * timeouts made DEADLINE_EXCEEDED and a failed or missing upstream UNAVAILABLE (clients retry those).
     */
    public static int status(LocalReason reason) {
        return switch (reason.status()) {
            case 408, 504 -> DEADLINE_EXCEEDED;
            case 502, 503 -> UNAVAILABLE;
            case 401 -> 16; // UNAUTHENTICATED
            case 403 -> 7; // PERMISSION_DENIED
            case 404, 405, 501 -> 12; // UNIMPLEMENTED: no route for the method's path
            case 413, 429, 431 -> 8; // RESOURCE_EXHAUSTED
            case 499 -> 1; // CANCELLED
            case 400, 414, 421, 505, 508, 500 -> 13; // INTERNAL: a malformed request or Portico's own failure
            default -> 2; // UNKNOWN
        };
    }

    /**
     * Sets the head of the trailers-only reply for {@code reason}.
     *
     * @param http1 whether the client speaks HTTP/1.x, which needs a {@code Content-Length} to end the response
     * @param close asks an HTTP/1.x client to close
     */
    public static void describe(MultiMap headers, LocalReason reason, String detail, String requestId, boolean http1,
                                boolean close) {
        headers.set(HttpHeaders.CONTENT_TYPE, "application/grpc");
        headers.set("grpc-status", Integer.toString(status(reason)));
        headers.set("grpc-message", percentEncoded(reason.code() + ": " + detail + " (request id " + requestId + ")"));
        headers.set(HttpHeaders.CACHE_CONTROL, "no-store");
        if (http1) {
            headers.set(HttpHeaders.CONTENT_LENGTH, "0");
            if (close) {
                headers.set(HttpHeaders.CONNECTION, HttpHeaders.CLOSE);
            }
        }
    }

    /** {@code grpc-message} is percent-encoded UTF-8: bytes outside 0x20-0x7E and {@code %} itself. */
    private static String percentEncoded(String message) {
        StringBuilder out = new StringBuilder(message.length());
        for (byte b : message.getBytes(StandardCharsets.UTF_8)) {
            if (b >= 0x20 && b <= 0x7E && b != '%') {
                out.append((char) b);
            } else {
                out.append('%').append(Character.toUpperCase(Character.forDigit((b >> 4) & 0xF, 16)))
                        .append(Character.toUpperCase(Character.forDigit(b & 0xF, 16)));
            }
        }
        return out.toString();
    }
}
