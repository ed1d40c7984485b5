package dev.portico.proxy.core.outcome;

import io.netty.channel.ConnectTimeoutException;
import io.vertx.core.http.StreamResetException;

import javax.net.ssl.SSLException;
import java.util.concurrent.TimeoutException;

/**
 * A failure while proxying, typed the way Pingora types them: which side caused it, what the client is told,
 * whether any request may be tried again elsewhere ({@code retryable}: only when nothing of the request has left
 * yet), and which kind of failure it was ({@code retryReason}, matched against a vhost's {@code retry.on}; an
 * idempotent request may be retried after such a failure even when it was sent).
 */
public record ProxyError(LocalReason reason, Source source, boolean retryable, RetryReason retryReason,
                         String detail) {

    /** Who caused the failure. */
    public enum Source {
        CLIENT, UPSTREAM, INTERNAL
    }

    /** Getting a connection failed: nothing was sent, so another upstream may be tried. */
    public static ProxyError connecting(Throwable cause) {
        if (isTimeout(cause)) {
            return new ProxyError(LocalReason.UPSTREAM_CONNECT_TIMEOUT, Source.UPSTREAM, true,
                    RetryReason.CONNECT_FAILURE, "The upstream did not accept a connection in time");
        }
        if (isTlsFailure(cause)) {
            // Retryable as nginx and Envoy treat it: nothing was sent, and another upstream may be set up right.
            return new ProxyError(LocalReason.UPSTREAM_TLS_ERROR, Source.UPSTREAM, true,
                    RetryReason.CONNECT_FAILURE, "The TLS handshake with the upstream failed");
        }
        return new ProxyError(LocalReason.UPSTREAM_CONNECT_FAILURE, Source.UPSTREAM, true,
                RetryReason.CONNECT_FAILURE, "The upstream could not be connected to");
    }

    /**
     * No connection came from the upstream's pool: its queue was full or the wait timed out. Portico's own limit
     * ({@link Source#INTERNAL}, so the upstream's health does not hear of it); nothing was sent, so another upstream
     * may be tried.
     */
    public static ProxyError overloaded(String detail) {
        return new ProxyError(LocalReason.UPSTREAM_OVERLOADED, Source.INTERNAL, true, RetryReason.OVERLOADED, detail);
    }

    /** A handshake failure, however Netty and Vert.x wrapped it (a DecoderException around an SSLException). */
    static boolean isTlsFailure(Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SSLException) {
                return true;
            }
        }
        return false;
    }

    /**
     * The request went out but no usable response head came back: not retryable for any method, since the request may
     * have had effects; an idempotent one may be retried for a timeout or a reset (RFC 9110 section 9.2.2).
     */
    public static ProxyError awaitingResponse(Throwable cause) {
        if (isTimeout(cause)) {
            return new ProxyError(LocalReason.UPSTREAM_RESPONSE_TIMEOUT, Source.UPSTREAM, false,
                    RetryReason.TIMEOUT, "The upstream did not respond in time");
        }
        if (isTlsFailure(cause)) {
            // TLS 1.3: the client's handshake is done before the server has checked its certificate, so an origin
            // refusing it answers the request with an alert.
            return new ProxyError(LocalReason.UPSTREAM_TLS_ERROR, Source.UPSTREAM, false,
                    RetryReason.RESET, "The TLS handshake with the upstream failed");
        }
        return new ProxyError(LocalReason.UPSTREAM_PROTOCOL_ERROR, Source.UPSTREAM, false,
                RetryReason.RESET, "The upstream closed the connection or sent an invalid response");
    }

    static boolean isTimeout(Throwable cause) {
        // A request reset for a timeout fails with the reset, which carries the timeout as its cause.
        Throwable reason = cause instanceof StreamResetException && cause.getCause() != null ? cause.getCause() : cause;
        return reason instanceof TimeoutException || reason instanceof ConnectTimeoutException;
    }
}
