package dev.portico.control.acme;

import org.shredzone.acme4j.Login;
import org.shredzone.acme4j.RenewalInfo;
import org.shredzone.acme4j.exception.AcmeException;

import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * When to renew a certificate, and when to try again after a failure.
 * <ul>
 *   <li>With ACME Renewal Information (RFC 9773) from the CA: a random time inside its suggested window, as the RFC
 *       asks, so a CA revoking many certificates at once is not hit by every client in the same second.</li>
 *   <li>Without it: at {@code renewAtFraction} (2/3) of the lifetime, plus or minus 2 % of the lifetime, so
 *       certificates issued together do not all renew together.</li>
 *   <li>After a failure: {@code min(1 h * 2^failures, 24 h)} times a random factor in [0.5, 1.5), but never before
 *       the CA's Retry-After.</li>
 * </ul>
 */
public final class RenewalSchedule {

    static final Duration FIRST_BACKOFF = Duration.ofHours(1);
    static final Duration LONGEST_BACKOFF = Duration.ofHours(24);
    static final double LIFETIME_JITTER = 0.02;

    private final double renewAtFraction;
    private final RandomGenerator random;

    public RenewalSchedule(double renewAtFraction, RandomGenerator random) {
        if (!(renewAtFraction > 0 && renewAtFraction < 1)) {
            throw new IllegalArgumentException("portico.acme.renew-at-fraction must be between 0 and 1, not "
                    + renewAtFraction);
        }
        this.renewAtFraction = renewAtFraction;
        this.random = random;
    }

    /** The CA's suggested renewal window (ARI) for a certificate. */
    public record RenewalWindow(Instant start, Instant end) {
    }

    /**
     * When to renew the certificate valid from {@code notBefore} to {@code notAfter}: inside the CA's window when it
     * gave one, else at the lifetime fraction with jitter.
     */
    public Instant renewAt(Instant notBefore, Instant notAfter, Optional<RenewalWindow> window) {
        if (window.isPresent() && window.get().end().isAfter(window.get().start())) {
            Duration width = Duration.between(window.get().start(), window.get().end());
            return window.get().start().plusMillis((long) (random.nextDouble() * width.toMillis()));
        }
        long lifetime = Duration.between(notBefore, notAfter).toMillis();
        double jitter = (random.nextDouble() * 2 - 1) * LIFETIME_JITTER;
        return notBefore.plusMillis((long) (lifetime * (renewAtFraction + jitter)));
    }

    /**
     * When to try again after {@code failures} failed attempts in a row (1 after the first failure).
     *
     * @param retryAfter the CA's Retry-After, when it rate-limited us
     */
    public Instant retryAt(Instant now, int failures, Optional<Instant> retryAfter) {
        int exponent = Math.max(0, Math.min(failures - 1, 5)); // 2^5 h > 24 h: the cap applies from there
        Duration base = FIRST_BACKOFF.multipliedBy(1L << exponent);
        if (base.compareTo(LONGEST_BACKOFF) > 0) {
            base = LONGEST_BACKOFF;
        }
        Instant next = now.plusMillis((long) (base.toMillis() * (0.5 + random.nextDouble())));
        return retryAfter.filter(next::isBefore).orElse(next);
    }

    /**
     * The CA's renewal window for {@code certificate}, when its directory offers ARI; empty when it does not
     * (Pebble 2.4, older CAs) or the CA did not answer, so the caller falls back to the lifetime fraction.
     */
    public static Optional<RenewalWindow> askCa(Login login, X509Certificate certificate) {
        try {
            RenewalInfo info = login.bindRenewalInfo(certificate);
            return Optional.of(new RenewalWindow(info.getSuggestedWindowStart(), info.getSuggestedWindowEnd()));
        } catch (AcmeException | RuntimeException e) {
            // AcmeNotSupportedException (no renewalInfo in the directory) or a failed fetch: renewing by the
            // lifetime fraction is always safe
            return Optional.empty();
        }
    }
}
