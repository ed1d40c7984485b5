package dev.portico.proxy.server;

/**
 * A protocol a {@link Listener} speaks to its clients. Only HTTP/1.1 exists today (with HTTP/1.0 clients served by
 * it); HTTP/2 joins as a constant and its own {@link ListenerServing} without the pipeline changing.
 */
public enum ListenerProtocol {
    /** RFC 9112 over TCP, read through the strict request guard ({@code proxy.server.http1}). */
    HTTP_1_1
}
