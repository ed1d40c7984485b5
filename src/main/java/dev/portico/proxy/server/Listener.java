package dev.portico.proxy.server;

import dev.portico.proxy.core.DataPlaneSettings;
import dev.portico.proxy.server.tls.TlsTermination;

import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;

/**
 * One address the data plane accepts clients on, the protocols it speaks there and how it terminates TLS
 * ({@code tls} null: cleartext; TLS is an option of the serving, not a protocol of its own). Every listener feeds the
 * same pipeline: what differs between them is how connections are accepted and read ({@link ListenerServing}), never
 * what happens to a request once it is read.
 *
 * @param name names the listener in the errors that refuse it
 * @param host the address to bind ({@code 0.0.0.0} for every IPv4 interface)
 * @param port the TCP port; {@code 0} picks a free one, shared by every event loop's instance of the listener
 */
public record Listener(String name, String host, int port, Set<ListenerProtocol> protocols, TlsTermination tls) {

    private static final Set<ListenerProtocol> BOTH = Set.of(ListenerProtocol.HTTP_1_1, ListenerProtocol.HTTP_2);

    public Listener {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(host, "host");
        protocols = Set.copyOf(protocols);
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("Listener " + name + ": port " + port + " is not a TCP port");
        }
        // HTTP/2 is served beside HTTP/1.1, never alone: a client that offers no h2 by ALPN, or sends no HTTP/2
        // preface in cleartext, is read as HTTP/1.1 (nginx and Envoy serve the same pair).
        if (!protocols.equals(Set.of(ListenerProtocol.HTTP_1_1)) && !protocols.equals(BOTH)) {
            throw new IllegalArgumentException("Listener " + name + ": a listener speaks HTTP/1.1, or HTTP/1.1 and "
                    + "HTTP/2, not " + protocols + (tls == null ? "" : " over TLS"));
        }
    }

    /** A cleartext HTTP/1.1 listener. */
    public static Listener http1Cleartext(String name, String host, int port) {
        return new Listener(name, host, port, Set.of(ListenerProtocol.HTTP_1_1), null);
    }

    /** An HTTP/1.1 listener over TLS. */
    public static Listener http1Tls(String name, String host, int port, TlsTermination tls) {
        return new Listener(name, host, port, Set.of(ListenerProtocol.HTTP_1_1), Objects.requireNonNull(tls, "tls"));
    }

    /** Whether clients may speak HTTP/2 here (ALPN {@code h2} over TLS, prior knowledge in cleartext). */
    public boolean http2() {
        return protocols.contains(ListenerProtocol.HTTP_2);
    }

    /**
     * The data plane's listeners as {@code portico.dataplane.*} defines them: cleartext HTTP/1.1 (and h2c with prior
     * knowledge when {@code h2c} is on) on {@code host} and {@code port}, then HTTP/1.1 and HTTP/2 over TLS on
     * {@code tls-port} unless it is {@code -1}; {@code tls} is asked only then (it resolves the engine, which loads a
     * native library).
     */
    static List<Listener> of(DataPlaneSettings settings, Supplier<TlsTermination> tls) {
        Listener http = new Listener("http", settings.host(), settings.port(),
                settings.h2c() ? BOTH : Set.of(ListenerProtocol.HTTP_1_1), null);
        if (settings.tlsPort() < 0) {
            return List.of(http);
        }
        return List.of(http, new Listener("https", settings.host(), settings.tlsPort(), BOTH, tls.get()));
    }
}
