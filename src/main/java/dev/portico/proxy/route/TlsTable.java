package dev.portico.proxy.route;

import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import dev.portico.vhost.VhostSpec;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The certificates the TLS listener presents, by the server name a client asks for (SNI): immutable, so event loops
 * read it during handshakes without locks, and replaced whole when certificates change. Names follow the routing
 * rule ({@link RoutingSnapshot#route}): an exact name first, then the longest {@code *.suffix} wildcard, which
 * matches any number of labels in front of the suffix but not the suffix itself. The optional default entry serves
 * clients that send no name or a name no entry covers; without it such handshakes are refused. Every stored
 * certificate is also held by its id, so the listener can pick its configured default
 * ({@code portico.tls.default-certificate}) from the table it is given. The table also carries the session ticket
 * keys the listener encrypts tickets with ({@link #withTicketKeys}), so that a change of keys, like a change of
 * certificates, rebuilds the listener's TLS context.
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

    /**
     * One certificate the table presents, for what an operator watches (its expiry).
     *
     * @param certificateId the id it is stored under, or null (a certificate given to the table directly)
     * @param leaf          the certificate itself, whose {@code notAfter} is its expiry
     * @param names         the server names it is presented for, sorted; empty when it is only the default
     * @param isDefault     whether it also serves clients that name no server or an unknown one
     */
    public record Presented(String certificateId, X509Certificate leaf, List<String> names, boolean isDefault) {
    }

    private final Map<String, Entry> names;
    private final HostNameTable<Entry> byName;
    private final Map<String, Entry> byAlias;
    private final Map<String, Entry> byCertificateId;
    private final Entry defaultEntry;
    private final SessionTicketKeys ticketKeys;
    private final OcspStaples staples;

    private TlsTable(Map<String, Entry> names, Map<String, Entry> byAlias, Map<String, Entry> byCertificateId,
                     Entry defaultEntry, SessionTicketKeys ticketKeys, OcspStaples staples) {
        this.staples = Objects.requireNonNull(staples, "staples");
        this.names = Map.copyOf(names);
        this.byName = HostNameTable.of(this.names);
        this.byAlias = Map.copyOf(byAlias);
        this.byCertificateId = Map.copyOf(byCertificateId);
        this.defaultEntry = defaultEntry;
        this.ticketKeys = Objects.requireNonNull(ticketKeys, "ticketKeys");
    }

    /**
     * A table serving each name of {@code byName} (a host name or {@code *.suffix}, any case) with its entry, and
     * {@code defaultEntry} (nullable) to everything else.
     */
    public static TlsTable of(Map<String, Entry> byName, Entry defaultEntry) {
        return of(byName, defaultEntry, Map.of());
    }

    /**
     * As {@link #of(Map, Entry)}, also holding every stored certificate by its id (those no name uses too), from
     * which {@link #withDefault} picks.
     */
    public static TlsTable of(Map<String, Entry> byName, Entry defaultEntry, Map<String, Entry> byCertificateId) {
        Map<String, Entry> normalised = new HashMap<>();
        Map<String, Entry> aliases = new HashMap<>();
        byName.forEach((name, entry) -> {
            normalised.put(name.toLowerCase(Locale.ROOT), entry);
            aliases.put(entry.alias(), entry);
        });
        if (defaultEntry != null) {
            aliases.put(defaultEntry.alias(), defaultEntry);
        }
        return new TlsTable(normalised, aliases, byCertificateId, defaultEntry, SessionTicketKeys.NONE,
                OcspStaples.NONE);
    }

    /**
     * The table of a configuration: each enabled vhost's host names served with its certificate (the one its
     * {@code tls.certificate} names, or the one issued for it by ACME) when {@code material} holds it; every
     * certificate also by id.
     */
    public static TlsTable forVhosts(List<VhostSpec> vhosts, TlsMaterial material) {
        Map<String, Entry> byName = new HashMap<>();
        for (VhostSpec vhost : vhosts) {
            Entry entry = material.certificateOf(vhost);
            if (vhost.enabled() && entry != null) {
                for (String hostname : vhost.hostnames()) {
                    byName.put(hostname, entry);
                }
            }
        }
        return of(byName, null, material.certificates());
    }

    /**
     * This table with the certificate stored under {@code certificateId} as its default; this table itself when the
     * id is null or no such certificate is held (the caller reports that).
     */
    public TlsTable withDefault(String certificateId) {
        Entry entry = certificateId == null ? null : byCertificateId.get(certificateId);
        if (entry == null || entry == defaultEntry) {
            return this;
        }
        Map<String, Entry> aliases = new HashMap<>(byAlias);
        aliases.put(entry.alias(), entry);
        return new TlsTable(names, aliases, byCertificateId, entry, ticketKeys, staples);
    }

    /** This table with {@code keys} as its session ticket keys (the first encrypts); itself when they are its own. */
    public TlsTable withTicketKeys(SessionTicketKeys keys) {
        if (ticketKeys.equals(keys)) {
            return this;
        }
        return new TlsTable(names, byAlias, byCertificateId, defaultEntry, keys, staples);
    }

    /** This table stapling {@code responses}; itself when they are its own. */
    public TlsTable withStaples(OcspStaples responses) {
        if (staples.equals(responses)) {
            return this;
        }
        return new TlsTable(names, byAlias, byCertificateId, defaultEntry, ticketKeys, responses);
    }

    /** The OCSP responses stapled in handshakes, by certificate alias. */
    public OcspStaples staples() {
        return staples;
    }

    /** Every certificate this table can present (by a name, as the default, or held by id), each once. */
    public java.util.Collection<Entry> entries() {
        java.util.Set<Entry> all = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        all.addAll(byAlias.values());
        all.addAll(byCertificateId.values());
        return all;
    }

    /** The session ticket keys: {@link SessionTicketKeys#NONE} leaves the engine its own per-process keys. */
    public SessionTicketKeys ticketKeys() {
        return ticketKeys;
    }

    /** Every certificate this table presents, by the names of it and as the default; in certificate id order. */
    public List<Presented> presented() {
        Map<Entry, List<String>> namesOf = new IdentityHashMap<>();
        names.forEach((name, entry) -> namesOf.computeIfAbsent(entry, e -> new ArrayList<>()).add(name));
        if (defaultEntry != null) {
            namesOf.computeIfAbsent(defaultEntry, e -> new ArrayList<>());
        }
        Map<Entry, String> ids = new IdentityHashMap<>();
        byCertificateId.forEach((id, entry) -> ids.put(entry, id));
        List<Presented> out = new ArrayList<>();
        namesOf.forEach((entry, its) -> out.add(new Presented(ids.get(entry), entry.chain[0],
                its.stream().sorted().toList(), entry == defaultEntry)));
        out.sort(Comparator.comparing(Presented::certificateId, Comparator.nullsLast(Comparator.naturalOrder()))
                .thenComparing(p -> p.names().isEmpty() ? "" : p.names().get(0)));
        return out;
    }

    /** Whether a certificate is stored under {@code certificateId}. */
    public boolean holds(String certificateId) {
        return byCertificateId.containsKey(certificateId);
    }

    /**
     * Whether a handshake gets the same certificate from both tables for every name, and the same session ticket
     * keys: what decides whether a new snapshot's table must be swapped into the listeners (aliases change with the
     * certificate).
     */
    public boolean presentsTheSameAs(TlsTable other) {
        if (other == this) {
            return true;
        }
        if (!ticketKeys.equals(other.ticketKeys) || !staples.equals(other.staples) || !aliasOf(defaultEntry).equals(aliasOf(other.defaultEntry))
                || names.size() != other.names.size()) {
            return false;
        }
        for (Map.Entry<String, Entry> name : names.entrySet()) {
            Entry theirs = other.names.get(name.getKey());
            if (theirs == null || !theirs.alias().equals(name.getValue().alias())) {
                return false;
            }
        }
        return true;
    }

    /** Whether no handshake can succeed: no name and no default. */
    public boolean isEmpty() {
        return names.isEmpty() && defaultEntry == null;
    }

    private static String aliasOf(Entry entry) {
        return entry == null ? "" : entry.alias();
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
