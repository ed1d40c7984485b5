package dev.portico.control.definition;

import dev.portico.control.api.error.FieldError;
import dev.portico.control.definition.VhostDefinition.StickyDefinition;
import dev.portico.control.definition.VhostDefinition.UpstreamDefinition;
import dev.portico.vhost.BalanceSpec;
import dev.portico.vhost.BalanceSpec.HashKey;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Validates and normalises a vhost's balancing settings ({@code balance} and the settings beside it, {@code slowStart},
 * the upstreams' {@code backup}), and turns the normal form into a {@link BalanceSpec}. A setting for another policy
 * than the one chosen is refused rather than ignored: it would say something the proxy does not do.
 */
final class BalanceSettingsCheck {

    static final String ROUND_ROBIN = "round_robin";
    static final String RANDOM_TWO = "random_two";
    static final String HASH = "hash";
    static final String STICKY = "sticky";
    static final List<String> POLICIES = List.of(ROUND_ROBIN, "least_conn", RANDOM_TWO, HASH, STICKY);
    static final String IN_FLIGHT = "in_flight";
    static final String LATENCY = "latency";
    static final String CLIENT_ADDRESS = "client_address";
    static final String PATH = "path";
    static final Duration MAX_SLOW_START = Duration.ofHours(1);
    static final Duration MAX_STICKY_TTL = Duration.ofDays(365);
    /** RFC 9110 token: a header name, and (RFC 6265 section 4.1.1) a cookie name. */
    private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}");

    /** The balancing fields of a normalised definition. */
    record Normalised(String balance, String balanceBy, String hashOn, StickyDefinition sticky, String slowStart) {
    }

    private static final Normalised DEFAULT = new Normalised(ROUND_ROBIN, null, null, null, "0s");

    private final List<FieldError> errors;

    private BalanceSettingsCheck(List<FieldError> errors) {
        this.errors = errors;
    }

    /** The fields with defaults filled in; problems are added to {@code errors} under their field names. */
    static Normalised normalise(VhostDefinition in, List<FieldError> errors) {
        BalanceSettingsCheck check = new BalanceSettingsCheck(errors);
        check.backups(in.upstreams());
        String balance = in.balance() == null ? ROUND_ROBIN : in.balance();
        if (!POLICIES.contains(balance)) {
            check.error("balance", "must be one of " + String.join(", ", POLICIES));
        }
        String slowStart = check.slowStart(in.slowStart(), balance);
        return new Normalised(balance,
                check.only("balanceBy", in.balanceBy(), balance, RANDOM_TWO) ? check.balanceBy(in.balanceBy()) : null,
                check.only("hashOn", in.hashOn(), balance, HASH) ? check.hashOn(in.hashOn()) : null,
                check.only(STICKY, in.sticky(), balance, STICKY) ? check.sticky(in.sticky()) : null,
                slowStart);
    }

    /** For output: definitions stored before balancing settings existed have none. */
    static Normalised normalised(VhostDefinition stored) {
        return stored.balance() == null ? DEFAULT : new Normalised(stored.balance(), stored.balanceBy(),
                stored.hashOn(), stored.sticky(), stored.slowStart() == null ? "0s" : stored.slowStart());
    }

    /** For a normalised definition. */
    static BalanceSpec toSpec(VhostDefinition d) {
        Normalised n = normalised(d);
        BalanceSpec.Policy policy = BalanceSpec.Policy.valueOf(n.balance().toUpperCase(Locale.ROOT));
        BalanceSpec.Sticky sticky = n.sticky() == null ? null
                : new BalanceSpec.Sticky(n.sticky().cookie(), DurationText.parse(n.sticky().ttl(), MAX_STICKY_TTL, false));
        return new BalanceSpec(policy, LATENCY.equals(n.balanceBy()), n.hashOn() == null ? null : hashKey(n.hashOn()),
                sticky, DurationText.parse(n.slowStart(), MAX_SLOW_START, true));
    }

    /** At least one upstream must be a primary: backups stand in for primaries, they cannot be all there is. */
    private void backups(List<UpstreamDefinition> upstreams) {
        if (upstreams == null || upstreams.isEmpty()
                || !upstreams.stream().allMatch(u -> u != null && Boolean.TRUE.equals(u.backup()))) {
            return;
        }
        for (int i = 0; i < upstreams.size(); i++) {
            error("upstreams[" + i + "].backup", "every upstream is a backup: at least one must not be, since backups "
                    + "take requests only when no other upstream is available");
        }
    }

    /** Whether a setting of {@code policy} may be read: it is that policy's; an error when set for another. */
    private boolean only(String field, Object value, String balance, String policy) {
        if (balance.equals(policy)) {
            return true;
        }
        if (value != null) {
            error(field, "applies only to balance " + policy + ", not " + balance);
        }
        return false;
    }

    private String balanceBy(String value) {
        if (value == null) {
            return IN_FLIGHT;
        }
        if (!value.equals(IN_FLIGHT) && !value.equals(LATENCY)) {
            error("balanceBy", "must be in_flight or latency");
        }
        return value;
    }

    private String hashOn(String value) {
        if (value == null) {
            return CLIENT_ADDRESS;
        }
        if (value.equals(CLIENT_ADDRESS) || value.equals(PATH)) {
            return value;
        }
        int colon = value.indexOf(':');
        String kind = colon < 0 ? value : value.substring(0, colon);
        String name = colon < 0 ? "" : value.substring(colon + 1);
        if ((kind.equals("header") || kind.equals("cookie")) && TOKEN.matcher(name).matches()) {
            // Header names compare case-insensitively (RFC 9110 section 5.1), cookie names do not.
            return kind.equals("header") ? "header:" + name.toLowerCase(Locale.ROOT) : value;
        }
        error("hashOn", "must be client_address, path, header:<Name> or cookie:<name>, with a name of 1-64 "
                + "token characters");
        return value;
    }

    private static HashKey hashKey(String hashOn) {
        if (hashOn.equals(CLIENT_ADDRESS)) {
            return HashKey.CLIENT_ADDRESS;
        }
        if (hashOn.equals(PATH)) {
            return new HashKey(HashKey.Kind.PATH, null);
        }
        String name = hashOn.substring(hashOn.indexOf(':') + 1);
        return new HashKey(hashOn.startsWith("header:") ? HashKey.Kind.HEADER : HashKey.Kind.COOKIE, name);
    }

    private StickyDefinition sticky(StickyDefinition in) {
        BalanceSpec.Sticky defaults = BalanceSpec.Sticky.DEFAULT;
        if (in == null) {
            return new StickyDefinition(defaults.cookie(), DurationText.format(defaults.ttl()));
        }
        String cookie = in.cookie() == null ? defaults.cookie() : in.cookie();
        if (!TOKEN.matcher(cookie).matches()) {
            error("sticky.cookie", "must be a cookie name of 1-64 token characters (letters, digits and !#$%&'*+.^_`|~-)");
        }
        String ttl = DurationText.format(defaults.ttl());
        if (in.ttl() != null) {
            try {
                ttl = DurationText.format(DurationText.parse(in.ttl(), MAX_STICKY_TTL, false));
            } catch (IllegalArgumentException e) {
                error("sticky.ttl", e.getMessage());
                ttl = in.ttl();
            }
        }
        return new StickyDefinition(cookie, ttl);
    }

    private String slowStart(String value, String balance) {
        if (value == null) {
            return "0s";
        }
        try {
            Duration ramp = DurationText.parse(value, MAX_SLOW_START, true);
            if (!ramp.isZero() && balance.equals(HASH)) {
                error("slowStart", "does not apply to balance hash: a key must not move back and forth while an "
                        + "upstream ramps up");
            }
            return DurationText.format(ramp);
        } catch (IllegalArgumentException e) {
            error("slowStart", e.getMessage());
            return value;
        }
    }

    private void error(String field, String reason) {
        errors.add(new FieldError(field, reason));
    }
}
