package dev.portico.vhost;

import java.time.Duration;
import java.util.List;

/**
 * A vhost's active health check of each of its upstreams: an HTTP request whose answer must match, or a TCP connect.
 * One result after another moves an upstream between healthy and unhealthy: {@code rise} passes in a row bring it
 * back, {@code fall} failures in a row take it out. A new upstream gets no traffic until its first check passes.
 *
 * @param type          {@link Type#HTTP} or {@link Type#TCP}
 * @param path          the request target of an HTTP check, starting with {@code /}, sent as it is (no base path)
 * @param method        GET or HEAD
 * @param expectStatus  the statuses that pass, as inclusive ranges {@code [low, high]}
 * @param expectBody    a substring the body must contain (its first 64 KiB), or null
 * @param host          the {@code Host} of an HTTP check, or null for the upstream's own authority
 * @param interval      time between two checks of one upstream
 * @param timeout       a check that has not passed within this fails (connect included)
 * @param rise          passes in a row that make an unhealthy upstream healthy
 * @param fall          failures in a row that make a healthy upstream unhealthy
 * @param jitter        each wait between checks is lengthened by a random share of this, so checks drift apart
 */
public record HealthCheckSpec(Type type, String path, String method, List<int[]> expectStatus, String expectBody,
                              String host, Duration interval, Duration timeout, int rise, int fall, Duration jitter) {

    /** What a check does. */
    public enum Type {
        HTTP, TCP
    }

    public HealthCheckSpec {
        expectStatus = List.copyOf(expectStatus);
    }

    /** Whether {@code status} is one the check expects. */
    public boolean expects(int status) {
        for (int[] range : expectStatus) {
            if (status >= range[0] && status <= range[1]) {
                return true;
            }
        }
        return false;
    }

    /**
     * What makes two checks the same check (one checker runs for both): every setting, the status ranges by value.
     * Records compare arrays by identity, hence this.
     */
    public List<Object> identity() {
        return List.of(type, String.valueOf(path), String.valueOf(method),
                expectStatus.stream().map(r -> r[0] + "-" + r[1]).toList(), String.valueOf(expectBody),
                String.valueOf(host), interval, timeout, rise, fall, jitter);
    }
}
