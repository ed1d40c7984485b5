package dev.portico.proxy.core;

import dev.portico.proxy.core.outcome.LocalReason;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.net.HostAndPort;

import java.util.List;

/**
 * Where a request is going, from its request-target and {@code Host} header (RFC 9112 section 3.2).
 *
 * @param authority the authority as the client gave it ({@code host[:port]}), for {@code Host}/{@code X-Forwarded-Host}
 * @param hostname the routing key: lower case, without port or trailing dot; IPv6 literals keep their brackets
 * @param pathAndQuery the origin-form target to forward ({@code /path?query}, or {@code *} for {@code OPTIONS *})
 */
public record RequestTarget(String authority, String hostname, String pathAndQuery) {

    /** Thrown for a request whose target or Host cannot be routed; carries the 400 reason. */
    public static final class Invalid extends Exception {
        private final LocalReason reason;

        Invalid(LocalReason reason, String message) {
            super(message, null, false, false);
            this.reason = reason;
        }

        public LocalReason reason() {
            return reason;
        }
    }

    public static RequestTarget parse(HttpServerRequest request) throws Invalid {
        String uri = request.uri();
        MultiMap headers = request.headers();
        String authority;
        String path;
        if (request.version() == HttpVersion.HTTP_2) {
            // The request's :authority (Vert.x checked that a Host beside it names the same; RFC 9113 section
            // 8.3.1), or its Host when it has none; :path is never in absolute form.
            HostAndPort named = request.authority();
            if (named == null) {
                throw new Invalid(LocalReason.MISSING_HOST, "The request has no :authority and no Host");
            }
            authority = named.port() < 0 ? named.host() : named.host() + ":" + named.port();
            path = uri;
        } else if (!uri.isEmpty() && uri.charAt(0) == '/') {
            List<String> hosts = headers.getAll(HttpHeaders.HOST);
            if (hosts.isEmpty()) {
                throw new Invalid(LocalReason.MISSING_HOST, "The request has no Host header");
            }
            if (hosts.size() > 1) {
                throw new Invalid(LocalReason.INVALID_HOST, "The request has more than one Host header");
            }
            authority = hosts.get(0).trim();
            path = uri;
        } else if (startsWithIgnoreCase(uri, "http://") || startsWithIgnoreCase(uri, "https://")) {
            // Absolute form: the target's authority wins over any Host header (RFC 9112 section 3.2.2).
            int start = uri.indexOf("//") + 2;
            int end = start;
            while (end < uri.length() && uri.charAt(end) != '/' && uri.charAt(end) != '?' && uri.charAt(end) != '#') {
                end++;
            }
            authority = uri.substring(start, end);
            path = end == uri.length() ? "/" : uri.charAt(end) == '?' ? "/" + uri.substring(end) : uri.substring(end);
        } else if (uri.equals("*") && request.method() == HttpMethod.OPTIONS) {
            String host = headers.get(HttpHeaders.HOST);
            if (host == null) {
                throw new Invalid(LocalReason.MISSING_HOST, "The request has no Host header");
            }
            authority = host.trim();
            path = uri;
        } else {
            throw new Invalid(LocalReason.BAD_REQUEST, "The request target is neither origin form nor absolute form");
        }
        int hash = path.indexOf('#');
        if (hash >= 0) {
            path = path.substring(0, hash);
        }
        return new RequestTarget(authority, hostnameOf(authority), path);
    }

    /**
     * Whether the request announces a body (RFC 9112 section 6.1 and 6.2). Over HTTP/2 DATA frames carry it, with or
     * without a {@code Content-Length} (gRPC sends none), and the end of the stream ends it: only a
     * {@code Content-Length: 0} says there is none before the stream is read.
     */
    public static boolean hasBody(HttpServerRequest request) {
        MultiMap headers = request.headers();
        if (request.version() == HttpVersion.HTTP_2) {
            return !"0".equals(headers.get(HttpHeaders.CONTENT_LENGTH));
        }
        if (headers.contains(HttpHeaders.TRANSFER_ENCODING)) {
            return true;
        }
        String length = headers.get(HttpHeaders.CONTENT_LENGTH);
        return length != null && !length.equals("0");
    }

    static String hostnameOf(String authority) throws Invalid {
        if (authority.isEmpty()) {
            throw new Invalid(LocalReason.INVALID_HOST, "The Host header is empty");
        }
        String host;
        String port = null;
        if (authority.charAt(0) == '[') {
            int close = authority.indexOf(']');
            if (close < 0) {
                throw new Invalid(LocalReason.INVALID_HOST, "The Host header has an unterminated IPv6 literal");
            }
            host = authority.substring(0, close + 1);
            if (close + 1 < authority.length()) {
                if (authority.charAt(close + 1) != ':') {
                    throw new Invalid(LocalReason.INVALID_HOST, "The Host header is malformed");
                }
                port = authority.substring(close + 2);
            }
            for (int i = 1; i < host.length() - 1; i++) {
                char c = host.charAt(i);
                if (!(isHex(c) || c == ':' || c == '.')) {
                    throw new Invalid(LocalReason.INVALID_HOST, "The Host header has an invalid IPv6 literal");
                }
            }
        } else {
            int colon = authority.lastIndexOf(':');
            host = colon < 0 ? authority : authority.substring(0, colon);
            port = colon < 0 ? null : authority.substring(colon + 1);
            if (host.isEmpty()) {
                throw new Invalid(LocalReason.INVALID_HOST, "The Host header has no host name");
            }
            for (int i = 0; i < host.length(); i++) {
                char c = host.charAt(i);
                if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                        || c == '-' || c == '.' || c == '_')) {
                    throw new Invalid(LocalReason.INVALID_HOST, "The Host header has a character not allowed in a host name");
                }
            }
        }
        if (port != null) {
            if (port.isEmpty() || port.length() > 5) {
                throw new Invalid(LocalReason.INVALID_HOST, "The Host header has an invalid port");
            }
            for (int i = 0; i < port.length(); i++) {
                if (port.charAt(i) < '0' || port.charAt(i) > '9') {
                    throw new Invalid(LocalReason.INVALID_HOST, "The Host header has an invalid port");
                }
            }
        }
        if (host.endsWith(".")) {
            host = host.substring(0, host.length() - 1);
        }
        return toLowerCase(host);
    }

    private static boolean isHex(char c) {
        return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F';
    }

    private static String toLowerCase(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 'A' && c <= 'Z') {
                return s.toLowerCase(java.util.Locale.ROOT);
            }
        }
        return s;
    }

    private static boolean startsWithIgnoreCase(String s, String prefix) {
        return s.regionMatches(true, 0, prefix, 0, prefix.length());
    }
}
