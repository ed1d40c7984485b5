package dev.portico.proxy.core;

import io.vertx.core.MultiMap;

/**
 * The fields HTTP/1.1 uses to manage its connection, which HTTP/2 forbids in a message (RFC 9113 section 8.2.2):
 * an HTTP/2 peer treats a message carrying one as malformed.
 */
final class ConnectionSpecificFields {

    private static final String[] NAMES = {"connection", "keep-alive", "proxy-connection", "transfer-encoding",
        "upgrade"};

    private ConnectionSpecificFields() {
    }

    static void removeFrom(MultiMap headers) {
        for (String name : NAMES) {
            headers.remove(name);
        }
    }
}
