package dev.portico.control.definition;

import dev.portico.control.api.error.FieldError;
import dev.portico.vhost.CidrBlock;
import dev.portico.vhost.AccessSpec;

import java.util.ArrayList;
import java.util.List;

/**
 * Validates and normalises an {@code access} block (each entry named, {@code access.allow[1]}), and turns the normal
 * form into an {@link AccessSpec}. The normal entry is the network and its prefix ({@code 192.0.2.7/32}); a block
 * listed twice in one list is kept once.
 */
final class AccessSettingsCheck {

    static final int MAX_ENTRIES = 1000;

    private AccessSettingsCheck() {
    }

    /** The block in its normal form; null when it has no rule. */
    static AccessDefinition normalise(AccessDefinition in, List<FieldError> errors) {
        if (in == null) {
            return null;
        }
        List<String> allow = list("access.allow", in.allow(), errors);
        List<String> deny = list("access.deny", in.deny(), errors);
        return allow.isEmpty() && deny.isEmpty() ? null : new AccessDefinition(allow, deny);
    }

    private static List<String> list(String field, List<String> entries, List<FieldError> errors) {
        if (entries == null) {
            return List.of();
        }
        if (BlockCheck.tooMany(field, entries, MAX_ENTRIES, errors)) {
            return entries;
        }
        List<String> out = new ArrayList<>(entries.size());
        for (int i = 0; i < entries.size(); i++) {
            try {
                String text = CidrBlock.parse(entries.get(i)).text();
                if (!out.contains(text)) {
                    out.add(text);
                }
            } catch (IllegalArgumentException e) {
                errors.add(new FieldError(field + "[" + i + "]", e.getMessage()));
            }
        }
        return out;
    }

    /** For a normalised block, or none. */
    static AccessSpec toSpec(AccessDefinition stored) {
        if (stored == null) {
            return AccessSpec.NONE;
        }
        return new AccessSpec(blocks(stored.allow()), blocks(stored.deny()));
    }

    private static List<CidrBlock> blocks(List<String> entries) {
        return entries == null ? List.of() : entries.stream().map(CidrBlock::parse).toList();
    }
}
