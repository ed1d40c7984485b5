package dev.portico.cache.rules;

import dev.portico.testing.Headers;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpMethod;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StorabilityTest {

    private static MultiMap headers(String... namesAndValues) {
        return Headers.of(namesAndValues);
    }

    /** The reason for a GET, or null when storable. */
    private static String reason(int status, MultiMap request, MultiMap response) {
        return reason(HttpMethod.GET, status, request, response);
    }

    private static String reason(HttpMethod method, int status, MultiMap request, MultiMap response) {
        Storability.Verdict verdict = Storability.check(method, status, request, response,
                CacheControl.ofResponse(response), CacheControl.ofRequest(request));
        assertEquals(verdict.reason() == null, verdict.storable());
        return verdict.reason();
    }

    private static String reason(int status, String responseCacheControl) {
        return reason(status, headers(), headers("Cache-Control", responseCacheControl));
    }

    @Test
    void aPlainOkResponseIsStorable() {
        Storability.Verdict verdict = Storability.check(HttpMethod.GET, 200, headers(), headers(),
                CacheControl.NONE, CacheControl.NONE);
        assertTrue(verdict.storable());
        assertNull(verdict.reason());
        assertEquals(Storability.STORABLE, verdict);
    }

    @Test
    void onlyGetResponsesAreStored() {
        assertEquals("method", reason(HttpMethod.POST, 200, headers(), headers("Cache-Control", "max-age=60")));
        assertEquals("method", reason(HttpMethod.HEAD, 200, headers(), headers()));
        assertEquals("method", reason(HttpMethod.PUT, 200, headers(), headers("Cache-Control", "no-store")));
    }

    @Test
    void noStoreInRequestOrResponseRefuses() {
        assertEquals("no-store", reason(200, "no-store"));
        assertEquals("no-store", reason(200, "max-age=60, NO-STORE"));
        assertEquals("no-store",
                reason(200, headers("Cache-Control", "no-store"), headers("Cache-Control", "max-age=60")));
        assertEquals("no-store", reason(200, "no-store, private"));
    }

    @Test
    void noCacheStillStores() {
        assertNull(reason(200, "no-cache"));
        assertNull(reason(200, "no-cache=\"Set-Cookie\", max-age=60"));
    }

    @Test
    void mustUnderstandOverridesNoStoreOnlyForUnderstoodStatuses() {
        assertNull(reason(200, "no-store, must-understand"));
        assertNull(reason(404, "must-understand, no-store"));
        assertNull(reason(302, "no-store, must-understand, max-age=60"));
        assertEquals("no-freshness", reason(302, "no-store, must-understand"));
        // Statuses Portico does not understand keep their no-store, or are refused without it.
        assertEquals("no-store", reason(299, "no-store, must-understand, max-age=60"));
        assertEquals("no-store", reason(418, "no-store, must-understand, max-age=60"));
        assertEquals("no-store", reason(206, "no-store, must-understand, max-age=60"));
        assertEquals("status", reason(599, "must-understand, max-age=60"));
        assertEquals("status", reason(299, "must-understand, max-age=60"));
        assertNull(reason(599, "max-age=60"));
        // The request's no-store is not the response's to override.
        assertEquals("no-store", reason(200, headers("Cache-Control", "no-store"),
                headers("Cache-Control", "no-store, must-understand")));
    }

    @Test
    void privateResponsesAreNotForASharedCache() {
        assertEquals("private", reason(200, "private, max-age=60"));
        assertEquals("private", reason(200, "private=\"Set-Cookie\", public"));
    }

    @Test
    void authorizedRequestsNeedExplicitPermission() {
        MultiMap authorized = headers("Authorization", "Bearer x");
        assertEquals("authorization", reason(200, authorized, headers("Cache-Control", "max-age=60")));
        assertEquals("authorization", reason(200, authorized, headers()));
        assertEquals("authorization", reason(200, authorized, headers("Cache-Control", "proxy-revalidate, max-age=5")));
        assertNull(reason(200, authorized, headers("Cache-Control", "public")));
        assertNull(reason(200, authorized, headers("Cache-Control", "s-maxage=60")));
        assertNull(reason(200, authorized, headers("Cache-Control", "must-revalidate, max-age=60")));
    }

    @Test
    void varyStarNeverMatches() {
        assertEquals("vary-star", reason(200, headers(), headers("Vary", "*")));
        assertEquals("vary-star", reason(200, headers(), headers("Vary", "Accept, * ")));
        assertEquals("vary-star", reason(200, headers(), headers("Vary", "Accept", "vary", "*")));
        assertNull(reason(200, headers(), headers("Vary", "Accept-Encoding")));
        assertNull(reason(200, headers(), headers("Vary", "*x, x*")));
    }

    @Test
    void interimPartialAndNotModifiedResponsesAreNeverStored() {
        assertEquals("status", reason(100, "max-age=60"));
        assertEquals("status", reason(101, "max-age=60"));
        assertEquals("status", reason(206, "max-age=60"));
        assertEquals("status", reason(304, "max-age=60"));
        assertEquals("status", reason(600, "max-age=60"));
        assertEquals("status", reason(0, "max-age=60"));
    }

    @Test
    void heuristicallyCacheableStatusesNeedNoDirectives() {
        for (int status : new int[] {200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501}) {
            assertNull(reason(status, headers(), headers()), "status " + status);
        }
    }

    @Test
    void otherStatusesNeedExplicitFreshnessOrPublic() {
        assertEquals("no-freshness", reason(302, headers(), headers()));
        assertEquals("no-freshness", reason(307, headers(), headers("Cache-Control", "no-cache")));
        assertEquals("no-freshness", reason(500, headers(), headers()));
        assertEquals("no-freshness", reason(201, headers(), headers("Cache-Control", "must-revalidate")));
        assertNull(reason(302, "max-age=60"));
        assertNull(reason(307, "s-maxage=60"));
        assertNull(reason(500, "max-age=0"));
        assertNull(reason(302, headers(), headers("Expires", "Sun, 06 Nov 1994 08:49:37 GMT")));
        assertNull(reason(302, headers(), headers("Expires", "0")));
        assertNull(reason(302, "public"));
    }

    @Test
    void responsesSettingCookiesAreNotStored() {
        assertEquals("set-cookie",
                reason(200, headers(), headers("Set-Cookie", "id=1", "Cache-Control", "public, max-age=60")));
        assertEquals("set-cookie", reason(302, headers(), headers("set-cookie", "id=1")));
    }

    @Test
    void theFirstRefusingRuleNamesTheReason() {
        MultiMap everything = headers("Cache-Control", "no-store, private", "Vary", "*", "Set-Cookie", "a=b");
        assertEquals("method", reason(HttpMethod.POST, 100, headers("Authorization", "x"), everything));
        assertEquals("no-store", reason(100, headers("Authorization", "x"), everything));
        assertEquals("private", reason(100, headers("Authorization", "x"),
                headers("Cache-Control", "private", "Vary", "*")));
        assertEquals("authorization", reason(100, headers("Authorization", "x"), headers("Vary", "*")));
        assertEquals("vary-star", reason(100, headers(), headers("Vary", "*", "Set-Cookie", "a=b")));
        assertEquals("status", reason(100, headers(), headers("Set-Cookie", "a=b")));
        assertFalse(Storability.check(HttpMethod.GET, 500, headers(), headers(), CacheControl.NONE, CacheControl.NONE)
                .storable());
    }
}
