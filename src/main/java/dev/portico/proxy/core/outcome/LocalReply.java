package dev.portico.proxy.core.outcome;

import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonObject;

/**
 * The body and head fields of a reply Portico makes itself: RFC 9457 problem details, with the stable
 * {@link LocalReason} code that logs and metrics reuse and the request id the client can quote. Never stored by a
 * cache ({@code no-store}): a transient failure must not outlive itself.
 */
public final class LocalReply {

    private static final String PROBLEM_JSON = "application/problem+json";

    private LocalReply() {
    }

    /** The problem document for {@code reason}. */
    public static Buffer problem(LocalReason reason, String detail, String requestId) {
        return new JsonObject()
                .put("type", "urn:portico:problem:" + reason.code())
                .put("title", reason.title())
                .put("status", reason.status())
                .put("detail", detail)
                .put("reason", reason.code())
                .put("requestId", requestId)
                .toBuffer();
    }

    /** Sets the fields of a problem reply of {@code length} bytes; {@code close} asks the client to close. */
    public static void describe(MultiMap headers, int length, boolean close) {
        headers.set(HttpHeaders.CONTENT_TYPE, PROBLEM_JSON);
        headers.set(HttpHeaders.CACHE_CONTROL, "no-store");
        headers.set(HttpHeaders.CONTENT_LENGTH, Integer.toString(length));
        if (close) {
            headers.set(HttpHeaders.CONNECTION, HttpHeaders.CLOSE);
        }
    }

    /** Sets the framing fields of a configured reply of {@code length} bytes, whose type the caller set. */
    public static void describeFixed(MultiMap headers, int length, boolean close) {
        headers.set(HttpHeaders.CONTENT_LENGTH, Integer.toString(length));
        if (close) {
            headers.set(HttpHeaders.CONNECTION, HttpHeaders.CLOSE);
        }
    }

    /** Sets the fields of a reply without a body (a redirect); {@code close} asks the client to close. */
    public static void describeEmpty(MultiMap headers, boolean close) {
        headers.set(HttpHeaders.CONTENT_LENGTH, "0");
        if (close) {
            headers.set(HttpHeaders.CONNECTION, HttpHeaders.CLOSE);
        }
    }
}
