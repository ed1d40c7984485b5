package dev.portico.proxy.core;

/**
 * What the TLS handshake of one client connection settled: read once per connection, when its first request
 * arrives, and kept with the connection, so requests on it read fields instead of asking the engine's session.
 * Cleartext connections have none. Confined to the connection's event loop.
 */
public final class ClientTls {

    private final String serverName;
    private final String protocol;
    private final String cipherSuite;
    private final String description;
    /** The snapshot {@link #serverNameVhost} was looked up in: routing changes only with a new snapshot. */
    private Object routedIn;
    private CompiledVhost serverNameVhost;

    /**
     * @param serverName  the host name the client asked for (SNI), lower case; null when it sent none
     * @param protocol    e.g. {@code TLSv1.3}
     * @param cipherSuite e.g. {@code TLS_AES_128_GCM_SHA256}
     */
    public ClientTls(String serverName, String protocol, String cipherSuite) {
        this.serverName = serverName;
        this.protocol = protocol;
        this.cipherSuite = cipherSuite;
        this.description = protocol + "/" + cipherSuite;
    }

    /** The host name the client asked for in its handshake (SNI), lower case; null when it sent none. */
    public String serverName() {
        return serverName;
    }

    public String protocol() {
        return protocol;
    }

    public String cipherSuite() {
        return cipherSuite;
    }

    /** {@code protocol/cipherSuite}, as the access log shows it: {@code TLSv1.3/TLS_AES_128_GCM_SHA256}. */
    public String description() {
        return description;
    }

    /** Whether {@link #serverNameVhost()} holds the lookup made in {@code snapshot}. */
    public boolean routedIn(Object snapshot) {
        return routedIn == snapshot;
    }

    /** The vhost the server name routed to in the snapshot last {@link #routed}; null when none serves it. */
    public CompiledVhost serverNameVhost() {
        return serverNameVhost;
    }

    /** Keeps where the server name routes in {@code snapshot}, for the connection's later requests. */
    public void routed(Object snapshot, CompiledVhost vhost) {
        this.routedIn = snapshot;
        this.serverNameVhost = vhost;
    }
}
