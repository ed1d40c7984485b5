package dev.portico.proxy.core.outcome;

/** What the response cache did for a request; counted per vhost in the live statistics and metrics. */
public enum CacheOutcome {
    /** Answered from a fresh stored response. */
    HIT("hit"),
    /** Answered from a stale stored response (stale-while-revalidate, stale-if-error). */
    STALE("stale"),
    /** Answered from a stored response the origin confirmed unchanged (304). */
    REVALIDATED("revalidated"),
    /** Fetched from the origin (and stored when cacheable). */
    MISS("miss"),
    /** Waited for another request's fetch of the same response and was answered from it. */
    COLLAPSED("collapsed"),
    /** Not eligible for the cache: an unsafe method, no-store, a range or an authorization the entry forbids. */
    BYPASS("bypass");

    private final String code;

    CacheOutcome(String code) {
        this.code = code;
    }

    public String code() {
        return code;
    }
}
