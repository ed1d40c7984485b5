package dev.portico.vhost;

import java.time.Duration;
import java.util.Objects;

/**
 * How a vhost spreads requests over its upstreams: the policy and the settings beside it.
 *
 * @param byLatency for {@link Policy#RANDOM_TWO}: compare the two candidates by an EWMA of response-head latency
 *                  (times the requests in flight) instead of by the requests in flight alone
 * @param hashOn    for {@link Policy#HASH}: what is hashed; null otherwise
 * @param sticky    for {@link Policy#STICKY}: the cookie; null otherwise
 * @param slowStart how long an upstream that came back ramps from 10% to 100% of its weight; zero for off
 */
public record BalanceSpec(Policy policy, boolean byLatency, HashKey hashOn, Sticky sticky, Duration slowStart) {

    /** Smooth weighted round robin, no slow start: what a vhost that says nothing gets. */
    public static final BalanceSpec DEFAULT = new BalanceSpec(Policy.ROUND_ROBIN, false, null, null, Duration.ZERO);

    public enum Policy { ROUND_ROBIN, LEAST_CONN, RANDOM_TWO, HASH, STICKY }

    /** What a consistent hash is computed over. */
    public record HashKey(Kind kind, String name) {

        public enum Kind { CLIENT_ADDRESS, HEADER, COOKIE, PATH }

        public static final HashKey CLIENT_ADDRESS = new HashKey(Kind.CLIENT_ADDRESS, null);

        public HashKey {
            Objects.requireNonNull(kind, "kind");
        }
    }

    /** The sticky cookie: its name and how long it names the same upstream. */
    public record Sticky(String cookie, Duration ttl) {

        public static final Sticky DEFAULT = new Sticky("portico_sticky", Duration.ofHours(1));
    }

    public BalanceSpec {
        Objects.requireNonNull(policy, "policy");
        slowStart = slowStart == null ? Duration.ZERO : slowStart;
        if (policy == Policy.HASH && hashOn == null) {
            hashOn = HashKey.CLIENT_ADDRESS;
        }
        if (policy == Policy.STICKY && sticky == null) {
            sticky = Sticky.DEFAULT;
        }
    }
}
