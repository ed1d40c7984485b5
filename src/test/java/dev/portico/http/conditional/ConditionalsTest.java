package dev.portico.http.conditional;

import dev.portico.http.conditional.Conditionals.Outcome;
import dev.portico.testing.Headers;
import io.netty.handler.codec.DateFormatter;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpMethod;
import org.junit.jupiter.api.Test;

import java.util.Date;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConditionalsTest {

    /** Sun, 06 Nov 1994 08:49:37 GMT, the stored Last-Modified. */
    private static final long LM = 784111777000L;
    private static final String ETAG = "\"v1\"";

    private static String date(long millis) {
        return DateFormatter.format(new Date(millis));
    }

    private static MultiMap headers(String... namesAndValues) {
        return Headers.of(namesAndValues);
    }

    private static Outcome get(String... requestHeaders) {
        return Conditionals.evaluate(HttpMethod.GET, headers(requestHeaders), ETAG, LM);
    }

    @Test
    void unconditionalRequestsAreServedNormally() {
        assertEquals(Outcome.NONE, get());
        assertEquals(Outcome.NONE, Conditionals.evaluate(HttpMethod.GET, headers(), null, -1));
    }

    @Test
    void ifNoneMatchUsesWeakComparison() {
        assertEquals(Outcome.NOT_MODIFIED, get("If-None-Match", "\"v1\""));
        assertEquals(Outcome.NOT_MODIFIED, get("If-None-Match", "W/\"v1\""));
        assertEquals(Outcome.NOT_MODIFIED, Conditionals.evaluate(HttpMethod.GET, headers("If-None-Match", "\"v1\""),
                "W/\"v1\"", LM));
        assertEquals(Outcome.NONE, get("If-None-Match", "\"v2\""));
        assertEquals(Outcome.NONE, get("If-None-Match", "\"V1\""));
        assertEquals(Outcome.NONE, get("If-None-Match", "\"v1"));
    }

    @Test
    void ifNoneMatchListsAndStar() {
        assertEquals(Outcome.NOT_MODIFIED, get("If-None-Match", "\"a\", W/\"b\" ,\"v1\""));
        assertEquals(Outcome.NOT_MODIFIED, get("If-None-Match", "\"a\"", "If-None-Match", "\"v1\""));
        assertEquals(Outcome.NONE, get("If-None-Match", "\"a\", , \"b\""));
        assertEquals(Outcome.NOT_MODIFIED, get("If-None-Match", "*"));
        assertEquals(Outcome.NOT_MODIFIED,
                Conditionals.evaluate(HttpMethod.GET, headers("If-None-Match", "*"), null, -1));
        assertEquals(Outcome.NONE, Conditionals.evaluate(HttpMethod.GET, headers("If-None-Match", "\"v1\""), null, LM));
    }

    @Test
    void entityTagsMayContainCommas() {
        String stored = "\"a,b\"";
        assertEquals(Outcome.NOT_MODIFIED,
                Conditionals.evaluate(HttpMethod.GET, headers("If-None-Match", "\"x\", \"a,b\""), stored, -1));
        assertEquals(Outcome.NONE, Conditionals.evaluate(HttpMethod.GET, headers("If-None-Match", "\"a\", \"b\""),
                stored, -1));
    }

    @Test
    void malformedTagsAreComparedVerbatim() {
        assertEquals(Outcome.NOT_MODIFIED, Conditionals.evaluate(HttpMethod.GET, headers("If-None-Match", "x, abc"),
                "abc", -1));
        assertEquals(Outcome.NONE, Conditionals.evaluate(HttpMethod.GET, headers("If-None-Match", "abcd"), "abc", -1));
    }

    @Test
    void ifNoneMatchFailsOtherMethodsWith412() {
        assertEquals(Outcome.NOT_MODIFIED, Conditionals.evaluate(HttpMethod.HEAD, headers("If-None-Match", ETAG),
                ETAG, LM));
        assertEquals(Outcome.PRECONDITION_FAILED,
                Conditionals.evaluate(HttpMethod.POST, headers("If-None-Match", ETAG), ETAG, LM));
        assertEquals(Outcome.PRECONDITION_FAILED,
                Conditionals.evaluate(HttpMethod.PUT, headers("If-None-Match", "*"), ETAG, LM));
        assertEquals(Outcome.NONE, Conditionals.evaluate(HttpMethod.POST, headers("If-None-Match", "\"v2\""), ETAG,
                LM));
    }

    @Test
    void ifMatchUsesStrongComparison() {
        assertEquals(Outcome.NONE, get("If-Match", "\"v1\""));
        assertEquals(Outcome.NONE, get("If-Match", "\"x\", \"v1\""));
        assertEquals(Outcome.NONE, get("If-Match", "*"));
        assertEquals(Outcome.PRECONDITION_FAILED, get("If-Match", "\"v2\""));
        assertEquals(Outcome.PRECONDITION_FAILED, get("If-Match", "W/\"v1\""));
        assertEquals(Outcome.PRECONDITION_FAILED,
                Conditionals.evaluate(HttpMethod.GET, headers("If-Match", "\"v1\""), "W/\"v1\"", LM));
        assertEquals(Outcome.PRECONDITION_FAILED,
                Conditionals.evaluate(HttpMethod.GET, headers("If-Match", "\"v1\""), null, LM));
        assertEquals(Outcome.PRECONDITION_FAILED, get("If-Match", ""));
    }

    @Test
    void ifUnmodifiedSinceAppliesOnlyWithoutIfMatch() {
        assertEquals(Outcome.PRECONDITION_FAILED, get("If-Unmodified-Since", date(LM - 1_000)));
        assertEquals(Outcome.NONE, get("If-Unmodified-Since", date(LM)));
        assertEquals(Outcome.NONE, get("If-Unmodified-Since", "not a date"));
        assertEquals(Outcome.NONE, Conditionals.evaluate(HttpMethod.GET,
                headers("If-Unmodified-Since", date(LM - 1_000)), ETAG, -1));
        assertEquals(Outcome.NONE, get("If-Match", ETAG, "If-Unmodified-Since", date(LM - 1_000)));
    }

    @Test
    void ifMatchIsEvaluatedBeforeIfNoneMatch() {
        assertEquals(Outcome.PRECONDITION_FAILED, get("If-Match", "\"v2\"", "If-None-Match", ETAG));
        assertEquals(Outcome.NOT_MODIFIED, get("If-Match", ETAG, "If-None-Match", ETAG));
    }

    @Test
    void ifModifiedSinceOnlyWithoutIfNoneMatchAndForReads() {
        assertEquals(Outcome.NOT_MODIFIED, get("If-Modified-Since", date(LM)));
        assertEquals(Outcome.NOT_MODIFIED, get("If-Modified-Since", date(LM + 60_000)));
        assertEquals(Outcome.NONE, get("If-Modified-Since", date(LM - 1_000)));
        assertEquals(Outcome.NOT_MODIFIED, Conditionals.evaluate(HttpMethod.HEAD,
                headers("If-Modified-Since", date(LM)), ETAG, LM));
        assertEquals(Outcome.NONE, Conditionals.evaluate(HttpMethod.POST, headers("If-Modified-Since", date(LM)),
                ETAG, LM));
        assertEquals(Outcome.NONE, get("If-None-Match", "\"v2\"", "If-Modified-Since", date(LM)));
        assertEquals(Outcome.NONE, get("If-Modified-Since", "garbage"));
        assertEquals(Outcome.NONE, get("If-Modified-Since", date(LM) + ", " + date(LM)));
        assertEquals(Outcome.NONE, Conditionals.evaluate(HttpMethod.GET, headers("If-Modified-Since", date(LM)), ETAG,
                -1));
    }

    /** Each the stored Last-Modified or later, in a form lenient parsers accept; RFC 9110 section 13.1.3. */
    @Test
    void dateConditionsThatAreNotExactlyAnHttpDateAreIgnored() {
        for (String date : new String[] {"Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 06 Nov 94 08:49:37 GMT",
                "Sun 06 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994  08:49:37 GMT", "Sun, 06-Nov-1994 08:49:37 GMT",
                "Sun, 06 Nov 1994 8:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 Europe/Paris"}) {
            assertEquals(Outcome.NONE, get("If-Modified-Since", date), date);
            assertFalse(Conditionals.ifRangeMatches(headers("If-Range", date), ETAG, LM), date);
        }
        assertEquals(Outcome.NOT_MODIFIED, get("If-Modified-Since", date(LM)));
        assertEquals(Outcome.NONE, get("If-Unmodified-Since", "Sat, 05 Nov 1994 08:49:37 UTC"));
        assertEquals(Outcome.PRECONDITION_FAILED, get("If-Unmodified-Since", "Sat, 05 Nov 1994 08:49:37 GMT"));
    }

    @Test
    void ifRangeNeedsAStrongMatchOrTheExactDate() {
        assertTrue(Conditionals.ifRangeMatches(headers(), ETAG, LM));
        assertTrue(Conditionals.ifRangeMatches(headers("If-Range", " \"v1\" "), ETAG, LM));
        assertFalse(Conditionals.ifRangeMatches(headers("If-Range", "\"v2\""), ETAG, LM));
        assertFalse(Conditionals.ifRangeMatches(headers("If-Range", "W/\"v1\""), ETAG, LM));
        assertFalse(Conditionals.ifRangeMatches(headers("If-Range", "\"v1\""), "W/\"v1\"", LM));
        assertFalse(Conditionals.ifRangeMatches(headers("If-Range", "\"v1\""), null, LM));
        assertTrue(Conditionals.ifRangeMatches(headers("If-Range", date(LM)), ETAG, LM));
        assertTrue(Conditionals.ifRangeMatches(headers("If-Range", "Sunday, 06-Nov-94 08:49:37 GMT"), null, LM));
        assertFalse(Conditionals.ifRangeMatches(headers("If-Range", date(LM + 1_000)), ETAG, LM));
        assertFalse(Conditionals.ifRangeMatches(headers("If-Range", date(LM - 1_000)), ETAG, LM));
        assertFalse(Conditionals.ifRangeMatches(headers("If-Range", "garbage"), ETAG, LM));
        assertFalse(Conditionals.ifRangeMatches(headers("If-Range", date(LM)), ETAG, -1));
    }

    @Test
    void weakensEntityTags() {
        assertEquals("W/\"v1\"", Conditionals.weakEtag("\"v1\""));
        assertEquals("W/\"v1\"", Conditionals.weakEtag("W/\"v1\""));
        assertNull(Conditionals.weakEtag(null));
        assertTrue(Conditionals.isWeak("W/\"x\""));
        assertFalse(Conditionals.isWeak("\"W/x\""));
    }
}
