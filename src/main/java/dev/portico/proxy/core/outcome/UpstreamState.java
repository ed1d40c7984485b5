package dev.portico.proxy.core.outcome;

/**
 * Where an upstream of a vhost stands, as the upstreams endpoint, the {@code upstream} events, the logs and the
 * {@code portico_upstream_state} metric name it.
 */
public enum UpstreamState {
    /** Active checks are on and none has answered yet: no traffic until the first one passes. */
    UNKNOWN("unknown", false),
    /** Takes traffic. */
    HEALTHY("healthy", true),
    /**
     * A {@code backup} upstream that could take traffic but gets none, because a primary is available; it becomes
     * {@link #HEALTHY} when every primary is out (a request whose primaries were all tried may still use it).
     */
    BACKUP_STANDBY("backup-standby", false),
    /** Active checks failed {@code fall} times in a row: no traffic until {@code rise} pass in a row. */
    UNHEALTHY("unhealthy", false),
    /** Passive health took it out (5xx or failures in a row) until its ejection ends. */
    EJECTED("ejected", false),
    /** Removed from the configuration while requests sent to it finish. */
    DRAINING("draining", false);

    private final String code;
    private final boolean takesTraffic;

    UpstreamState(String code, boolean takesTraffic) {
        this.code = code;
        this.takesTraffic = takesTraffic;
    }

    public String code() {
        return code;
    }

    /** Whether new requests may go to an upstream in this state. */
    public boolean takesTraffic() {
        return takesTraffic;
    }
}
