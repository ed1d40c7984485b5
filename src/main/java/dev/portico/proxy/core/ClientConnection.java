package dev.portico.proxy.core;

/**
 * What an exchange may ask of the client connection its listener serves it on, beyond the request and response:
 * the listener's protocol decides how (HTTP/1.1's guard lingers on a half-read body; another protocol would reset a
 * stream). Runs on the request's event loop.
 */
public interface ClientConnection {

    /**
     * The reply just sent leaves the request unread: close the connection once the reply is out, without destroying
     * it while the client may still be sending.
     */
    void lingerThenClose();

    /** The exchange was accounted: the connection may go on to its next request. */
    void completed(Exchange exchange);
}
