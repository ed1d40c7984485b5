package dev.portico.cache.rules;

import dev.portico.testing.Headers;
import dev.portico.cache.rules.Freshness.Decision;
import dev.portico.cache.rules.Freshness.Use;
import io.netty.handler.codec.DateFormatter;
import io.vertx.core.MultiMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Date;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class FreshnessTest {

    /** Sun, 06 Nov 1994 08:49:37 GMT. */
    private static final long T = 784111777000L;
    private static final long HOUR = 3_600_000L;

    private static String date(long millis) {
        return DateFormatter.format(new Date(millis));
    }

    private static MultiMap headers(String... namesAndValues) {
        return Headers.of(namesAndValues);
    }

    private static CacheControl cc(String value) {
        return CacheControl.parse(List.of(value));
    }

    private static long lifetime(int status, MultiMap headers) {
        return Freshness.lifetimeMillis(status, headers, CacheControl.ofResponse(headers), HOUR);
    }

    private static Decision decide(long lifetime, long age, String response, String request) {
        return Freshness.evaluate(lifetime, age, cc(response), cc(request), 0, 0);
    }

    @Test
    void sMaxAgeWinsOverMaxAgeWhichWinsOverExpires() {
        assertEquals(10_000, lifetime(200, headers("Cache-Control", "max-age=60, s-maxage=10")));
        assertEquals(120_000, lifetime(200, headers("Cache-Control", "max-age=60, s-maxage=120")));
        assertEquals(60_000, lifetime(200, headers("Cache-Control", "max-age=60", "Date", date(T),
                "Expires", date(T - HOUR))));
        assertEquals(0, lifetime(200, headers("Cache-Control", "max-age=abc", "Date", date(T),
                "Expires", date(T + HOUR))));
        assertEquals(2_147_483_648_000L, lifetime(500, headers("Cache-Control", "max-age=99999999999999")));
    }

    @Test
    void expiresCountsFromDate() {
        assertEquals(100_000, lifetime(200, headers("Date", date(T), "Expires", date(T + 100_000))));
        assertEquals(0, lifetime(200, headers("Date", date(T), "Expires", date(T - 100_000))));
        assertEquals(0, lifetime(200, headers("Date", date(T), "Expires", "0")));
        assertEquals(0, lifetime(200, headers("Date", date(T), "Expires", "tomorrow")));
        assertEquals(0, lifetime(200, headers("Date", date(T), "Expires", date(T + 100_000),
                "Expires", date(T + 200_000))));
        assertEquals(100_000, lifetime(200, headers("Date", date(T), "Expires", date(T + 100_000),
                "Expires", date(T + 100_000))));
        // RFC 850 and asctime dates are HTTP-dates too.
        assertEquals(3_600_000, lifetime(302, headers("Date", "Sunday, 06-Nov-94 08:49:37 GMT",
                "Expires", "Sun Nov  6 09:49:37 1994")));
    }

    /** Each an hour after T, in a form lenient parsers accept; RFC 9111 section 5.3: invalid means expired. */
    @ParameterizedTest
    @ValueSource(strings = {"Sun, 06 Nov 1994 09:49:37 UTC", "Sun, 06 Nov 1994 09:49:37 CET",
            "Sun, 06 Nov 94 09:49:37 GMT", "Sun 06 Nov 1994 09:49:37 GMT", "Sun,  06 Nov 1994 09:49:37 GMT",
            "Sun, 06-Nov-1994 09:49:37 GMT", "Sun, 06 Nov 1994 9:49:37 GMT", "sun, 06 nov 1994 09:49:37 gmt"})
    void anExpiresThatIsNotExactlyAnHttpDateIsAlreadyExpired(String expires) {
        assertEquals(0, lifetime(200, headers("Date", date(T), "Expires", expires)));
        assertEquals(3_600_000, lifetime(200, headers("Date", date(T), "Expires", date(T + HOUR))));
    }

    @Test
    void anInvalidDateOrLastModifiedCountsAsAbsent() {
        // Date: the response time stands in for it (RFC 9110 section 6.6.1).
        assertEquals(100_000, Freshness.lifetimeMillis(200, headers("Date", "Sun, 06 Nov 1994 08:49:37 UTC",
                "Expires", date(T + 100_000)), CacheControl.NONE, HOUR, T));
        // Last-Modified: no heuristic from it, so the cap itself.
        assertEquals(HOUR, lifetime(200, headers("Date", date(T),
                "Last-Modified", "Sun, 06 Nov 1994 07:49:37 UTC")));
        assertEquals(360_000, lifetime(200, headers("Date", date(T), "Last-Modified", date(T - HOUR))));
    }

    @Test
    void withoutAValidDateExpiresCountsFromTheResponseTime() {
        MultiMap noDate = headers("Expires", date(T + 100_000));
        assertEquals(40_000, Freshness.lifetimeMillis(200, noDate, CacheControl.NONE, HOUR, T + 60_000));
        assertEquals(0, Freshness.lifetimeMillis(200, noDate, CacheControl.NONE, HOUR));
        MultiMap badDate = headers("Date", "yesterday", "Expires", date(T + 100_000));
        assertEquals(100_000, Freshness.lifetimeMillis(200, badDate, CacheControl.NONE, HOUR, T));
        assertEquals(0, Freshness.lifetimeMillis(200, noDate, CacheControl.NONE, HOUR, T + 200_000));
    }

    @Test
    void heuristicIsTenPercentOfTheAgeOfLastModifiedCapped() {
        assertEquals(100_000, lifetime(200, headers("Date", date(T), "Last-Modified", date(T - 1_000_000))));
        assertEquals(HOUR, lifetime(404, headers("Date", date(T), "Last-Modified", date(T - 100 * HOUR))));
        assertEquals(0, lifetime(200, headers("Date", date(T), "Last-Modified", date(T + 1_000_000))));
        assertEquals(HOUR, lifetime(200, headers("Date", date(T), "Last-Modified", "garbage")));
        assertEquals(HOUR, lifetime(200, headers("Date", date(T))));
        assertEquals(HOUR, lifetime(200, headers()));
        assertEquals(HOUR, lifetime(200, headers("Last-Modified", date(T - 1_000_000))));
        assertEquals(50_000, Freshness.lifetimeMillis(200, headers("Last-Modified", date(T - 1_000_000)),
                CacheControl.NONE, HOUR, T - 500_000));
    }

    @Test
    void heuristicOnlyForCacheableStatusesOrPublicAndCapZeroDisablesIt() {
        assertEquals(0, lifetime(302, headers("Date", date(T), "Last-Modified", date(T - 1_000_000))));
        assertEquals(0, lifetime(500, headers()));
        assertEquals(100_000, lifetime(302, headers("Cache-Control", "public", "Date", date(T),
                "Last-Modified", date(T - 1_000_000))));
        assertEquals(HOUR, lifetime(307, headers("Cache-Control", "public")));
        assertEquals(0, Freshness.lifetimeMillis(200, headers(), CacheControl.NONE, 0));
        assertEquals(0, Freshness.lifetimeMillis(200, headers("Date", date(T), "Last-Modified", date(T - 1_000_000)),
                CacheControl.NONE, 0));
        assertEquals(0, Freshness.lifetimeMillis(200, headers(), CacheControl.NONE, -5));
    }

    @Test
    void correctedInitialAgeTakesTheLargerOfApparentAndReportedAge() {
        long requestTime = T - 1_000;
        assertEquals(5_000, Freshness.correctedInitialAgeMillis(headers("Date", date(T - 5_000)), requestTime, T));
        assertEquals(11_000, Freshness.correctedInitialAgeMillis(headers("Date", date(T - 5_000), "Age", "10"),
                requestTime, T));
        assertEquals(8_000, Freshness.correctedInitialAgeMillis(headers("Age", " 7 "), requestTime, T));
        assertEquals(1_000, Freshness.correctedInitialAgeMillis(headers(), requestTime, T));
        assertEquals(0, Freshness.correctedInitialAgeMillis(headers("Date", date(T + 60_000)), T, T));
        assertEquals(2_147_483_648_000L + 1_000,
                Freshness.correctedInitialAgeMillis(headers("Age", "99999999999999999"), requestTime, T));
    }

    @Test
    void invalidAgeIsIgnored() {
        long requestTime = T - 1_000;
        assertEquals(5_000, Freshness.correctedInitialAgeMillis(headers("Date", date(T - 5_000), "Age", "abc"),
                requestTime, T));
        assertEquals(5_000, Freshness.correctedInitialAgeMillis(headers("Date", date(T - 5_000), "Age", "-50"),
                requestTime, T));
        assertEquals(5_000, Freshness.correctedInitialAgeMillis(headers("Date", date(T - 5_000), "Age", "1.5"),
                requestTime, T));
        assertEquals(5_000, Freshness.correctedInitialAgeMillis(headers("Date", date(T - 5_000), "Age", "abc, 20"),
                requestTime, T));
        assertEquals(5_000, Freshness.correctedInitialAgeMillis(headers("Date", date(T - 5_000), "Age", "10 20"),
                requestTime, T));
        assertEquals(5_000, Freshness.correctedInitialAgeMillis(headers("Date", date(T - 5_000), "Age", ""),
                requestTime, T));
        assertEquals(3_000, Freshness.correctedInitialAgeMillis(headers("Age", "3"), T + 10, T));
    }

    @Test
    void anAgeListCountsAsItsFirstMember() {
        long requestTime = T - 1_000;
        assertEquals(7_201_000, Freshness.correctedInitialAgeMillis(headers("Age", "7200, 0"), requestTime, T));
        assertEquals(7_201_000, Freshness.correctedInitialAgeMillis(headers("Age", "7200,0"), requestTime, T));
        assertEquals(1_000, Freshness.correctedInitialAgeMillis(headers("Age", "0, 7200"), requestTime, T));
        assertEquals(11_000, Freshness.correctedInitialAgeMillis(headers("Age", " , 10 ,20"), requestTime, T));
        // Only the first member has to be valid: it is the one that counts.
        assertEquals(11_000, Freshness.correctedInitialAgeMillis(headers("Age", "10, abc"), requestTime, T));
        // Of two field lines, the first.
        assertEquals(11_000, Freshness.correctedInitialAgeMillis(headers("Age", "10", "Age", "7200"),
                requestTime, T));
        // The list's first member makes a max-age=3600 response stale on arrival.
        long age = Freshness.correctedInitialAgeMillis(headers("Age", "7200, 0"), T, T);
        assertEquals(Use.MUST_REVALIDATE, decide(3_600_000, age, "max-age=3600", "").use());
    }

    @Test
    void currentAgeAddsResidentTime() {
        assertEquals(15_000, Freshness.currentAgeMillis(5_000, T, T + 10_000));
        assertEquals(5_000, Freshness.currentAgeMillis(5_000, T, T - 10_000));
    }

    @Test
    void freshResponsesAreServedUntilTheirLifetimeIsReached() {
        assertEquals(new Decision(Use.FRESH, 0), decide(60_000, 59_999, "", ""));
        assertEquals(Use.MUST_REVALIDATE, decide(60_000, 60_000, "", "").use());
        assertEquals(Use.MUST_REVALIDATE, decide(0, 0, "", "").use());
    }

    @Test
    void noCacheAlwaysRevalidates() {
        assertEquals(Use.MUST_REVALIDATE, decide(60_000, 0, "", "no-cache").use());
        assertEquals(Use.MUST_REVALIDATE, decide(60_000, 0, "no-cache", "").use());
        assertEquals(Use.MUST_REVALIDATE, Freshness.evaluate(60_000, 0, CacheControl.NONE,
                CacheControl.ofRequest(headers("Pragma", "no-cache")), 0, 0).use());
    }

    @Test
    void requestMaxAgeAndMinFreshLimitWhatIsFreshEnough() {
        assertEquals(Use.FRESH, decide(60_000, 0, "", "max-age=0").use());
        assertEquals(Use.MUST_REVALIDATE, decide(60_000, 1, "", "max-age=0").use());
        assertEquals(Use.FRESH, decide(60_000, 10_000, "", "max-age=10").use());
        assertEquals(Use.MUST_REVALIDATE, decide(60_000, 10_001, "", "max-age=10").use());
        assertEquals(Use.FRESH, decide(60_000, 30_000, "", "min-fresh=30").use());
        assertEquals(Use.MUST_REVALIDATE, decide(60_000, 30_001, "", "min-fresh=30").use());
        assertEquals(Use.MUST_REVALIDATE,
                decide(60_000, 70_000, "stale-while-revalidate=60", "max-age=65").use());
    }

    @Test
    void staleWhileRevalidateServesWithinTheWindow() {
        assertEquals(Use.STALE_WHILE_REVALIDATE, decide(60_000, 70_000, "stale-while-revalidate=30", "").use());
        assertEquals(Use.STALE_WHILE_REVALIDATE, decide(60_000, 89_999, "stale-while-revalidate=30", "").use());
        assertEquals(Use.MUST_REVALIDATE, decide(60_000, 90_000, "stale-while-revalidate=30", "").use());
        assertEquals(Use.STALE_WHILE_REVALIDATE, Freshness.evaluate(60_000, 70_000, CacheControl.NONE,
                CacheControl.NONE, 30_000, 0).use());
        assertEquals(Use.MUST_REVALIDATE, Freshness.evaluate(60_000, 70_000, cc("stale-while-revalidate=5"),
                CacheControl.NONE, 30_000, 0).use());
        assertEquals(Use.MUST_REVALIDATE, Freshness.evaluate(60_000, 60_000, CacheControl.NONE,
                CacheControl.NONE, 0, 0).use());
    }

    @Test
    void revalidationDirectivesForbidServingStale() {
        assertEquals(Use.MUST_REVALIDATE,
                decide(60_000, 70_000, "must-revalidate, stale-while-revalidate=30", "").use());
        assertEquals(Use.MUST_REVALIDATE,
                decide(60_000, 70_000, "proxy-revalidate, stale-while-revalidate=30", "").use());
        assertEquals(Use.MUST_REVALIDATE, Freshness.evaluate(60_000, 70_000, cc("s-maxage=60"), CacheControl.NONE,
                30_000, 0).use());
        assertEquals(Use.STALE_WHILE_REVALIDATE,
                decide(60_000, 70_000, "s-maxage=60, stale-while-revalidate=30", "").use());
        assertEquals(Use.FRESH, decide(60_000, 30_000, "must-revalidate", "").use());
    }

    @Test
    void maxStaleAcceptsStaleUnlessTheResponseForbidsIt() {
        assertEquals(Use.FRESH, decide(60_000, 70_000, "", "max-stale=10").use());
        assertEquals(Use.MUST_REVALIDATE, decide(60_000, 70_001, "", "max-stale=10").use());
        assertEquals(Use.FRESH, decide(60_000, 10_000_000_000L, "", "max-stale").use());
        assertEquals(Use.MUST_REVALIDATE, decide(60_000, 70_000, "must-revalidate", "max-stale").use());
        assertEquals(Use.MUST_REVALIDATE, decide(60_000, 70_000, "proxy-revalidate", "max-stale").use());
        assertEquals(Use.MUST_REVALIDATE, decide(60_000, 70_000, "s-maxage=60", "max-stale").use());
        assertEquals(Use.MUST_REVALIDATE, decide(60_000, 70_000, "no-cache", "max-stale").use());
        assertEquals(Use.STALE_WHILE_REVALIDATE,
                decide(60_000, 70_000, "stale-while-revalidate=30", "max-stale").use());
    }

    @Test
    void staleIfErrorComesFromResponseThenRequestThenDefault() {
        assertEquals(600_000, Freshness.evaluate(60_000, 0, cc("stale-if-error=600"), cc("stale-if-error=30"), 0, 5_000)
                .staleIfErrorMillis());
        assertEquals(30_000, Freshness.evaluate(60_000, 0, CacheControl.NONE, cc("stale-if-error=30"), 0, 5_000)
                .staleIfErrorMillis());
        assertEquals(5_000, Freshness.evaluate(60_000, 0, CacheControl.NONE, CacheControl.NONE, 0, 5_000)
                .staleIfErrorMillis());
        assertEquals(0, Freshness.evaluate(60_000, 0, CacheControl.NONE, CacheControl.NONE, 0, -5)
                .staleIfErrorMillis());
        assertEquals(5_000, Freshness.evaluate(60_000, 0, CacheControl.NONE, cc("no-cache"), 0, 5_000)
                .staleIfErrorMillis());
    }

    @Test
    void staleIfErrorIsForbiddenByRevalidationDirectives() {
        assertEquals(new Decision(Use.FRESH, 0), Freshness.evaluate(60_000, 0, cc("must-revalidate, stale-if-error=60"),
                cc("stale-if-error=60"), 0, 5_000));
        assertEquals(0, Freshness.evaluate(60_000, 0, cc("proxy-revalidate"), CacheControl.NONE, 0, 5_000)
                .staleIfErrorMillis());
        assertEquals(new Decision(Use.MUST_REVALIDATE, 0),
                Freshness.evaluate(60_000, 0, cc("no-cache, stale-if-error=60"), CacheControl.NONE, 0, 5_000));
        assertEquals(0, Freshness.evaluate(60_000, 0, cc("s-maxage=60"), cc("stale-if-error=30"), 0, 5_000)
                .staleIfErrorMillis());
        assertEquals(10_000, Freshness.evaluate(60_000, 0, cc("s-maxage=60, stale-if-error=10"), CacheControl.NONE,
                0, 5_000).staleIfErrorMillis());
    }
}
