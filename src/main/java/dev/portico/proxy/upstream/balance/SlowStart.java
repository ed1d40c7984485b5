package dev.portico.proxy.upstream.balance;

/**
 * A vhost's slow start (HAProxy's {@code slowstart}, nginx Plus' {@code slow_start}, Envoy's slow start mode): an
 * upstream that came back after passive health took it out gets 10% of its weight at first, growing linearly to all
 * of it over the ramp, so a cold cache or JIT behind it is not flooded with its full share at once.
 */
public record SlowStart(long rampNanos) {

    /** The share of its weight an upstream starts with. */
    public static final double FIRST_SHARE = 0.1;

    public SlowStart {
        if (rampNanos <= 0) {
            throw new IllegalArgumentException("a slow start ramps over a positive time");
        }
    }

    /**
     * @param cameBackAtNanos when the upstream came back, or {@link UpstreamHealth#NEVER}
     * @return the share of its weight, from {@value #FIRST_SHARE} when it just came back to 1 once the ramp is over
     */
    public double share(long cameBackAtNanos, long nowNanos) {
        if (cameBackAtNanos == UpstreamHealth.NEVER) {
            return 1.0;
        }
        long elapsed = nowNanos - cameBackAtNanos;
        if (elapsed >= rampNanos) {
            return 1.0;
        }
        if (elapsed <= 0) {
            return FIRST_SHARE;
        }
        return FIRST_SHARE + (1.0 - FIRST_SHARE) * ((double) elapsed / rampNanos);
    }
}
