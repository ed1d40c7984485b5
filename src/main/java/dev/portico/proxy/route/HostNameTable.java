package dev.portico.proxy.route;

import java.util.HashMap;
import java.util.Map;

/**
 * Values by host name, looked up the way nginx matches {@code server_name}: an exact name first, then the longest
 * {@code *.suffix} wildcard, which matches any number of labels in front of the suffix but not the suffix itself.
 * One rule for routing a request to its vhost and for choosing a TLS certificate by SNI. Immutable.
 *
 * @param <V> what a name leads to
 */
public final class HostNameTable<V> {

    private final Map<String, V> exact;
    private final Map<String, V> wildcards;

    private HostNameTable(Map<String, V> exact, Map<String, V> wildcards) {
        this.exact = Map.copyOf(exact);
        this.wildcards = Map.copyOf(wildcards);
    }

    /** A table of {@code byName}, whose keys are normalised host names or {@code *.suffix} wildcards. */
    public static <V> HostNameTable<V> of(Map<String, V> byName) {
        Map<String, V> exact = new HashMap<>();
        Map<String, V> wildcards = new HashMap<>();
        byName.forEach((name, value) -> {
            if (name.startsWith("*.")) {
                wildcards.put(name.substring(2), value);
            } else {
                exact.put(name, value);
            }
        });
        return new HostNameTable<>(exact, wildcards);
    }

    /** The value for a normalised host name, or null when no name covers it. */
    public V find(String hostname) {
        V value = exact.get(hostname);
        if (value != null || wildcards.isEmpty()) {
            return value;
        }
        for (int dot = hostname.indexOf('.'); dot >= 0; dot = hostname.indexOf('.', dot + 1)) {
            value = wildcards.get(hostname.substring(dot + 1));
            if (value != null) {
                return value;
            }
        }
        return null;
    }
}
