package dev.portico.proxy.core.outcome;

/**
 * Why Portico answered a request itself, or why it could not finish one. The code is what the access log,
 * the metrics and the problem+json body all show, so an operator can follow one failure through all three.
 */
public enum LocalReason {
    BAD_REQUEST(400, "bad_request", "Bad Request"),
    /**
     * The request's length cannot be determined reliably (RFC 9112 section 6.3): a {@code Transfer-Encoding} whose
     * final coding is not {@code chunked}, {@code chunked} twice, {@code Content-Length} with
     * {@code Transfer-Encoding}, a malformed {@code Content-Length}, a broken chunked body, or a {@code Connection}
     * header that names a framing field. The smuggling attempts an operator wants to see.
     */
    INVALID_FRAMING(400, "invalid_framing", "Bad Request"),
    /** A request head did not arrive within the client header timeout (nginx {@code client_header_timeout}). */
    REQUEST_HEADER_TIMEOUT(408, "request_header_timeout", "Request Timeout"),
    /** {@code chunked} comes last, but other transfer codings precede it: Portico decodes none (RFC 9112 6.1). */
    UNSUPPORTED_TRANSFER_CODING(501, "unsupported_transfer_coding", "Not Implemented"),
    /** An HTTP/1 request line with a major version other than 1 (RFC 9110 section 15.6.6). */
    HTTP_VERSION_NOT_SUPPORTED(505, "http_version_not_supported", "HTTP Version Not Supported"),
    MISSING_HOST(400, "missing_host", "Bad Request"),
    INVALID_HOST(400, "invalid_host", "Bad Request"),
    URI_TOO_LONG(414, "uri_too_long", "URI Too Long"),
    HEADERS_TOO_LARGE(431, "request_header_too_large", "Request Header Fields Too Large"),
    /** The request body is over the vhost's {@code maxRequestBody} (RFC 9110 section 15.5.14). */
    REQUEST_BODY_TOO_LARGE(413, "request_body_too_large", "Content Too Large"),
    /**
     * The vhost's {@code access} rules refuse the client address (nginx {@code deny}, Traefik's IPAllowList): nothing
     * of the request was read, served from the cache or forwarded.
     */
    ACCESS_DENIED(403, "access_denied", "Forbidden"),
    /**
     * The vhost or route asks for credentials (basic auth, a bearer token) and the request carried none: 401 with
     * {@code WWW-Authenticate}.
     */
    AUTH_REQUIRED(401, "auth_required", "Unauthorized"),
    /** The request's credentials were refused: a wrong password, a token that is forged, expired or not for us. */
    AUTH_FAILED(401, "auth_failed", "Unauthorized"),
    /**
     * The forward-auth service could not decide (it is down, too slow, or answered something that is neither 2xx nor
     * 401/403): the request is refused, never let through (fail closed).
     */
    FORWARD_AUTH_ERROR(502, "forward_auth_error", "Bad Gateway"),
    /** The forward-auth service did not answer within its {@code timeout}: refused (fail closed). */
    FORWARD_AUTH_TIMEOUT(504, "forward_auth_timeout", "Gateway Timeout"),
    /**
     * The forward-auth service refused the request (401, 403) or sent the client to log in (a redirect): its status,
     * authentication fields and body are relayed as it gave them. The status here is only the default.
     */
    FORWARD_AUTH_DENIED(401, "forward_auth_denied", "Unauthorized"),
    /**
     * A vhost's or route's JWT check has no key set to verify with: its JWKS URL has not answered with a usable one
     * since the vhost was set up. The token may be fine, so this is not a 401 that would send the client to log in.
     */
    JWKS_UNAVAILABLE(503, "jwks_unavailable", "Service Unavailable"),
    /** The client's token bucket of the vhost's or route's {@code rateLimit} is empty: 429 with Retry-After. */
    RATE_LIMITED(429, "rate_limited", "Too Many Requests"),
    /**
     * Too many password checks of basic auth are waiting for the few workers that run them: refused at once with
     * {@code Retry-After} so a flood of guesses cannot queue unbounded work.
     */
    AUTH_BUSY(503, "auth_busy", "Service Unavailable"),
    /**
     * A CORS preflight ({@code OPTIONS} with {@code Origin} and {@code Access-Control-Request-Method}) the vhost's or
     * route's {@code cors} allows, answered by Portico: 204 with the {@code Access-Control-Allow-*} fields.
     */
    CORS_PREFLIGHT(204, "cors_preflight", "No Content"),
    /** A CORS preflight from an origin, or for a method or header, the vhost's or route's {@code cors} does not allow. */
    CORS_REFUSED(403, "cors_refused", "Forbidden"),
    /** A route's {@code respond}: Portico answers with the route's fixed status and body. */
    ROUTE_RESPONSE(200, "route_response", "OK"),
    /** A route's {@code redirect}: Portico answers with the route's redirect. */
    ROUTE_REDIRECT(308, "route_redirect", "Permanent Redirect"),
    METHOD_NOT_ALLOWED(405, "method_not_allowed", "Method Not Allowed"),
    VHOST_NOT_FOUND(404, "vhost_not_found", "Not Found"),
    /**
     * Over TLS, the {@code Host} routes to another vhost than the server name the connection's handshake asked for
     * (SNI): the certificate was chosen for that other vhost (RFC 9110 section 15.5.20; domain fronting).
     */
    MISDIRECTED_REQUEST(421, "misdirected_request", "Misdirected Request"),
    /** A vhost with {@code tls.httpsRedirect} sends a cleartext request to its https URL (RFC 9110 15.4.9). */
    HTTPS_REDIRECT(308, "https_redirect", "Permanent Redirect"),
    /** A vhost with {@code wwwRedirect} sends a request for the other form of a name to the canonical one. */
    WWW_REDIRECT(308, "www_redirect", "Permanent Redirect"),
    VHOST_DISABLED(404, "vhost_disabled", "Not Found"),
    /**
     * The request's vhost was deleted or disabled while its response was still streaming (server-sent events, a
     * gRPC stream): it ran on for {@code portico.dataplane.shutdown-grace}, then was cut (stream reset, HTTP/1.1
     * connection closed).
     */
    VHOST_REMOVED(503, "vhost_removed", "Service Unavailable"),
    LOOP_DETECTED(508, "loop_detected", "Loop Detected"),
    /**
     * More requests in flight on this instance than {@code portico.dataplane.max-in-flight}: refused with
     * {@code Retry-After} before anything of the vhost runs (Envoy's overload manager).
     */
    OVERLOADED(503, "overloaded", "Service Unavailable"),
    /** More requests in flight for the vhost than its {@code maxInFlight}, refused with {@code Retry-After}. */
    VHOST_OVERLOADED(503, "vhost_overloaded", "Service Unavailable"),
    /**
     * Not a reply: {@code portico.dataplane.max-connections} was reached, so accepting paused, or a connection accepted
     * over it was closed at once.
     */
    CONNECTION_LIMIT(503, "connection_limit", "Service Unavailable"),
    NO_HEALTHY_UPSTREAM(503, "no_healthy_upstream", "Service Unavailable"),
    /**
     * The vhost's circuit breaker is open (too large a share of its requests failed) or half-open with its trial
     * requests under way: refused at once with {@code Retry-After}, nothing sent upstream.
     */
    CIRCUIT_OPEN(503, "circuit_open", "Service Unavailable"),

    /**
     * Every connection to the chosen upstream was busy and its queue full ({@code upstreamLimits.maxPending}), or the
     * request waited in it for {@code upstreamLimits.queueTimeout}: Portico's own limit, answered with
     * {@code Retry-After}; nothing reached the upstream, whose health does not hear of it.
     */
    UPSTREAM_OVERLOADED(503, "upstream_overloaded", "Service Unavailable"),
    UPSTREAM_CONNECT_FAILURE(502, "upstream_connect_failure", "Bad Gateway"),
    /**
     * The TLS handshake with an {@code https://} upstream failed: its certificate is not trusted or does not name the
     * host (or {@code tls.serverName}), it refused Portico's client certificate, or no protocol or cipher is shared.
     */
    UPSTREAM_TLS_ERROR(502, "upstream_tls_error", "Bad Gateway"),
    UPSTREAM_CONNECT_TIMEOUT(504, "upstream_connect_timeout", "Gateway Timeout"),
    UPSTREAM_RESPONSE_TIMEOUT(504, "upstream_response_timeout", "Gateway Timeout"),
    UPSTREAM_PROTOCOL_ERROR(502, "upstream_protocol_error", "Bad Gateway"),
    /**
     * A gRPC call's own deadline ({@code grpc-timeout}) passed and the upstream cancelled the call, as gRPC servers
     * do then: the client's deadline, not an upstream failure. gRPC status DEADLINE_EXCEEDED; the upstream's health
     * does not hear of it.
     */
    GRPC_DEADLINE_EXCEEDED(504, "grpc_deadline_exceeded", "Gateway Timeout"),
    /** {@code Cache-Control: only-if-cached} and nothing usable is stored (RFC 9111 section 5.2.1.7). */
    NOT_CACHED(504, "not_cached", "Gateway Timeout"),
    /**
     * A precondition of the request ({@code If-Match}, {@code If-Unmodified-Since}) failed on a stored response or a
     * static file.
     */
    PRECONDITION_FAILED(412, "precondition_failed", "Precondition Failed"),
    /** A vhost without upstreams has no file for the request path (or the path is refused: traversal, dotfiles). */
    FILE_NOT_FOUND(404, "file_not_found", "Not Found"),
    /** No range of the request's {@code Range} overlaps the static file (RFC 9110 section 15.5.17). */
    RANGE_NOT_SATISFIABLE(416, "range_not_satisfiable", "Range Not Satisfiable"),
    /** The upstream failed after the response head was sent: the client connection is reset. */
    UPSTREAM_RESET(502, "upstream_reset", "Bad Gateway"),
    /**
     * The client sent nothing of its request body for {@code portico.dataplane.client-body-timeout} (nginx
     * {@code client_body_timeout}): 408 and the connection closed, or a reset once the response has begun.
     */
    CLIENT_BODY_TIMEOUT(408, "client_body_timeout", "Request Timeout"),
    /**
     * The client took none of the response body for {@code portico.dataplane.client-send-timeout} (nginx
     * {@code send_timeout}): it stopped reading, or as an HTTP/2 client never opened its flow-control window. The
     * response is cut (the stream reset, an HTTP/1.1 connection closed) and the upstream let go.
     */
    CLIENT_SEND_TIMEOUT(408, "client_send_timeout", "Request Timeout"),
    /** The client went away before the response was complete (nginx logs 499). */
    CLIENT_ABORTED(499, "client_aborted", "Client Closed Request"),
    INTERNAL_ERROR(500, "internal_error", "Internal Server Error"),
    /*
     * HTTP/2 connections closed for an attack on the protocol: no response is sent, the connection ends with GOAWAY
     * (ENHANCE_YOUR_CALM or PROTOCOL_ERROR); the status is what the access log and stats show for it.
     */
    /** More stream resets than {@code portico.dataplane.http2.max-resets-per-window} allows (CVE-2023-44487). */
    H2_RAPID_RESET(400, "h2_rapid_reset", "Bad Request"),
    /** A header block in many tiny CONTINUATION frames (CVE-2024-27316). */
    H2_CONTINUATION_FLOOD(400, "h2_continuation_flood", "Bad Request"),
    /**
     * A header block whose decoded list is far over the limit (an HPACK bomb: small on the wire, huge once
     * decompressed); one only a little over it gets 431 on its stream.
     */
    H2_HEADER_LIST_TOO_LARGE(431, "h2_header_list_too_large", "Request Header Fields Too Large"),
    /**
     * Control frames (PING, SETTINGS) faster than the client reads their acknowledgements, or empty DATA frames
     * without end: a flood that would queue answers without bound.
     */
    H2_FRAME_FLOOD(400, "h2_frame_flood", "Bad Request"),
    /** Any other HTTP/2 connection error the client caused (a frame out of place, a bad size, bad HPACK). */
    H2_PROTOCOL_ERROR(400, "h2_protocol_error", "Bad Request");

    private final int status;
    private final String code;
    private final String title;

    LocalReason(int status, String code, String title) {
        this.status = status;
        this.code = code;
        this.title = title;
    }

    /** The HTTP status a local reply for this reason carries. */
    public int status() {
        return status;
    }

    /** Stable snake_case code used in logs, metrics and problem types. */
    public String code() {
        return code;
    }

    public String title() {
        return title;
    }
}
