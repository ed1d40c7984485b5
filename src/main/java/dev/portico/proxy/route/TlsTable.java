package dev.portico.proxy.route;

import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The certificates the TLS listener presents, by the server name a client asks for (SNI): immutable, so event loops
 * read it during handshakes without locks, and replaced whole when certificates change. Names follow the routing
 * rule ({@link RoutingSnapshot#route}): an exact name first, then the longest {@code *.suffix} wildcard, which
 * matches any number of labels in front of the suffix but not the suffix itself. The optional default entry serves
 * clients that send no name or a name no entry covers; without it such handshakes are refused.
 */
public final class TlsTable {

    /** No certificates: every handshake is refused. */
    public static final TlsTable EMPTY = of(Map.of(), null);

    /**
     * One certificate and its key.
     *
     * @param alias names this certificate and version of it to the TLS engine, which caches key material by alias:
     *              a changed certificate must come with a new alias
     * @param chain the leaf first, then its intermediates
     */
    public record Entry(String alias, X509Certificate[] chain, PrivateKey privateKey) {

        public Entry {
            Objects.requireNonNull(alias, "alias");
            Objects.requireNonNull(privateKey, "privateKey");
            if (chain.length == 0) {
                throw new IllegalArgumentException("Certificate " + alias + " has an empty chain");
            }
            chain = chain.clone();
        }

        /** The chain, leaf first (a copy: the table stays immutable). */
        @Override
        public X509Certificate[] chain() {
            return chain.clone();
        }
    }

    private final HostNameTable<Entry> byName;
    private final Map<String, Entry> byAlias;
    private final Entry defaultEntry;

    private TlsTable(HostNameTable<Entry> byName, Map<String, Entry> byAlias, Entry defaultEntry) {
        this.byName = byName;
        this.byAlias = Map.copyOf(byAlias);
        this.defaultEntry = defaultEntry;
    }

    /**
     * A table serving each name of {@code byName} (a host name or {@code *.suffix}, any case) with its entry, and
     * {@code defaultEntry} (nullable) to everything else.
     */
    public static TlsTable of(Map<String, Entry> byName, Entry defaultEntry) {
        Map<String, Entry> normalised = new HashMap<>();
        Map<String, Entry> aliases = new HashMap<>();
        byName.forEach((name, entry) -> {
            normalised.put(name.toLowerCase(Locale.ROOT), entry);
            aliases.put(entry.alias(), entry);
        });
        if (defaultEntry != null) {
            aliases.put(defaultEntry.alias(), defaultEntry);
        }
        return new TlsTable(HostNameTable.of(normalised), aliases, defaultEntry);
    }

    /** The entry named for {@code serverName} (lower case, as SNI carries it), ignoring the default; or null. */
    public Entry named(String serverName) {
        return byName.find(serverName);
    }

    /** The entry a handshake for {@code serverName} (null: the client sent none) gets; null when it is refused. */
    public Entry select(String serverName) {
        Entry entry = serverName == null ? null : named(serverName);
        return entry != null ? entry : defaultEntry;
    }

    /** Whether a client naming an unknown server still gets a certificate (the default one). */
    public boolean hasDefault() {
        return defaultEntry != null;
    }

    /** The entry with this alias, or null: how the TLS engine fetches the chain and key it was told to use. */
    public Entry byAlias(String alias) {
        return byAlias.get(alias);
    }
}
