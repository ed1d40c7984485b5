package dev.portico.telemetry.accesslog;

/**
 * The values of one access-log line, gathered from a finished request. Mutable and reused: each event loop owns
 * one, refills it for every request and formats it at once, so logging allocates nothing per request. String
 * fields hold what the request carried, unescaped; {@code null} means absent.
 *
 * <p>HTTP fields ({@link #method}, {@link #userAgent}, {@link #referrer}) are what Vert.x decoded as ISO-8859-1:
 * every char stands for one byte on the wire. The formatters treat them that way. The {@link #target} is text: the
 * decoder reads it as UTF-8 (which the strict HTTP/1.1 reader has checked), and it is written as UTF-8.
 */
final class AccessRecord {

    /** Longest request target logged, in bytes; longer ones end in {@code ...}. */
    static final int MAX_TARGET = 2048;
    static final int MAX_USER_AGENT = 512;
    static final int MAX_REFERRER = 1024;
    static final int MAX_METHOD = 32;
    /** For values Portico produced or validated itself (ids, names, addresses, codes): a cap in case one is not. */
    static final int MAX_OTHER = 256;

    /** When the request head arrived, in epoch milliseconds. */
    long timeMillis;
    String requestId;
    /** The vhost's name, or null when no vhost serves the request. */
    String vhost;
    String client;
    String method;
    /** The request target in origin form ({@code /path?query}). */
    String target;
    /** Replace the query of {@link #target} and {@link #referrer} with {@code REDACTED}. */
    boolean redactQuery;
    /** {@code HTTP/1.1}, {@code HTTP/1.0}, or null when unknown. */
    String protocol;
    int status;
    long bytesIn;
    long bytesOut;
    long durationNanos;
    /** From starting the upstream attempt to its response head; negative when no response head arrived. */
    long upstreamNanos = -1;
    /** The upstream origin of the last attempt ({@code http://10.0.0.5:8080}), or null. */
    String upstream;
    /** The local-reply or failure reason code, or null for a normally answered request. */
    String reason;
    String userAgent;
    String referrer;
    /** {@code https} for a request over TLS, else {@code http}. */
    String scheme;
    /** The connection's TLS protocol and cipher ({@code TLSv1.3/TLS_AES_128_GCM_SHA256}), or null on cleartext. */
    String tls;
    /** The server name the client's TLS handshake asked for (SNI), or null (cleartext, or none sent). */
    String sni;
    /** Upstream attempts the request took: 0 when it did not go upstream, more than 1 when it was retried. */
    int attempts;
    /** The name of the vhost's route that took the request, or null when none did. */
    String route;
}
