package dev.portico.cache;

import java.util.ArrayList;
import java.util.List;

/**
 * Every stored variant of one URI and the {@code Vary} field names that select among them (RFC 9111 section 4.1).
 * Immutable: a new variant makes a new {@code Variants}. A URI has few variants, so a list beats a map.
 *
 * @param varyFields lower-case field names; empty when the response does not vary
 */
public record Variants(List<String> varyFields, List<StoredResponse> entries) {

    static final int MAX_VARIANTS = 16;

    public Variants {
        varyFields = List.copyOf(varyFields);
        entries = List.copyOf(entries);
    }

    /** The variant stored for requests whose {@code Vary} values are {@code varyKey}, or null. */
    public StoredResponse match(String varyKey) {
        for (StoredResponse entry : entries) {
            if (entry.varyKey().equals(varyKey)) {
                return entry;
            }
        }
        return null;
    }

    /**
     * These variants with {@code entry} added or replacing the one for the same key. A response that varies on
     * other fields than the stored ones starts afresh: the old variants can no longer be selected.
     */
    Variants with(List<String> fields, StoredResponse entry) {
        List<StoredResponse> out = new ArrayList<>(MAX_VARIANTS);
        out.add(entry);
        if (fields.equals(varyFields)) {
            for (StoredResponse old : entries) {
                if (!old.varyKey().equals(entry.varyKey()) && out.size() < MAX_VARIANTS) {
                    out.add(old);
                }
            }
        }
        return new Variants(fields, out);
    }

    int weight() {
        long w = 64;
        for (StoredResponse e : entries) {
            w += e.weight();
        }
        return (int) Math.min(Integer.MAX_VALUE, w);
    }

    long bodyBytes() {
        long b = 0;
        for (StoredResponse e : entries) {
            b += e.body().length();
        }
        return b;
    }
}
