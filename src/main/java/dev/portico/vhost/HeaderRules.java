package dev.portico.vhost;

import java.util.List;
import java.util.Map;

/**
 * Header edits configured on a vhost, applied in this order: {@code remove}, then {@code set} (replace), then
 * {@code add} (append). Names keep the case the operator wrote; HTTP compares them case-insensitively.
 */
public record HeaderRules(Map<String, String> set, Map<String, String> add, List<String> remove) {

    public static final HeaderRules NONE = new HeaderRules(Map.of(), Map.of(), List.of());

    public HeaderRules {
        set = Map.copyOf(set);
        add = Map.copyOf(add);
        remove = List.copyOf(remove);
    }

    public boolean isEmpty() {
        return set.isEmpty() && add.isEmpty() && remove.isEmpty();
    }
}
