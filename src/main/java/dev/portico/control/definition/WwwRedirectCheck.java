package dev.portico.control.definition;

import dev.portico.control.api.error.FieldError;
import dev.portico.vhost.WwwRedirect;

import java.util.List;

/**
 * Validates a vhost's {@code wwwRedirect}. Every name it would redirect must have its target among the vhost's own
 * host names: a redirect to a name served by another vhost (or by nothing) would hand the vhost's clients to
 * whatever that name routes to, and a missing {@code www.} twin is far more often a typo than a wish.
 */
final class WwwRedirectCheck {

    private static final String FIELD = "wwwRedirect";

    private WwwRedirectCheck() {
    }

    /** The token as stored, or null for off. */
    static String normalise(String in, List<String> hostnames, List<FieldError> errors) {
        if (in == null) {
            return null;
        }
        WwwRedirect redirect = WwwRedirect.ofToken(in);
        if (redirect == null) {
            errors.add(new FieldError(FIELD, "must be to_www, to_apex, or null for off"));
            return in;
        }
        boolean any = false;
        for (String hostname : hostnames) {
            String target = redirect.targetOf(hostname);
            if (target == null) {
                continue;
            }
            if (!hostnames.contains(target)) {
                errors.add(new FieldError(FIELD, "would redirect " + hostname + " to " + target
                        + ", which is not in hostnames: add it, or remove " + hostname));
            }
            any = true;
        }
        if (!any && !hostnames.isEmpty()) {
            errors.add(new FieldError(FIELD, "no host name would be redirected: list both "
                    + (redirect == WwwRedirect.TO_APEX ? "www.name and name" : "name and www.name")));
        }
        return in;
    }
}
