package dev.portico.proxy.files.offloop;

import dev.portico.vhost.StaticSpec.CacheControlRule;

import java.util.List;

/**
 * A vhost's {@code Cache-Control} values by path pattern, compiled once per snapshot. A pattern is matched against
 * the path of the file served, relative to the root ({@code /index.html} when a SPA fallback serves it for
 * {@code /some/route}), like an nginx {@code location} after {@code try_files}' internal redirect. {@code *}
 * stands for any characters, slashes included, as in Caddy's path matcher: {@code /assets/*} covers everything
 * below {@code /assets/}, {@code *.html} every HTML file. The first matching rule wins. Pure and immutable.
 */
public final class CacheControlRules {

    private static final CacheControlRules NONE = new CacheControlRules(new Glob[0], new String[0]);

    private final Glob[] patterns;
    private final String[] values;

    private CacheControlRules(Glob[] patterns, String[] values) {
        this.patterns = patterns;
        this.values = values;
    }

    public static CacheControlRules of(List<CacheControlRule> rules) {
        if (rules.isEmpty()) {
            return NONE;
        }
        Glob[] patterns = new Glob[rules.size()];
        String[] values = new String[rules.size()];
        for (int i = 0; i < rules.size(); i++) {
            patterns[i] = new Glob(rules.get(i).match());
            values[i] = rules.get(i).value();
        }
        return new CacheControlRules(patterns, values);
    }

    /** The value for a served path, or null when no rule matches. */
    public String valueFor(String path) {
        for (int i = 0; i < patterns.length; i++) {
            if (patterns[i].matches(path)) {
                return values[i];
            }
        }
        return null;
    }

    /** A pattern whose only wildcard is {@code *}, split at the stars once. */
    static final class Glob {
        private final String[] parts;
        private final boolean anchoredStart;
        private final boolean anchoredEnd;

        Glob(String pattern) {
            this.parts = pattern.split("\\*", -1);
            this.anchoredStart = !pattern.startsWith("*");
            this.anchoredEnd = !pattern.endsWith("*");
        }

        boolean matches(String path) {
            if (parts.length == 1) {
                return path.equals(parts[0]);
            }
            String first = parts[0];
            String last = parts[parts.length - 1];
            if (anchoredStart && !path.startsWith(first)) {
                return false;
            }
            if (anchoredEnd && (!path.endsWith(last) || path.length() - last.length() < first.length())) {
                return false;
            }
            int from = first.length();
            int limit = path.length() - last.length();
            // Each middle part at its leftmost place after the previous one: with '*' as the only wildcard, the
            // leftmost choice never rules out a match that a later one would allow.
            for (int i = 1; i < parts.length - 1; i++) {
                int at = path.indexOf(parts[i], from);
                if (at < 0 || at + parts[i].length() > limit) {
                    return false;
                }
                from = at + parts[i].length();
            }
            return true;
        }
    }
}
