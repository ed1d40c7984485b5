package dev.portico.control.acme;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.random.RandomGenerator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The renewal and backoff arithmetic, with the random draw pinned. */
class RenewalScheduleTest {

    private static final Instant ISSUED = Instant.parse("2026-01-01T00:00:00Z");
    private static final Instant EXPIRES = ISSUED.plus(Duration.ofDays(90));
    private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

    @Test
    void withoutRenewalInfoRenewsAtTwoThirdsOfTheLifetimePlusOrMinusTwoPercent() {
        assertEquals(ISSUED.plus(Duration.ofDays(60)), schedule(0.5).renewAt(ISSUED, EXPIRES, Optional.empty()));
        assertEquals(ISSUED.plus(Duration.ofDays(60)).minus(Duration.ofMinutes(43 * 60 + 12)),
                schedule(0.0).renewAt(ISSUED, EXPIRES, Optional.empty()), "2 % of 90 days = 43.2 h earlier");
        assertEquals(ISSUED.plus(Duration.ofDays(60)).plus(Duration.ofMinutes(43 * 60 + 12)),
                schedule(1.0).renewAt(ISSUED, EXPIRES, Optional.empty()), "at most 43.2 h later");
    }

    @Test
    void withRenewalInfoPicksATimeInsideTheCasWindow() {
        RenewalSchedule.RenewalWindow window = new RenewalSchedule.RenewalWindow(NOW, NOW.plus(Duration.ofHours(10)));

        assertEquals(NOW, schedule(0.0).renewAt(ISSUED, EXPIRES, Optional.of(window)));
        assertEquals(NOW.plus(Duration.ofHours(5)), schedule(0.5).renewAt(ISSUED, EXPIRES, Optional.of(window)));
    }

    @Test
    void backsOffExponentiallyFromOneHourUpToADayWithJitter() {
        RenewalSchedule middle = schedule(0.5);
        assertEquals(NOW.plus(Duration.ofHours(1)), middle.retryAt(NOW, 1, Optional.empty()));
        assertEquals(NOW.plus(Duration.ofHours(2)), middle.retryAt(NOW, 2, Optional.empty()));
        assertEquals(NOW.plus(Duration.ofHours(16)), middle.retryAt(NOW, 5, Optional.empty()));
        assertEquals(NOW.plus(Duration.ofHours(24)), middle.retryAt(NOW, 6, Optional.empty()));
        assertEquals(NOW.plus(Duration.ofHours(24)), middle.retryAt(NOW, 40, Optional.empty()));
        assertEquals(NOW.plus(Duration.ofMinutes(30)), schedule(0.0).retryAt(NOW, 1, Optional.empty()));
        assertEquals(NOW.plus(Duration.ofHours(36)), schedule(1.0).retryAt(NOW, 9, Optional.empty()));
    }

    @Test
    void neverRetriesBeforeTheCasRetryAfter() {
        Instant retryAfter = NOW.plus(Duration.ofDays(3));

        assertEquals(retryAfter, schedule(0.5).retryAt(NOW, 1, Optional.of(retryAfter)));
        assertEquals(NOW.plus(Duration.ofHours(1)),
                schedule(0.5).retryAt(NOW, 1, Optional.of(NOW.plus(Duration.ofMinutes(1)))),
                "a Retry-After sooner than the backoff does not shorten it");
    }

    @Test
    void aFractionOutsideTheLifetimeIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new RenewalSchedule(1.0, fixed(0.5)));
        assertThrows(IllegalArgumentException.class, () -> new RenewalSchedule(0.0, fixed(0.5)));
    }

    private static RenewalSchedule schedule(double draw) {
        return new RenewalSchedule(2.0 / 3, fixed(draw));
    }

    /** A "random" source whose every double is {@code draw} (1.0 stands for the top of [0, 1)). */
    private static RandomGenerator fixed(double draw) {
        return new RandomGenerator() {
            @Override
            public long nextLong() {
                return 0;
            }

            @Override
            public double nextDouble() {
                return draw;
            }
        };
    }
}
