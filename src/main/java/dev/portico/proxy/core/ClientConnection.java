package dev.portico.proxy.core;

import io.vertx.core.MultiMap;

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

    /**
     * Sends an upstream's interim (1xx) response to the client ahead of the final one, when the client's protocol
     * takes it (RFC 9110 section 15.2: 103 Early Hints lets a browser start loading while the origin still works,
     * 102 Processing tells it the request is alive), with only its end-to-end fields and the proxy's {@code Via}.
     * The caller checks that the final response head is not written yet and that the client did not leave.
     *
     * @param status  the interim status, 1xx but not 101 (a protocol switch is never forwarded as interim)
     * @param headers the upstream's fields as received, hop-by-hop ones included: they are left out here
     * @param via     the {@code Via} value naming this proxy and the protocol the upstream answered with
     * @return whether it was sent
     */
    boolean sendInterim(int status, String reasonPhrase, MultiMap headers, CharSequence via);

    /**
     * The client shut down its sending side while the exchange in progress waits for its response, which it will
     * still get; a client that closed its whole socket looks the same until something is written to it. Sends what
     * the protocol allows as a harmless probe, so a closed socket answers with a reset and the request is cancelled
     * like any client that left. The caller checks that no part of the response is written yet.
     *
     * @return whether a probe was sent
     */
    boolean probeHalfClosed();

    /**
     * The connection is about to switch protocols (a {@code 101} goes out next): from here on its bytes are not
     * HTTP/1.1, so nothing may read them as requests, and its lifetime is the tunnel's (no HTTP idle timeout, and a
     * client's FIN ends it). Call on the connection's loop before the {@code 101} is written. Only HTTP/1.1
     * connections switch (an upgrade is never forwarded for another protocol): nothing to do elsewhere.
     */
    default void switchedProtocols() {
    }

    /**
     * What the TLS handshake of this connection settled (server name, protocol, cipher), or null on a cleartext
     * connection.
     */
    default ClientTls tls() {
        return null;
    }
}
