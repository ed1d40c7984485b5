package dev.portico.control.definition;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A vhost as clients write it ({@code POST}, {@code PUT}). Omitted optional fields take their defaults; what is
 * stored and shown back is the normalised form with every default filled in. The read-only fields of a
 * {@link VhostView} are ignored when sent back; concurrency control is {@code If-Match}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
// What GET adds is accepted and ignored on input, so a GET, edit, PUT round trip works.
@JsonIgnoreProperties({"id", "version", "createdAt", "updatedAt", "warnings"})
@Schema(name = "VhostDefinition",
        description = "A virtual host: which host names it answers, which directory it serves and where it forwards")
public record VhostDefinition(
        @Schema(description = "Unique name (case-insensitive), 1-63 of A-Z a-z 0-9 . _ -, starting with a letter or digit",
                example = "shop", required = true)
        String name,
        @Schema(description = "Exact names and *.suffix wildcards, case-insensitive, unique across vhosts",
                example = "[\"shop.example.com\", \"*.shop.example.com\"]", required = true)
        List<String> hostnames,
        @Schema(description = "A disabled vhost keeps its host names but answers 404", defaultValue = "true")
        Boolean enabled,
        @Schema(description = "Send the client's Host to the upstream (otherwise the upstream's own host:port)",
                defaultValue = "true")
        Boolean preserveHost,
        @Schema(description = "1-64 origin servers, shared by the balance policy (round robin by weight unless it says "
                + "otherwise); may be empty (or left out) when static "
                + "is set, and then a path no file matches is a 404")
        List<UpstreamDefinition> upstreams,
        @Schema(description = "Time allowed to get a connection to an upstream, e.g. 500ms, 5s, 1m (at most 1h)",
                defaultValue = "5s")
        String connectTimeout,
        @Schema(description = "Longest wait for the upstream once the request is sent: for the response head, and "
                + "between two reads of the response body, not counting the time a slow client holds the upstream "
                + "back (at most 1h)", defaultValue = "60s")
        String readTimeout,
        @Schema(description = "Largest request body, like nginx's client_max_body_size: a size such as 10MiB or "
                + "1GiB, or unlimited (0 means the same). A larger Content-Length gets 413 before anything goes "
                + "upstream; a chunked body that grows past it is cut (413, or a reset once the response has begun). "
                + "Null or left out: the global default portico.dataplane.max-request-body (1GiB)",
                example = "100MiB")
        String maxRequestBody,
        @Schema(description = "Add X-Content-Type-Options, X-Frame-Options and Referrer-Policy when the upstream did not",
                defaultValue = "true")
        Boolean securityHeaders,
        @Schema(description = "Edits to the request sent upstream; set.Host fixes the Host header")
        HeaderRulesDefinition requestHeaders,
        @Schema(description = "Edits to the response sent to the client, applied after the security headers")
        HeaderRulesDefinition responseHeaders,
        @Schema(description = "Whether and how this vhost's requests are written to the access log")
        AccessLogDefinition accessLog,
        @Schema(description = "The in-memory response cache (RFC 9111 shared cache); off unless enabled")
        CacheDefinition cache,
        @Schema(description = "Serve files from a directory, before (or instead of) the upstreams; null for none")
        @JsonProperty("static")
        StaticDefinition staticFiles,
        @Schema(description = "Compress responses with br, zstd or gzip for clients that accept them; off unless "
                + "enabled")
        CompressionDefinition compression,
        @Schema(description = "HTTPS for this vhost: its certificate, the redirect from http and HSTS; off unless set")
        TlsDefinition tls,
        @Schema(description = "Forward HTTP/1.1 Upgrade requests (WebSocket and other protocols) to http/1.1 "
                + "upstreams and relay the connection byte for byte once the upstream answers 101. When false, "
                + "Upgrade and Connection: upgrade are dropped and the request goes upstream as a plain request, as "
                + "nginx does without proxy_set_header Upgrade. HTTP/2 clients use HTTP/1.1 for WebSocket",
                defaultValue = "true")
        Boolean websocket,
        @Schema(description = "Close a WebSocket (or other upgraded) connection on both sides after it carried no "
                + "byte either way for this long, e.g. 30s, 10m, 1h (at most 7d)", defaultValue = "1h")
        String websocketIdleTimeout,
        @Schema(description = "The most requests of this vhost in flight at once on this instance (streams and "
                + "WebSocket tunnels included); past it a request gets 503 vhost_overloaded with Retry-After. "
                + "Null for no limit", minimum = "1", maximum = "1000000")
        Integer maxInFlight,
        @Schema(description = "When a failed upstream attempt is tried again (on another upstream when there is one), "
                + "and the budget that caps how much load retries add. Null or left out: connect failures are "
                + "retried, up to 3 tries, within a 20% budget")
        RetryDefinition retry,
        @Schema(description = "Active health check of the upstreams; null (left out) for none, and then a new "
                + "upstream takes traffic at once")
        HealthCheckDefinition healthCheck,
        @Schema(description = "Passive ejection of upstreams that answer 5xx or fail in a row; on by default")
        OutlierDetectionDefinition outlierDetection,
        @Schema(description = "A circuit breaker over the upstream group, opened by a share of failed requests and "
                + "half-opened after a cool-down; null (left out) for none")
        CircuitBreakerDefinition circuitBreaker,
        @Schema(description = "How requests are spread over the upstreams: round_robin (smooth weighted, as nginx), "
                + "least_conn (fewest requests in flight for the weight), random_two (the less loaded of two drawn "
                + "at random by weight; see balanceBy), hash (consistent hashing on hashOn: an upstream joining or "
                + "leaving moves about 1/n of the keys) or sticky (a signed cookie names the upstream; see sticky)",
                defaultValue = "round_robin",
                enumeration = {"round_robin", "least_conn", "random_two", "hash", "sticky"})
        String balance,
        @Schema(description = "For random_two only: compare the two by requests in flight (in_flight), or by a "
                + "moving average of the time to the response head times the requests in flight (latency, "
                + "Finagle's peak EWMA)", defaultValue = "in_flight", enumeration = {"in_flight", "latency"})
        String balanceBy,
        @Schema(description = "For hash only: what is hashed: client_address (the TCP peer), path (without the "
                + "query), header:<Name> or cookie:<name>. A request without that header or cookie goes round robin",
                defaultValue = "client_address", example = "cookie:session")
        String hashOn,
        @Schema(description = "For sticky only: the cookie naming the upstream; left out, the defaults")
        StickyDefinition sticky,
        @Schema(description = "An upstream that comes back after passive health took it out ramps from 10% to "
                + "100% of its weight over this time, e.g. 30s (at most 1h; 0s is off). Not for hash",
                defaultValue = "0s")
        String slowStart,
        @Schema(description = "How many requests may wait for a busy upstream's connections, and for how long")
        UpstreamLimitsDefinition upstreamLimits,
        @Schema(description = "Answer a request for the other form of a name with 308 to the same URL (scheme, "
                + "port, path and query kept) on www.name (to_www) or on name (to_apex). Both forms must be in "
                + "hostnames; wildcards are not redirected. Null or left out: off",
                enumeration = {"to_www", "to_apex"}, example = "to_apex")
        String wwwRedirect,
        @Schema(description = "IP rules on the client address; null (left out) lets every client in")
        AccessDefinition access,
        @Schema(description = "HTTP Basic authentication; null (left out) asks for none")
        BasicAuthDefinition basicAuth,
        @Schema(description = "A token-bucket rate limit per client, header, claim or route; null for none")
        RateLimitDefinition rateLimit,
        @Schema(description = "Put every request to an auth service first (nginx auth_request, Caddy forward_auth); "
                + "null (left out): none")
        ForwardAuthDefinition forwardAuth,
        @Schema(description = "Require a bearer JWT verified against a JWKS URL or a static key; null (left out): "
                + "none")
        JwtDefinition jwt,
        @Schema(description = "CORS answered by Portico (preflights before any authentication); null (left out) "
                + "for none: requests and responses pass as they are")
        CorsDefinition cors,
        @Schema(description = "Custom pages for Portico's error replies and, when asked, the upstreams' 5xx; null "
                + "(left out) for none: problem+json")
        ErrorPagesDefinition errorPages,
        @Schema(description = "Path routes tried in order before the vhost's own settings; first match wins; at "
                + "most " + RouteSettingsCheck.MAX_ROUTES)
        List<RouteDefinition> routes) {

    /** The sticky cookie of a vhost with balance sticky. */
    @Schema(name = "Sticky")
    public record StickyDefinition(
            @Schema(description = "The cookie's name", defaultValue = "portico_sticky")
            String cookie,
            @Schema(description = "How long the cookie names the same upstream (its Max-Age and a signed expiry), "
                    + "e.g. 30m, 1h, 7d (at most 365d); renewed once half of it has passed", defaultValue = "1h")
            String ttl) {
    }

    /** Retries of one vhost: which failures, how many tries, the backoff, the body kept and the budget. */
    @Schema(name = "Retry")
    public record RetryDefinition(
            @Schema(description = "Failures retried: connect_failure (no connection could be had; any method, since "
                    + "nothing was sent), timeout (no response head within perTryTimeout), reset (the connection "
                    + "closed or broke before a full response head), or a response status from 400 to 599 as text, "
                    + "such as \"503\". All but connect_failure retry only idempotent methods (GET, HEAD, OPTIONS, "
                    + "TRACE, PUT, DELETE). An empty list never retries",
                    defaultValue = "[\"connect_failure\"]", example = "[\"connect_failure\", \"reset\", \"503\"]")
            List<String> on,
            @Schema(description = "Tries in all, the first included, 1-10 (1 never retries)", defaultValue = "3")
            Integer attempts,
            @Schema(description = "Longest wait for one try's response head once its request is sent, e.g. 2s (at "
                    + "most 1h); null for the vhost's readTimeout")
            String perTryTimeout,
            @Schema(description = "Base of the exponential backoff between tries, with full jitter: a retry waits a "
                    + "random time up to backoff, 2*backoff, 4*backoff... capped at maxBackoff; 0s retries at once "
                    + "(at most 10s)", defaultValue = "25ms")
            String backoff,
            @Schema(description = "Cap of the backoff, at least backoff (at most 1m); left out: 10 times backoff",
                    defaultValue = "250ms")
            String maxBackoff,
            @Schema(description = "Largest request body kept while it streams so that a retry can send it again "
                    + "(at most 16MiB); a larger body is not retried once it began to go out. 0 keeps none",
                    defaultValue = "64KiB")
            String retryBufferSize,
            @Schema(description = "Share of the vhost's requests over the last 10 seconds that retries may add, "
                    + "0 to 1, counted per event loop; a retry past it is not made and is counted in "
                    + "portico_retry_budget_exhausted_total", defaultValue = "0.2")
            Double budget,
            @Schema(description = "Retries allowed in any second beyond the budget's share, per event loop, so a "
                    + "vhost with little traffic can still retry, 0-1000", defaultValue = "10")
            Integer minRetriesPerSecond) {
    }

    /** HTTPS settings of one vhost. */
    @Schema(name = "VhostTls")
    public record TlsDefinition(
            @Schema(description = "Id of an uploaded certificate (POST /api/v1/certificates) covering every host name "
                    + "of the vhost; it is presented to clients asking for those names (SNI)",
                    example = "3f0c8a52-8d4e-4c55-9a51-8f3d0f1a2b3c")
            String certificate,
            @Schema(description = "Obtain and renew the certificate automatically from the ACME directory "
                    + "(portico.acme.*) instead of naming one", defaultValue = "false")
            Boolean acme,
            @Schema(description = "Answer requests on the cleartext listener with 308 to the same URL over https, "
                    + "except ACME challenges under /.well-known/acme-challenge/", defaultValue = "false")
            Boolean httpsRedirect,
            @Schema(description = "Send Strict-Transport-Security on responses over TLS (never over cleartext, per "
                    + "RFC 6797); null for none")
            HstsDefinition hsts) {
    }

    /** RFC 6797 Strict-Transport-Security. */
    @Schema(name = "Hsts")
    public record HstsDefinition(
            @Schema(description = "Seconds browsers keep to https for the host", defaultValue = "31536000")
            Integer maxAge,
            @Schema(description = "Cover every subdomain too", defaultValue = "false")
            Boolean includeSubDomains,
            @Schema(description = "Ask to be preloaded in browsers (needs includeSubDomains and a maxAge of at least "
                    + "31536000)", defaultValue = "false")
            Boolean preload) {
    }

    /** One upstream. */
    @Schema(name = "Upstream")
    public record UpstreamDefinition(
            @Schema(description = "http:// or https:// host, optional :port and base path prepended to every request path",
                    example = "http://10.0.0.5:8080/api", required = true)
            String url,
            @Schema(description = "Relative share of requests, 1-100", defaultValue = "1")
            Integer weight,
            @Schema(description = "How an https:// upstream's certificate is checked; only for https:// URLs. Null or "
                    + "left out: the JVM's trust store and the URL's host")
            UpstreamTlsDefinition tls,
            @Schema(description = "How Portico speaks to the upstream: http/1.1, h2 (HTTP/2 negotiated by ALPN; "
                    + "https:// only) or h2c (HTTP/2 with prior knowledge; http:// only). gRPC upstreams need h2 "
                    + "or h2c", defaultValue = "http/1.1", enumeration = {"http/1.1", "h2", "h2c"})
            String protocol,
            @Schema(description = "Receives requests only when no other (primary) upstream of the vhost is "
                    + "available, like nginx's and HAProxy's backup", defaultValue = "false")
            Boolean backup) {

        public UpstreamDefinition(String url, Integer weight, UpstreamTlsDefinition tls) {
            this(url, weight, tls, null);
        }

        public UpstreamDefinition(String url, Integer weight, UpstreamTlsDefinition tls, String protocol) {
            this(url, weight, tls, protocol, null);
        }

        /** The TLS client settings of one https:// upstream. */
        @Schema(name = "UpstreamTls")
        public record UpstreamTlsDefinition(
                @Schema(description = "PEM text of one or more CA certificates trusted for this upstream instead of "
                        + "the JVM's trust store (like nginx proxy_ssl_trusted_certificate); null for the JVM's",
                        example = "-----BEGIN CERTIFICATE-----\nMIIB...\n-----END CERTIFICATE-----\n")
                String caBundle,
                @Schema(description = "Check the upstream's certificate chain and host name. false trusts any "
                        + "certificate (no caBundle then) and is logged as a warning every time the configuration "
                        + "is loaded", defaultValue = "true")
                Boolean verify,
                @Schema(description = "Host name sent in SNI and checked against the certificate, instead of the "
                        + "URL's host (like nginx proxy_ssl_name); null for the URL's host",
                        example = "api.internal.example")
                String serverName,
                @Schema(description = "Id of an uploaded certificate (POST /api/v1/certificates) presented to the "
                        + "upstream when it asks for a client certificate (mutual TLS); null for none",
                        example = "3f0c8a52-8d4e-4c55-9a51-8f3d0f1a2b3c")
                String clientCertificate) {
        }
    }

    /** Access-log settings of one vhost. */
    @Schema(name = "AccessLog")
    public record AccessLogDefinition(
            @Schema(description = "Write a line for every request of this vhost", defaultValue = "true")
            Boolean enabled,
            @Schema(description = "Replace the query string of the path and of the Referer with REDACTED, for URLs "
                    + "that carry tokens or personal data", defaultValue = "false")
            Boolean redactQuery) {

        /** What a vhost that says nothing gets. */
        static final AccessLogDefinition DEFAULT = new AccessLogDefinition(true, false);

        /** With defaults filled in; a vhost stored before the access log existed has none. */
        static AccessLogDefinition normalised(AccessLogDefinition in) {
            if (in == null) {
                return DEFAULT;
            }
            return new AccessLogDefinition(in.enabled() == null || in.enabled(),
                    in.redactQuery() != null && in.redactQuery());
        }
    }

    /** Response-cache settings of one vhost; sizes like 64MiB, durations like 30s, 10m, 1d. */
    @Schema(name = "Cache")
    public record CacheDefinition(
            @Schema(description = "Store cacheable responses and serve them from memory", defaultValue = "false")
            Boolean enabled,
            @Schema(description = "This vhost's share of the global cache memory budget (portico.cache.memory-budget); "
                    + "scaled down when the shares of all vhosts add up to more", defaultValue = "64MiB")
            String maxSize,
            @Schema(description = "Largest response body stored; larger ones are streamed and not stored",
                    defaultValue = "8MiB")
            String maxObjectSize,
            @Schema(description = "Cap on heuristic freshness for responses that do not say how long they are fresh "
                    + "(10% of the time since Last-Modified, else this); 0s stores only responses with explicit "
                    + "freshness", defaultValue = "0s")
            String defaultTtl,
            @Schema(description = "Serve a stale response while one background request refreshes it, for this long "
                    + "past expiry, when the origin's Cache-Control does not say", defaultValue = "0s")
            String staleWhileRevalidate,
            @Schema(description = "Serve a stale response when the origin fails, for this long past expiry, when the "
                    + "origin's Cache-Control does not say", defaultValue = "0s")
            String staleIfError,
            @Schema(description = "How long requests for a response being fetched wait for that fetch before going "
                    + "upstream themselves", defaultValue = "5s")
            String lockTimeout,
            @Schema(description = "Query parameters left out of the cache key, e.g. utm_source")
            List<String> ignoreQueryParams) {
    }

    /** The static web service of one vhost. */
    @Schema(name = "Static")
    public record StaticDefinition(
            @Schema(description = "Absolute path of the directory served (not /); symbolic links inside it are "
                    + "followed, but nothing outside it is ever served", example = "/srv/site", required = true)
            String root,
            @Schema(description = "File names tried, in order, for a directory", defaultValue = "[\"index.html\"]")
            List<String> index,
            @Schema(description = "Tried in order, like nginx try_files: $uri is the decoded request path; an entry "
                    + "ending in / is a directory (its index file, or a listing), any other a file. When none "
                    + "matches the request goes to the upstreams, or is a 404 without upstreams",
                    defaultValue = "[\"$uri\", \"$uri/\"]", example = "[\"$uri\", \"$uri/\", \"/index.html\"]")
            List<String> tryFiles,
            @Schema(description = "List a directory that has no index file", defaultValue = "false")
            Boolean listing,
            @Schema(description = "Serve dotfiles (a path segment starting with '.'); /.well-known/ is always served",
                    defaultValue = "false")
            Boolean hidden,
            @Schema(description = "Serve file.br, file.zst or file.gz next to a file to clients that accept br, zstd "
                    + "or gzip", defaultValue = "true")
            Boolean precompressed,
            @Schema(description = "Send files over 16 KiB on cleartext connections with zero-copy sendfile(2); "
                    + "otherwise they are streamed through Vert.x's asynchronous file system", defaultValue = "true")
            Boolean sendfile,
            @Schema(description = "Cache-Control values by pattern of the served file's path; '*' matches any "
                    + "characters, '/' included; the first match wins")
            List<CacheControlRuleDefinition> cacheControl) {
    }

    /** Response compression of one vhost. */
    @Schema(name = "Compression")
    public record CompressionDefinition(
            @Schema(description = "Compress eligible responses (upstream, files and cache alike)", defaultValue = "false")
            Boolean enabled,
            @Schema(description = "Codings offered, most preferred first: any of br, zstd, gzip. The client's "
                    + "q-values decide first; this order breaks ties", defaultValue = "[\"br\", \"zstd\", \"gzip\"]")
            List<String> encodings,
            @Schema(description = "Media types compressed: type/subtype, type/* or type/*+suffix (text/event-stream "
                    + "never is); the default covers text, JSON, JavaScript, XML, SVG, wasm and fonts",
                    example = "[\"text/*\", \"application/json\", \"application/*+xml\"]")
            List<String> types,
            @Schema(description = "Bodies shorter than this (by their Content-Length) are sent as they are; bodies of "
                    + "unknown length are compressed", defaultValue = "1KiB")
            String minLength,
            @Schema(description = "Compression level of each codec")
            CompressionLevelsDefinition levels) {
    }

    /** Compression levels by codec. */
    @Schema(name = "CompressionLevels")
    public record CompressionLevelsDefinition(
            @Schema(description = "gzip level, 1-9", defaultValue = "5")
            Integer gzip,
            @Schema(description = "Brotli quality, 0-11", defaultValue = "4")
            Integer br,
            @Schema(description = "Zstandard level, 1-19", defaultValue = "3")
            Integer zstd) {
    }

    /** A {@code Cache-Control} value for the files matching a path pattern. */
    @Schema(name = "CacheControlRule")
    public record CacheControlRuleDefinition(
            @Schema(description = "Path pattern starting with / or *, e.g. /assets/* or *.html", example = "/assets/*",
                    required = true)
            String match,
            @Schema(description = "The Cache-Control value", example = "public, max-age=31536000, immutable",
                    required = true)
            String value) {
    }

    /** Header edits: remove, then set (replace), then add (append). */
    @Schema(name = "HeaderRules")
    public record HeaderRulesDefinition(
            @Schema(description = "Headers to set, replacing any present")
            Map<String, String> set,
            @Schema(description = "Headers to append")
            Map<String, String> add,
            @Schema(description = "Header names to remove")
            List<String> remove) {

        /**
         * The order header names are shown in: case-insensitive, as HTTP compares them. A fixed order, because
         * PostgreSQL's jsonb does not keep the order of object keys, and a GET must show what the write returned.
         */
        public static final Comparator<String> NAME_ORDER = String.CASE_INSENSITIVE_ORDER
                .thenComparing(Comparator.naturalOrder());

        /** The same rules with {@code set} and {@code add} in {@link #NAME_ORDER}; null stays null. */
        static HeaderRulesDefinition inNameOrder(HeaderRulesDefinition rules) {
            if (rules == null) {
                return null;
            }
            return new HeaderRulesDefinition(sorted(rules.set()), sorted(rules.add()), rules.remove());
        }

        private static Map<String, String> sorted(Map<String, String> headers) {
            if (headers == null) {
                return null;
            }
            Map<String, String> out = new TreeMap<>(NAME_ORDER);
            out.putAll(headers);
            return out;
        }
    }
}
