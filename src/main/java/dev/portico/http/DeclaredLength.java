package dev.portico.http;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.vertx.core.MultiMap;

/** The body length a message head declares with {@code Content-Length}. */
public final class DeclaredLength {

    private DeclaredLength() {
    }

    /** The declared length, or -1 when there is none or it does not parse (Netty refuses those on the wire). */
    public static long of(MultiMap headers) {
        String value = headers.get(HttpHeaderNames.CONTENT_LENGTH);
        if (value == null) {
            return -1;
        }
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
