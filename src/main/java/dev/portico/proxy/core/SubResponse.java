package dev.portico.proxy.core;

import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;

/**
 * The answer to a {@link SubRequest}, its body collected in memory; {@code body} is null when it was larger than the
 * request allowed (the body was discarded).
 */
public record SubResponse(int status, String statusMessage, MultiMap headers, Buffer body) {

    /** The same response with another body (a compressed one). */
    public SubResponse withBody(Buffer newBody) {
        return new SubResponse(status, statusMessage, headers, newBody);
    }
}
