package dev.portico.control.acme;

import java.util.Collection;
import java.util.Locale;
import java.util.TreeSet;

/**
 * One set of names as one string: lower-cased, without duplicates, sorted, joined by {@code ','}. Two orders for
 * the same names in any order or case have the same key; the database keys live orders and challenges by it.
 */
public final class NamesKey {

    private NamesKey() {
    }

    public static String of(Collection<String> names) {
        if (names.isEmpty()) {
            throw new IllegalArgumentException("an order needs at least one name");
        }
        TreeSet<String> sorted = new TreeSet<>();
        for (String name : names) {
            sorted.add(name.strip().toLowerCase(Locale.ROOT));
        }
        return String.join(",", sorted);
    }
}
