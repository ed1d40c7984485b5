package dev.portico.proxy.server.http1;

/**
 * The decoder result of the marker request {@link RequestGuard} queues when a client shuts down its sending side
 * between requests: Vert.x hands it over after every response before it, and the connection is then closed. Not an
 * error, and never answered or accounted.
 */
public final class ClientHalfClosed extends Exception {

    static final ClientHalfClosed INSTANCE = new ClientHalfClosed();

    private ClientHalfClosed() {
        super("the client half-closed the connection", null, false, false);
    }
}
