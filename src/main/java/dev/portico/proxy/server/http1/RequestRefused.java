package dev.portico.proxy.server.http1;

import dev.portico.proxy.core.outcome.LocalReason;

/**
 * Why the strict HTTP/1.1 reader stopped a connection's requests: the local reply that answers it (400, 408, 414, 431,
 * 501, 505), with a detail naming what was wrong. Travels as the failed decoder result of a request Vert.x hands to
 * the invalid-request handler, or is handed to the exchange whose body broke. No stack trace: it is a verdict on
 * the client's bytes, not a fault in Portico.
 */
public final class RequestRefused extends Exception {

    private final LocalReason reason;

    RequestRefused(LocalReason reason, String detail) {
        super(detail, null, false, false);
        this.reason = reason;
    }

    /** The reason (and status) of the local reply. */
    public LocalReason reason() {
        return reason;
    }

    /** What was wrong, for the problem document's {@code detail}. */
    public String detail() {
        return getMessage();
    }
}
