package dev.portico.telemetry.analytics.offloop;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Merges top lists by summing the counts of equal keys, then keeps the highest. Merged lists are approximate at
 * the tail: a key just outside one bucket's stored top list is missing from that bucket's contribution.
 */
public final class TopCounter {

    /** Highest count first; equal counts by key, so a list reads the same every time. */
    public static final Comparator<TopItem> ORDER =
            Comparator.comparingLong(TopItem::count).reversed().thenComparing(TopItem::key);

    private final Map<String, TopItem> items = new HashMap<>();

    public TopCounter add(List<TopItem> list) {
        for (TopItem item : list) {
            items.merge(item.key(), item,
                    (a, b) -> new TopItem(a.key(), a.count() + b.count(), a.agentClass() != null ? a.agentClass()
                            : b.agentClass()));
        }
        return this;
    }

    /** The {@code n} highest. */
    public List<TopItem> top(int n) {
        List<TopItem> all = new ArrayList<>(items.values());
        all.sort(ORDER);
        return all.size() > n ? List.copyOf(all.subList(0, n)) : List.copyOf(all);
    }

    /** Merges two lists and keeps the {@code n} highest. */
    public static List<TopItem> merge(List<TopItem> a, List<TopItem> b, int n) {
        return new TopCounter().add(a).add(b).top(n);
    }
}
