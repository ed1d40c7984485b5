package dev.portico.control.definition;

import com.fasterxml.jackson.databind.JsonNode;
import dev.portico.control.api.error.ApiProblem;
import dev.portico.control.api.error.FieldError;
import dev.portico.control.api.json.JsonRecordReader;
import dev.portico.control.definition.VhostDefinition.HeaderRulesDefinition;
import dev.portico.control.definition.VhostDefinition.UpstreamDefinition;
import dev.portico.vhost.UpstreamProtocol;
import dev.portico.http.HopByHopHeaders;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Checks a client's {@link VhostDefinition} field by field and returns it normalised (defaults filled in, host
 * names lower case, durations in canonical form). Reports every bad field at once, never just the first: values of
 * the wrong JSON type and unknown fields together with the values that break a rule.
 */
public final class VhostValidator {

    static final int MAX_HOSTNAMES = 100;
    static final int MAX_UPSTREAMS = 64;
    static final int MAX_WEIGHT = 100;
    static final int MAX_IN_FLIGHT = 1_000_000;
    static final int MAX_HEADER_RULES = 50;
    static final String DEFAULT_CONNECT_TIMEOUT = "5s";
    static final String DEFAULT_READ_TIMEOUT = "60s";
    static final String DEFAULT_WEBSOCKET_IDLE_TIMEOUT = "1h";
    /** A tunnel idle longer than a week is almost certainly leaked; nginx and Envoy have no larger defaults. */
    static final Duration MAX_WEBSOCKET_IDLE_TIMEOUT = Duration.ofDays(7);

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,62}");
    private static final Pattern LABEL = Pattern.compile("[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?");
    private static final Pattern IPV4 = Pattern.compile("(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}");
    private static final Pattern HEADER_NAME = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}");
    /** Framing and identity headers a rule must not touch: Portico and Vert.x own them. */
    private static final Set<String> RESERVED = Set.of("content-length", "x-request-id", "via");

    private final List<FieldError> errors = new ArrayList<>();

    private VhostValidator() {
    }

    /** @throws ApiProblem 400 listing every invalid field, whether of the wrong JSON type or breaking a rule */
    public static VhostDefinition normalise(JsonNode body) {
        if (body == null || !body.isObject()) {
            throw ApiProblem.invalid("body", "must be a JSON object describing the vhost");
        }
        JsonRecordReader.Result<VhostDefinition> read = JsonRecordReader.read(body, VhostDefinition.class);
        return normalise(read.value(), read.errors());
    }

    /**
     * @param bindErrors fields already refused for their JSON type (and left null); the rules do not report them
     *                   again, nor anything inside them
     */
    private static VhostDefinition normalise(VhostDefinition in, List<FieldError> bindErrors) {
        Checked checked = check(in);
        List<FieldError> all = new ArrayList<>(bindErrors);
        for (FieldError error : checked.errors()) {
            if (bindErrors.stream().noneMatch(bad -> within(error.field(), bad.field()))) {
                all.add(error);
            }
        }
        if (!all.isEmpty()) {
            throw ApiProblem.invalid(all);
        }
        return BasicAuthSettingsCheck.hashPasswords(checked.definition());
    }

    /** A definition normalised as far as it could be, and what is wrong with it. */
    record Checked(VhostDefinition definition, List<FieldError> errors) {
    }

    /** Normalises {@code in} and its routes (each checked as the vhost with its overrides), collecting every error. */
    static Checked check(VhostDefinition in) {
        VhostValidator v = new VhostValidator();
        VhostDefinition.StaticDefinition staticFiles = StaticSettingsCheck.normalise(in.staticFiles(), v.errors);
        VhostDefinition.CacheDefinition cache = CacheSettingsCheck.normalise(in.cache(), v.errors);
        VhostDefinition.CompressionDefinition compression = CompressionSettingsCheck.normalise(in.compression(),
                v.errors);
        VhostDefinition.TlsDefinition tls = TlsSettingsCheck.normalise(in.tls(), in.hostnames(), v.errors);
        VhostDefinition.RetryDefinition retry = RetrySettingsCheck.normalise(in.retry(), v.errors);
        List<UpstreamDefinition> upstreams = v.upstreams(in.upstreams(), in.staticFiles() != null);
        BalanceSettingsCheck.Normalised balance = BalanceSettingsCheck.normalise(in, v.errors);
        if ((in.upstreams() == null || in.upstreams().isEmpty()) && cache.enabled()) {
            v.error("cache.enabled", "needs upstreams: the cache stores what they answer");
        }
        if ((in.upstreams() == null || in.upstreams().isEmpty()) && in.circuitBreaker() != null) {
            v.error("circuitBreaker", "needs upstreams: it guards the requests sent to them");
        }
        String name = v.name(in.name());
        List<String> hostnames = v.hostnames(in.hostnames());
        VhostDefinition out = new VhostDefinition(
                name,
                hostnames,
                in.enabled() == null || in.enabled(),
                in.preserveHost() == null || in.preserveHost(),
                upstreams,
                v.duration("connectTimeout", in.connectTimeout(), DEFAULT_CONNECT_TIMEOUT),
                v.duration("readTimeout", in.readTimeout(), DEFAULT_READ_TIMEOUT),
                v.bodyLimit(in.maxRequestBody()),
                in.securityHeaders() == null || in.securityHeaders(),
                v.rules("requestHeaders", in.requestHeaders(), true),
                v.rules("responseHeaders", in.responseHeaders(), false),
                VhostDefinition.AccessLogDefinition.normalised(in.accessLog()),
                cache,
                staticFiles,
                compression,
                tls,
                in.websocket() == null || in.websocket(),
                v.duration("websocketIdleTimeout", in.websocketIdleTimeout(), DEFAULT_WEBSOCKET_IDLE_TIMEOUT,
                        MAX_WEBSOCKET_IDLE_TIMEOUT),
                v.maxInFlight(in.maxInFlight()),
                retry,
                HealthCheckSettingsCheck.normalise(in.healthCheck(), v.errors),
                OutlierDetectionSettingsCheck.normalise(in.outlierDetection(), v.errors),
                CircuitBreakerSettingsCheck.normalise(in.circuitBreaker(), v.errors),
                balance.balance(),
                balance.balanceBy(),
                balance.hashOn(),
                balance.sticky(),
                balance.slowStart(),
                UpstreamLimitsSettingsCheck.normalise(in.upstreamLimits(), v.errors),
                WwwRedirectCheck.normalise(in.wwwRedirect(), hostnames, v.errors),
                AccessSettingsCheck.normalise(in.access(), v.errors),
                BasicAuthSettingsCheck.normalise(in.basicAuth(), v.errors),
                RateLimitSettingsCheck.normalise(in.rateLimit(), v.errors),
                ForwardAuthSettingsCheck.normalise(in.forwardAuth(), v.errors),
                JwtSettingsCheck.normalise(in.jwt(), v.errors),
                CorsSettingsCheck.normalise(in.cors(), v.errors),
                ErrorPagesSettingsCheck.normalise(in.errorPages(), v.errors),
                // Last: a route's errors that the vhost has too are left out, so the vhost's must all be known.
                in.routes() == null || in.routes().isEmpty() ? null : RouteSettingsCheck.normalise(in, v.errors));
        return new Checked(out, v.errors);
    }

    /** Whether {@code field} is {@code outer} or lies inside it ({@code upstreams[0].url} inside {@code upstreams}). */
    private static boolean within(String field, String outer) {
        return field.equals(outer) || field.startsWith(outer + ".") || field.startsWith(outer + "[");
    }

    private void error(String field, String reason) {
        errors.add(new FieldError(field, reason));
    }

    private String name(String name) {
        if (name == null || name.isBlank()) {
            error("name", "is required");
            return null;
        }
        if (!NAME.matcher(name).matches()) {
            error("name", "must be 1-63 characters of letters, digits, '.', '_' or '-', starting with a letter or digit");
        }
        return name;
    }

    private List<String> hostnames(List<String> hostnames) {
        if (hostnames == null || hostnames.isEmpty()) {
            error("hostnames", "must list at least one host name");
            return List.of();
        }
        if (hostnames.size() > MAX_HOSTNAMES) {
            error("hostnames", "must list at most " + MAX_HOSTNAMES + " host names");
        }
        List<String> out = new ArrayList<>(hostnames.size());
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < hostnames.size(); i++) {
            String field = "hostnames[" + i + "]";
            String raw = hostnames.get(i);
            if (raw == null || raw.isBlank()) {
                error(field, "must not be empty");
                continue;
            }
            String host = raw.trim().toLowerCase(Locale.ROOT);
            if (host.endsWith(".")) {
                host = host.substring(0, host.length() - 1);
            }
            String problem = hostnameProblem(host);
            if (problem != null) {
                error(field, problem);
            } else if (!seen.add(host)) {
                error(field, "'" + host + "' is listed twice");
            } else {
                out.add(host);
            }
        }
        return out;
    }

    /** Null when valid: a DNS name, {@code *.} and a DNS name, an IPv4 address, or a bracketed IPv6 address. */
    static String hostnameProblem(String host) {
        if (host.startsWith("[") && host.endsWith("]")) {
            String literal = host.substring(1, host.length() - 1);
            return io.netty.util.NetUtil.isValidIpV6Address(literal) ? null : "is not a valid IPv6 address";
        }
        if (IPV4.matcher(host).matches()) {
            return null;
        }
        String name = host.startsWith("*.") ? host.substring(2) : host;
        if (name.contains("*")) {
            return "may use '*' only as the whole first label, as in *.example.com";
        }
        if (name.length() > 253) {
            return "must be at most 253 characters";
        }
        for (String label : name.split("\\.", -1)) {
            if (!LABEL.matcher(label).matches()) {
                return "is not a valid host name (labels of 1-63 letters, digits, '-' or '_')";
            }
        }
        return null;
    }

    /** @param optional whether the vhost may have none (it serves static files) */
    private List<UpstreamDefinition> upstreams(List<UpstreamDefinition> upstreams, boolean optional) {
        if (upstreams == null || upstreams.isEmpty()) {
            if (!optional) {
                error("upstreams", "must list at least one upstream (or set static to serve files)");
            }
            return List.of();
        }
        if (upstreams.size() > MAX_UPSTREAMS) {
            error("upstreams", "must list at most " + MAX_UPSTREAMS + " upstreams");
        }
        List<UpstreamDefinition> out = new ArrayList<>(upstreams.size());
        for (int i = 0; i < upstreams.size(); i++) {
            String field = "upstreams[" + i + "]";
            UpstreamDefinition upstream = upstreams.get(i);
            if (upstream == null) {
                error(field, "must be an object with a url");
                continue;
            }
            int weight = upstream.weight() == null ? 1 : upstream.weight();
            if (weight < 1 || weight > MAX_WEIGHT) {
                error(field + ".weight", "must be between 1 and " + MAX_WEIGHT);
            }
            if (upstream.url() == null || upstream.url().isBlank()) {
                error(field + ".url", "is required");
                continue;
            }
            try {
                boolean https = UpstreamUrl.parse(upstream.url(), weight, null).tls();
                out.add(new UpstreamDefinition(upstream.url().trim(), weight,
                        UpstreamTlsCheck.normalise(field + ".tls", upstream.tls(), https, errors),
                        protocol(field + ".protocol", upstream.protocol(), https),
                        upstream.backup() != null && upstream.backup()));
            } catch (IllegalArgumentException e) {
                error(field + ".url", e.getMessage());
            }
        }
        return out;
    }

    /** The upstream's protocol token, normalised; h2 needs TLS (ALPN) and h2c needs cleartext. */
    private String protocol(String field, String raw, boolean https) {
        if (raw == null) {
            return UpstreamProtocol.HTTP_1_1.token();
        }
        UpstreamProtocol protocol = UpstreamProtocol.ofToken(raw);
        if (protocol == null) {
            error(field, "must be http/1.1, h2 or h2c");
            return null;
        }
        if (protocol == UpstreamProtocol.H2 && !https) {
            error(field, "h2 is negotiated by TLS ALPN and needs an https:// URL; use h2c for cleartext HTTP/2");
        } else if (protocol == UpstreamProtocol.H2C && https) {
            error(field, "h2c is cleartext HTTP/2 and needs an http:// URL; use h2 for HTTP/2 over TLS");
        }
        return protocol.token();
    }

    private String duration(String field, String value, String fallback) {
        return duration(field, value, fallback, DurationText.MAX);
    }

    private String duration(String field, String value, String fallback, Duration max) {
        if (value == null) {
            return fallback;
        }
        try {
            return DurationText.format(DurationText.parse(value, max, false));
        } catch (IllegalArgumentException e) {
            error(field, e.getMessage());
            return value;
        }
    }

    private String bodyLimit(String value) {
        try {
            return RequestBodyLimitText.normalise(value);
        } catch (IllegalArgumentException e) {
            error("maxRequestBody", e.getMessage());
            return value;
        }
    }

    private Integer maxInFlight(Integer value) {
        if (value != null && (value < 1 || value > MAX_IN_FLIGHT)) {
            error("maxInFlight", "must be between 1 and " + MAX_IN_FLIGHT + ", or left out for no limit");
        }
        return value;
    }

    private HeaderRulesDefinition rules(String field, HeaderRulesDefinition rules, boolean request) {
        if (rules == null) {
            return new HeaderRulesDefinition(Map.of(), Map.of(), List.of());
        }
        Map<String, String> set = headerMap(field + ".set", rules.set(), request, true);
        Map<String, String> add = headerMap(field + ".add", rules.add(), request, false);
        List<String> remove = new ArrayList<>();
        if (rules.remove() != null) {
            if (rules.remove().size() > MAX_HEADER_RULES) {
                error(field + ".remove", "must list at most " + MAX_HEADER_RULES + " names");
            }
            for (int i = 0; i < rules.remove().size(); i++) {
                String name = rules.remove().get(i);
                if (checkName(field + ".remove[" + i + "]", name, request, false)) {
                    remove.add(name);
                }
            }
        }
        return new HeaderRulesDefinition(set, add, remove);
    }

    private Map<String, String> headerMap(String field, Map<String, String> headers, boolean request, boolean set) {
        Map<String, String> out = new TreeMap<>(HeaderRulesDefinition.NAME_ORDER);
        if (headers == null) {
            return out;
        }
        if (headers.size() > MAX_HEADER_RULES) {
            error(field, "must list at most " + MAX_HEADER_RULES + " headers");
        }
        for (Map.Entry<String, String> e : headers.entrySet()) {
            String entryField = field + "." + e.getKey();
            if (!checkName(entryField, e.getKey(), request, set)) {
                continue;
            }
            String value = e.getValue();
            if (out.keySet().stream().anyMatch(name -> name.equalsIgnoreCase(e.getKey()))) {
                error(entryField, "is listed twice (header names are case-insensitive)");
            } else if (value == null) {
                error(entryField, "must have a value (use remove to drop a header)");
            } else if (value.length() > 4096) {
                error(entryField, "must be at most 4096 characters");
            } else if (value.chars().anyMatch(c -> c == '\r' || c == '\n' || c == 0)) {
                error(entryField, "must not contain CR, LF or NUL");
            } else {
                out.put(e.getKey(), value);
            }
        }
        return out;
    }

    private boolean checkName(String field, String name, boolean request, boolean set) {
        if (name == null || !HEADER_NAME.matcher(name).matches()) {
            error(field, "is not a valid header name");
            return false;
        }
        String lower = name.toLowerCase(Locale.ROOT);
        if (HopByHopHeaders.isFixed(lower) || RESERVED.contains(lower)) {
            error(field, "'" + name + "' is managed by Portico and cannot be changed");
            return false;
        }
        if (lower.equals("host") && !(request && set)) {
            error(field, "Host can only be set, on requests");
            return false;
        }
        return true;
    }
}
