package dev.portico.control.definition;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import dev.portico.control.api.error.FieldError;
import dev.portico.control.definition.RouteDefinition.MatchDefinition;
import dev.portico.control.definition.RouteDefinition.RedirectDefinition;
import dev.portico.control.definition.RouteDefinition.RespondDefinition;
import dev.portico.control.definition.RouteDefinition.RewriteDefinition;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Validates and normalises a vhost's {@code routes} (each field named, {@code routes[2].match.path}). A route's own
 * fields are checked here; its overrides are checked by validating the vhost as the route would serve
 * ({@link RouteOverrides#merged}), so every rule a vhost obeys holds for a route too, and an error the vhost has
 * itself is not reported again for each route.
 */
final class RouteSettingsCheck {

    static final int MAX_ROUTES = 1000;
    static final int MAX_PATTERN = 1024;
    static final int MAX_CONDITIONS = 20;
    static final int MAX_BODY = 64 * 1024;
    static final Set<Integer> REDIRECTS = Set.of(301, 302, 303, 307, 308);
    static final String DEFAULT_TYPE = "text/plain; charset=utf-8";

    private static final java.util.regex.Pattern NAME = java.util.regex.Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,62}");
    private static final java.util.regex.Pattern TOKEN = java.util.regex.Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}");

    private final List<FieldError> errors;

    private RouteSettingsCheck(List<FieldError> errors) {
        this.errors = errors;
    }

    /** The routes of {@code vhost} (the client's definition) normalised; errors go to {@code errors}. */
    static List<RouteDefinition> normalise(VhostDefinition vhost, List<FieldError> errors) {
        List<RouteDefinition> routes = vhost.routes();
        RouteSettingsCheck check = new RouteSettingsCheck(errors);
        if (routes.size() > MAX_ROUTES) {
            errors.add(new FieldError("routes", "must list at most " + MAX_ROUTES + " routes"));
            return routes;
        }
        Set<String> vhostErrors = new HashSet<>();
        errors.forEach(e -> vhostErrors.add(e.field() + "\n" + e.reason()));
        Set<String> names = new HashSet<>();
        List<RouteDefinition> out = new ArrayList<>(routes.size());
        for (int i = 0; i < routes.size(); i++) {
            String field = "routes[" + i + "]";
            RouteDefinition route = routes.get(i);
            if (route == null) {
                errors.add(new FieldError(field, "must be an object with a match"));
                continue;
            }
            String name = route.name() == null ? "route-" + (i + 1) : route.name();
            if (!NAME.matcher(name).matches()) {
                check.error(field + ".name", "must be 1-63 characters of letters, digits, '.', '_' or '-', starting "
                        + "with a letter or digit");
            } else if (!names.add(name.toLowerCase(Locale.ROOT))) {
                check.error(field + ".name", "'" + name + "' names another route of this vhost");
            }
            MatchDefinition match = check.match(field + ".match", route.match());
            check.action(field, route);
            RewriteDefinition rewrite = check.rewrite(field, route);
            VhostValidator.Checked merged = VhostValidator.check(RouteOverrides.merged(vhost, route));
            for (FieldError error : merged.errors()) {
                if (!vhostErrors.contains(error.field() + "\n" + error.reason())) {
                    check.error(field + "." + error.field(), error.reason());
                }
            }
            Map<String, Object> own = new LinkedHashMap<>();
            own.put("name", name);
            own.put("match", match);
            own.put("rewrite", rewrite);
            own.put("redirect", check.redirect(field + ".redirect", route.redirect()));
            own.put("respond", check.respond(field + ".respond", route.respond()));
            out.add(RouteOverrides.normalised(route, own, merged.definition()));
        }
        return out;
    }

    private void error(String field, String reason) {
        errors.add(new FieldError(field, reason));
    }

    private MatchDefinition match(String field, MatchDefinition in) {
        if (in == null) {
            error(field, "is required: a path, a pathRegex, methods, headers or query");
            return null;
        }
        if (in.path() != null && in.pathRegex() != null) {
            error(field + ".pathRegex", "give path or pathRegex, not both");
        }
        if (in.path() != null) {
            pathPattern(field + ".path", in.path());
        }
        if (in.pathRegex() != null) {
            expression(field + ".pathRegex", in.pathRegex());
        }
        List<String> methods = new ArrayList<>();
        if (in.methods() != null) {
            if (in.methods().size() > MAX_CONDITIONS) {
                error(field + ".methods", "must list at most " + MAX_CONDITIONS + " methods");
            }
            for (int i = 0; i < in.methods().size(); i++) {
                String method = in.methods().get(i);
                if (method == null || !TOKEN.matcher(method).matches()) {
                    error(field + ".methods[" + i + "]", "is not a method name");
                } else if (!methods.contains(method.toUpperCase(Locale.ROOT))) {
                    methods.add(method.toUpperCase(Locale.ROOT));
                }
            }
        }
        Map<String, String> headers = conditions(field + ".headers", in.headers(), true);
        Map<String, String> query = conditions(field + ".query", in.query(), false);
        if (in.path() == null && in.pathRegex() == null && methods.isEmpty() && headers.isEmpty() && query.isEmpty()) {
            error(field, "must have at least one condition: a path, a pathRegex, methods, headers or query");
        }
        return new MatchDefinition(in.path(), in.pathRegex(), methods.isEmpty() ? null : methods,
                headers.isEmpty() ? null : headers, query.isEmpty() ? null : query,
                in.caseSensitive() != null && in.caseSensitive());
    }

    /** A path pattern can only match a normalised path: no dot segments, no empty ones, no escapes. */
    private void pathPattern(String field, String path) {
        if (path.isEmpty() || path.charAt(0) != '/') {
            error(field, "must start with /");
        } else if (path.length() > MAX_PATTERN) {
            error(field, "must be at most " + MAX_PATTERN + " characters");
        } else if (path.chars().anyMatch(c -> c <= ' ' || c == 0x7f || c == '?' || c == '#' || c == '%'
                || c == '\\' || c == ';')) {
            error(field, "must be a decoded path: no spaces, control characters, ?, #, %, \\ or ;");
        } else if (path.contains("//") || path.matches(".*/\\.{1,2}(/.*)?")) {
            error(field, "never matches: requests are matched after // is merged and dot segments resolved");
        }
    }

    private void expression(String field, String expression) {
        if (expression.length() > MAX_PATTERN) {
            error(field, "must be at most " + MAX_PATTERN + " characters");
            return;
        }
        try {
            Pattern.compile(expression);
        } catch (PatternSyntaxException e) {
            error(field, "is not an RE2 expression: " + e.getDescription());
        }
    }

    private Map<String, String> conditions(String field, Map<String, String> in, boolean headers) {
        Map<String, String> out = new LinkedHashMap<>();
        if (in == null) {
            return out;
        }
        if (in.size() > MAX_CONDITIONS) {
            error(field, "must list at most " + MAX_CONDITIONS + " entries");
        }
        for (Map.Entry<String, String> e : in.entrySet()) {
            String entry = field + "." + e.getKey();
            if (headers ? !TOKEN.matcher(e.getKey()).matches() : e.getKey().isEmpty()) {
                error(entry, headers ? "is not a header name" : "must not be empty");
            } else if (e.getValue() == null || e.getValue().isEmpty() || e.getValue().length() > MAX_PATTERN
                    || e.getValue().chars().anyMatch(c -> c < ' ' || c == 0x7f)) {
                error(entry, "must be a value of 1-" + MAX_PATTERN + " characters without control characters, "
                        + "or * for any");
            } else {
                out.put(headers ? e.getKey().toLowerCase(Locale.ROOT) : e.getKey(), e.getValue());
            }
        }
        return out;
    }

    /** At most one action: own upstreams and/or static, a redirect, or a response. */
    private void action(String field, RouteDefinition route) {
        boolean serves = route.upstreams() != null || route.staticFiles() != null;
        if (route.redirect() != null && (serves || route.respond() != null)) {
            error(field + ".redirect", "a route redirects, responds, or serves (upstreams, static): one of them");
        } else if (route.respond() != null && serves) {
            error(field + ".respond", "a route redirects, responds, or serves (upstreams, static): one of them");
        }
    }

    private RewriteDefinition rewrite(String field, RouteDefinition route) {
        boolean answers = route.redirect() != null || route.respond() != null;
        if (route.stripPrefix() != null) {
            prefix(field + ".stripPrefix", route.stripPrefix(), answers);
        }
        if (route.addPrefix() != null) {
            prefix(field + ".addPrefix", route.addPrefix(), answers);
        }
        RewriteDefinition in = route.rewrite();
        if (in == null) {
            return null;
        }
        if (answers) {
            error(field + ".rewrite", "a route that redirects or responds sends nothing upstream to rewrite");
        }
        if (route.stripPrefix() != null || route.addPrefix() != null) {
            error(field + ".rewrite", "give rewrite, or stripPrefix and addPrefix, not both");
        }
        if (in.regex() == null) {
            error(field + ".rewrite.regex", "is required");
        } else {
            expression(field + ".rewrite.regex", in.regex());
        }
        if (in.replacement() == null || in.replacement().isEmpty()) {
            error(field + ".rewrite.replacement", "is required");
        } else if (in.replacement().length() > MAX_PATTERN
                || in.replacement().chars().anyMatch(c -> c <= ' ' || c == 0x7f || c == '?' || c == '#')) {
            error(field + ".rewrite.replacement", "must be a path of at most " + MAX_PATTERN + " characters, "
                    + "without spaces, control characters, ? or #");
        }
        return in;
    }

    private void prefix(String field, String prefix, boolean answers) {
        if (answers) {
            error(field, "a route that redirects or responds sends nothing upstream to rewrite");
        } else if (!prefix.startsWith("/") || prefix.length() < 2 || prefix.endsWith("/")
                || prefix.length() > MAX_PATTERN) {
            error(field, "must start with / and not end with one, like /api");
        } else if (prefix.chars().anyMatch(c -> c <= ' ' || c == 0x7f || c == '?' || c == '#' || c == '*'
                || c == '%' || c == '\\' || c == ';') || prefix.contains("//") || prefix.matches(".*/\\.{1,2}(/.*)?")) {
            error(field, "must be a plain path: no spaces, control characters, ?, #, *, %, \\, ;, // or dot "
                    + "segments");
        }
    }

    private RedirectDefinition redirect(String field, RedirectDefinition in) {
        if (in == null) {
            return null;
        }
        int status = in.status() == null ? 302 : in.status();
        if (!REDIRECTS.contains(status)) {
            error(field + ".status", "must be 301, 302, 303, 307 or 308");
        }
        if (in.location() == null || in.location().isEmpty()) {
            error(field + ".location", "is required");
        } else if (in.location().length() > 2048 || in.location().chars().anyMatch(c -> c <= ' ' || c == 0x7f)) {
            error(field + ".location", "must be a URL of at most 2048 characters without spaces or control "
                    + "characters");
        }
        return new RedirectDefinition(status, in.location());
    }

    private RespondDefinition respond(String field, RespondDefinition in) {
        if (in == null) {
            return null;
        }
        int status = in.status() == null ? 200 : in.status();
        if (status < 200 || status > 599) {
            error(field + ".status", "must be between 200 and 599");
        }
        String body = in.body() == null ? "" : in.body();
        if (body.getBytes(StandardCharsets.UTF_8).length > MAX_BODY) {
            error(field + ".body", "must be at most 64 KiB");
        }
        if ((status == 204 || status == 304) && !body.isEmpty()) {
            error(field + ".body", "a " + status + " response has no body");
        }
        String type = in.contentType() == null ? DEFAULT_TYPE : in.contentType();
        if (type.isEmpty() || type.length() > 256 || type.chars().anyMatch(c -> c < ' ' || c == 0x7f)) {
            error(field + ".contentType", "must be a media type of at most 256 characters");
        }
        return new RespondDefinition(status, body, type);
    }
}
