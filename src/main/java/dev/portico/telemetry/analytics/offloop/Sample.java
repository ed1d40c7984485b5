package dev.portico.telemetry.analytics.offloop;

import java.util.UUID;

/**
 * What the analytics keep of one finished request, copied on its event loop: references to strings the request
 * already holds and a few numbers, nothing parsed. Turning them into dimension keys happens on the analytics thread.
 *
 * @param target the origin-form request target, query string included
 * @param peer the TCP peer's address
 * @param forwardedFor {@code X-Forwarded-For} as the upstream saw it, only when the peer is a trusted proxy
 * @param userAgent {@code User-Agent}, or null
 * @param referrer {@code Referer}, or null
 */
public record Sample(UUID vhostId, long timeMillis, int status, long bytesIn, long bytesOut, String target, String peer,
              String forwardedFor, String userAgent, String referrer) {
}
