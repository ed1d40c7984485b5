package dev.portico.proxy.server;

/**
 * A protocol a {@link Listener} speaks to its clients. HTTP/2 is served beside HTTP/1.1 on the same server: over TLS
 * ALPN picks one per connection, in cleartext the client's first bytes do (the HTTP/2 preface, prior knowledge).
 */
public enum ListenerProtocol {
    /** RFC 9112 over TCP, read through the strict request guard ({@code proxy.server.http1}). */
    HTTP_1_1,
    /** RFC 9113: {@code h2} by ALPN over TLS, or {@code h2c} with prior knowledge in cleartext. */
    HTTP_2
}
