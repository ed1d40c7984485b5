package dev.portico.proxy.upstream.balance;

/** How one attempt on an upstream went, as a selector hears it. */
public enum AttemptOutcome {
    /** No connection could be had: nothing was sent, another upstream may be tried. */
    CONNECT_FAILED,
    /** The request went out but no usable response head came back. */
    RESPONSE_FAILED,
    /** A response head came back. */
    RESPONDED
}
