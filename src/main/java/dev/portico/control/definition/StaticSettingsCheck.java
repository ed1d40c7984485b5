package dev.portico.control.definition;

import dev.portico.control.api.error.FieldError;
import dev.portico.control.definition.VhostDefinition.CacheControlRuleDefinition;
import dev.portico.control.definition.VhostDefinition.StaticDefinition;
import dev.portico.vhost.StaticSpec;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Validates and normalises a vhost's {@code static} block, and turns the normal form into a {@link StaticSpec}.
 * Nothing here touches the file system: the root may be created after the vhost, and is looked at per request.
 */
final class StaticSettingsCheck {

    static final int MAX_PATH = 1024;
    static final int MAX_INDEX = 16;
    static final int MAX_TRY_FILES = 16;
    static final int MAX_RULES = 50;
    static final int MAX_PATTERN = 256;
    static final int MAX_VALUE = 1024;
    static final List<String> DEFAULT_INDEX = List.of("index.html");
    static final List<String> DEFAULT_TRY_FILES = List.of("$uri", "$uri/");
    private static final String URI = "$uri";

    private final List<FieldError> errors;

    private StaticSettingsCheck(List<FieldError> errors) {
        this.errors = errors;
    }

    /** The block with defaults filled in, or null when absent; problems go to {@code errors} as {@code static.*}. */
    static StaticDefinition normalise(StaticDefinition in, List<FieldError> errors) {
        if (in == null) {
            return null;
        }
        StaticSettingsCheck check = new StaticSettingsCheck(errors);
        return new StaticDefinition(check.root(in.root()), check.index(in.index()), check.tryFiles(in.tryFiles()),
                in.listing() != null && in.listing(), in.hidden() != null && in.hidden(),
                in.precompressed() == null || in.precompressed(), in.sendfile() == null || in.sendfile(),
                check.rules(in.cacheControl()));
    }

    /** For a normalised block; null stays null (no static files). */
    static StaticSpec toSpec(StaticDefinition d) {
        if (d == null) {
            return null;
        }
        List<StaticSpec.CacheControlRule> rules = d.cacheControl().stream()
                .map(r -> new StaticSpec.CacheControlRule(r.match(), r.value()))
                .toList();
        return new StaticSpec(d.root(), d.index(), d.tryFiles(), d.listing(), d.hidden(), d.precompressed(),
                d.sendfile(), rules);
    }

    private void error(String field, String reason) {
        errors.add(new FieldError("static." + field, reason));
    }

    private String root(String root) {
        if (root == null || root.isBlank()) {
            error("root", "is required");
            return root;
        }
        if (!root.startsWith("/")) {
            error("root", "must be an absolute path");
        } else if (root.length() > MAX_PATH) {
            error("root", "must be at most " + MAX_PATH + " characters");
        } else if (hasControl(root) || root.indexOf('\\') >= 0) {
            error("root", "must not contain control characters or backslashes");
        } else if (hasDotSegment(root)) {
            error("root", "must not contain '.' or '..' segments");
        } else {
            String normal = root.replaceAll("/+", "/");
            normal = normal.length() > 1 && normal.endsWith("/") ? normal.substring(0, normal.length() - 1) : normal;
            if (normal.equals("/")) {
                error("root", "must not be the file system root");
            }
            return normal;
        }
        return root;
    }

    private List<String> index(List<String> index) {
        if (index == null) {
            return DEFAULT_INDEX;
        }
        if (index.size() > MAX_INDEX) {
            error("index", "must list at most " + MAX_INDEX + " file names");
        }
        List<String> out = new ArrayList<>(index.size());
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < index.size(); i++) {
            String name = index.get(i);
            String field = "index[" + i + "]";
            if (name == null || name.isEmpty() || name.length() > 255) {
                error(field, "must be a file name of 1-255 characters");
            } else if (name.indexOf('/') >= 0 || name.indexOf('\\') >= 0 || hasControl(name)
                    || name.equals(".") || name.equals("..")) {
                error(field, "must be a plain file name, without '/', '\\\\' or control characters");
            } else if (!seen.add(name)) {
                error(field, "'" + name + "' is listed twice");
            } else {
                out.add(name);
            }
        }
        return out;
    }

    private List<String> tryFiles(List<String> tryFiles) {
        if (tryFiles == null) {
            return DEFAULT_TRY_FILES;
        }
        if (tryFiles.isEmpty() || tryFiles.size() > MAX_TRY_FILES) {
            error("tryFiles", "must list 1 to " + MAX_TRY_FILES + " entries");
        }
        List<String> out = new ArrayList<>(tryFiles.size());
        for (int i = 0; i < tryFiles.size(); i++) {
            String entry = tryFiles.get(i);
            String problem = tryFilesProblem(entry);
            if (problem != null) {
                error("tryFiles[" + i + "]", problem);
            } else {
                out.add(entry);
            }
        }
        return out;
    }

    /** Null when valid: a path from the root, where {@code $uri} stands for the request path. */
    static String tryFilesProblem(String entry) {
        if (entry == null || entry.isEmpty() || entry.length() > MAX_PATH) {
            return "must be a path of 1-" + MAX_PATH + " characters";
        }
        if (!entry.startsWith("/") && !entry.startsWith(URI)) {
            return "must start with '/' or '$uri'";
        }
        if (entry.replace(URI, "").indexOf('$') >= 0) {
            return "may use only the variable $uri";
        }
        if (hasControl(entry) || entry.indexOf('\\') >= 0 || entry.indexOf('?') >= 0 || entry.indexOf('#') >= 0) {
            return "must not contain control characters, '\\\\', '?' or '#'";
        }
        if (hasDotSegment(entry.replace(URI, "/x"))) {
            return "must not contain '.' or '..' segments";
        }
        return null;
    }

    private List<CacheControlRuleDefinition> rules(List<CacheControlRuleDefinition> rules) {
        if (rules == null) {
            return List.of();
        }
        if (rules.size() > MAX_RULES) {
            error("cacheControl", "must list at most " + MAX_RULES + " rules");
        }
        List<CacheControlRuleDefinition> out = new ArrayList<>(rules.size());
        for (int i = 0; i < rules.size(); i++) {
            String field = "cacheControl[" + i + "]";
            CacheControlRuleDefinition rule = rules.get(i);
            if (rule == null) {
                error(field, "must be an object with match and value");
                continue;
            }
            boolean ok = true;
            String match = rule.match();
            if (match == null || match.isEmpty() || match.length() > MAX_PATTERN
                    || !(match.startsWith("/") || match.startsWith("*"))
                    || match.chars().anyMatch(c -> c <= 0x20 || c == 0x7f)) {
                error(field + ".match", "must be a path pattern of 1-" + MAX_PATTERN
                        + " characters starting with '/' or '*', without spaces or control characters");
                ok = false;
            }
            String value = rule.value();
            if (value == null || value.isBlank() || value.length() > MAX_VALUE) {
                error(field + ".value", "must be a Cache-Control value of 1-" + MAX_VALUE + " characters");
                ok = false;
            } else if (hasControl(value)) {
                error(field + ".value", "must not contain CR, LF or other control characters");
                ok = false;
            }
            if (ok) {
                out.add(new CacheControlRuleDefinition(match, value.trim()));
            }
        }
        return out;
    }

    private static boolean hasControl(String s) {
        return s.chars().anyMatch(c -> c < 0x20 || c == 0x7f);
    }

    private static boolean hasDotSegment(String path) {
        for (String segment : path.split("/", -1)) {
            if (segment.equals(".") || segment.equals("..")) {
                return true;
            }
        }
        return false;
    }
}
