package dev.portico.vhost;


import java.util.List;

/**
 * IP rules on the client address (a vhost's now; the same shape can sit on a route). Deny wins; then, when
 * {@code allow} is not empty, only the addresses it names pass. Both empty: everyone passes.
 */
public record AccessSpec(List<CidrBlock> allow, List<CidrBlock> deny) {

    public static final AccessSpec NONE = new AccessSpec(List.of(), List.of());

    public AccessSpec {
        allow = List.copyOf(allow);
        deny = List.copyOf(deny);
    }

    public boolean isEmpty() {
        return allow.isEmpty() && deny.isEmpty();
    }
}
