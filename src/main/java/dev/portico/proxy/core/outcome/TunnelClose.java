package dev.portico.proxy.core.outcome;

/**
 * Why a tunnel (a connection switched to another protocol, such as WebSocket, after a {@code 101}) closed; counted
 * per vhost in the metrics and written in the access log.
 */
public enum TunnelClose {
    /** The client closed (or shut down) its side: the upstream side is closed after what was in flight. */
    CLIENT_CLOSED("client_closed"),
    /** The upstream closed its side: the client side is closed after what was in flight. */
    UPSTREAM_CLOSED("upstream_closed"),
    /** A socket failed (a reset, a write to a closed peer). */
    ERROR("error"),
    /** No byte went either way for the vhost's {@code websocketIdleTimeout}. */
    IDLE_TIMEOUT("idle_timeout"),
    /** The tunnel's vhost was deleted or disabled. */
    VHOST_REMOVED("vhost_removed"),
    /** The data plane shut down and the drain grace passed. */
    SHUTDOWN("shutdown");

    private final String code;

    TunnelClose(String code) {
        this.code = code;
    }

    public String code() {
        return code;
    }
}
