package dev.portico.vhost;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A vhost's {@code wwwRedirect}: which of its names is canonical, {@code www.example.com} or {@code example.com}. A
 * request for the other form gets a permanent redirect to the same URL on the canonical name.
 */
public enum WwwRedirect {
    TO_WWW("to_www"),
    TO_APEX("to_apex");

    private static final String WWW = "www.";

    private final String token;

    WwwRedirect(String token) {
        this.token = token;
    }

    /** The form the API writes. */
    public String token() {
        return token;
    }

    /** The value for {@code token}, or null when it names none. */
    public static WwwRedirect ofToken(String token) {
        for (WwwRedirect value : values()) {
            if (value.token.equals(token)) {
                return value;
            }
        }
        return null;
    }

    /**
     * The name a request for {@code hostname} is sent to, or null when it already has the canonical form. Wildcards
     * ({@code *.example.com}) have no single target: null.
     */
    public String targetOf(String hostname) {
        if (hostname.startsWith("*.")) {
            return null;
        }
        boolean www = hostname.startsWith(WWW) && hostname.length() > WWW.length();
        if (this == TO_APEX) {
            return www ? hostname.substring(WWW.length()) : null;
        }
        return www ? null : WWW + hostname;
    }

    /**
     * Each of {@code hostnames} that is redirected, with the name it is redirected to, for those whose target is
     * among {@code hostnames} too (validation refuses a vhost where it is not, so that is all of them once stored).
     */
    public Map<String, String> redirects(List<String> hostnames) {
        Map<String, String> redirects = new TreeMap<>();
        for (String hostname : hostnames) {
            String target = targetOf(hostname);
            if (target != null && hostnames.contains(target)) {
                redirects.put(hostname, target);
            }
        }
        return redirects;
    }
}
