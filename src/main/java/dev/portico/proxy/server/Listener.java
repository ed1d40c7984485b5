package dev.portico.proxy.server;

import dev.portico.proxy.core.DataPlaneSettings;

import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One address the data plane accepts clients on, the protocols it speaks there and how it terminates TLS
 * ({@code tls} null: cleartext). Every listener feeds the same pipeline: what differs between them is how connections
 * are accepted and read ({@link ListenerServing}), never what happens to a request once it is read.
 *
 * @param name names the listener in the errors that refuse it
 * @param host the address to bind ({@code 0.0.0.0} for every IPv4 interface)
 * @param port the TCP port; {@code 0} picks a free one, shared by every event loop's instance of the listener
 */
public record Listener(String name, String host, int port, Set<ListenerProtocol> protocols, TlsSettings tls) {

    public Listener {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(host, "host");
        protocols = Set.copyOf(protocols);
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("Listener " + name + ": port " + port + " is not a TCP port");
        }
        if (!protocols.equals(Set.of(ListenerProtocol.HTTP_1_1))) {
            throw new IllegalArgumentException("Listener " + name + ": only HTTP/1.1 listeners exist, not "
                    + protocols);
        }
        // Refused rather than ignored: a listener meant to be TLS must never come up in cleartext.
        if (tls != null) {
            throw new IllegalArgumentException("Listener " + name + ": TLS termination is not implemented yet");
        }
    }

    /** A cleartext HTTP/1.1 listener. */
    public static Listener http1Cleartext(String name, String host, int port) {
        return new Listener(name, host, port, Set.of(ListenerProtocol.HTTP_1_1), null);
    }

    /**
     * The data plane's listeners as {@code portico.dataplane.*} defines them: today exactly one, cleartext HTTP/1.1
     * on {@code host} and {@code port}.
     */
    static List<Listener> of(DataPlaneSettings settings) {
        return List.of(http1Cleartext("http", settings.host(), settings.port()));
    }
}
