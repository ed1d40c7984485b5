package dev.portico.control.api.auth;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import jakarta.inject.Singleton;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;

/**
 * Slows down guessing the admin token through {@code POST /api/v1/session}: a client address that failed
 * {@code portico.dashboard.max-sign-in-failures} times within the last minute gets 429 for every sign-in, right token
 * or not (otherwise a guesser would still learn which guess was right), until its oldest failure is a minute old.
 * IPv6 clients count per /64, the block one host usually has. At most {@value #MAX_CLIENTS} addresses are tracked,
 * so spraying addresses costs memory no more than that.
 */
@Singleton
public class SignInThrottle {

    static final Duration WINDOW = Duration.ofMinutes(1);
    static final int MAX_CLIENTS = 100_000;

    private final int maxFailures;
    private final Cache<String, Deque<Instant>> failures = Caffeine.newBuilder()
            .expireAfterAccess(WINDOW)
            .maximumSize(MAX_CLIENTS)
            .build();

    public SignInThrottle(DashboardSettings settings) {
        this.maxFailures = settings.maxSignInFailures();
    }

    /**
     * Takes one attempt of {@code client}: counted as a failure right away, so that concurrent guesses cannot all
     * pass before any of them is counted ({@link #succeeded} takes it back).
     *
     * @return {@link Duration#ZERO} when the attempt may go ahead; else how long the client must wait, and the
     * attempt is not counted
     */
    public Duration tryAttempt(String client, Instant now) {
        Deque<Instant> recent = failures.get(key(client), k -> new ArrayDeque<>());
        synchronized (recent) {
            forgetOld(recent, now);
            if (recent.size() >= maxFailures) {
                return Duration.between(now, recent.peekFirst().plus(WINDOW));
            }
            recent.addLast(now);
            return Duration.ZERO;
        }
    }

    /** The attempt {@link #tryAttempt} took at {@code at} used the right token: it is not a failure. */
    public void succeeded(String client, Instant at) {
        Deque<Instant> recent = failures.getIfPresent(key(client));
        if (recent != null) {
            synchronized (recent) {
                recent.removeLastOccurrence(at);
            }
        }
    }

    private static void forgetOld(Deque<Instant> recent, Instant now) {
        Instant cutoff = now.minus(WINDOW);
        while (!recent.isEmpty() && !recent.peekFirst().isAfter(cutoff)) {
            recent.removeFirst();
        }
    }

    /** The address itself for IPv4, its /64 for IPv6; anything that is not an address literal as it is. */
    static String key(String client) {
        if (client == null || !client.contains(":")) {
            return String.valueOf(client);
        }
        try {
            InetAddress address = InetAddress.getByName(client.replaceAll("^\\[|]$", ""));
            if (address instanceof Inet6Address) {
                return Arrays.toString(Arrays.copyOf(address.getAddress(), 8)) + "/64";
            }
            return address.getHostAddress();
        } catch (UnknownHostException e) {
            return client;
        }
    }
}
