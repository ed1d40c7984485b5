package dev.portico.proxy.route;

import java.net.InetAddress;
import java.util.List;
import java.util.Map;

/**
 * The addresses DNS gave for upstream host names, as the snapshot compiler expands them: a name with several
 * addresses is several upstreams of the same weight (so a Kubernetes headless Service balances per pod). Immutable;
 * a name not in it (IP literals, names not resolved yet) is connected to by name, Vert.x resolving it then.
 */
public final class UpstreamAddresses {

    public static final UpstreamAddresses NONE = new UpstreamAddresses(Map.of());

    private final Map<String, List<InetAddress>> byName;

    /** @param byName the addresses of each name, in a stable order (the order the upstreams get) */
    public UpstreamAddresses(Map<String, List<InetAddress>> byName) {
        this.byName = Map.copyOf(byName);
    }

    /** The addresses of {@code name}, or null when it has none here. */
    public List<InetAddress> of(String name) {
        List<InetAddress> addresses = byName.get(name);
        return addresses == null || addresses.isEmpty() ? null : addresses;
    }

    public Map<String, List<InetAddress>> byName() {
        return byName;
    }

    /** Each name with its addresses, for logs. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("{");
        byName.forEach((name, addresses) -> text.append(text.length() > 1 ? ", " : "").append(name).append('=')
                .append(UpstreamResolver.text(addresses)));
        return text.append('}').toString();
    }
}
