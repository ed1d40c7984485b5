package dev.portico.cache.rules;

import dev.portico.testing.Headers;
import io.vertx.core.MultiMap;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class VaryKeyTest {

    private static final List<String> ENCODING = List.of("accept-encoding");
    private static final List<String> LANGUAGE = List.of("accept-language");

    private static MultiMap headers(String... namesAndValues) {
        return Headers.of(namesAndValues);
    }

    private static String key(List<String> fields, String... requestHeaders) {
        return VaryKey.secondaryKey(fields, headers(requestHeaders));
    }

    @Test
    void fieldsAreLowerCaseDeduplicatedAndInOrder() {
        assertEquals(List.of(), VaryKey.fields(headers()));
        assertEquals(List.of("accept-encoding", "user-agent"),
                VaryKey.fields(headers("Vary", "Accept-Encoding, User-Agent")));
        assertEquals(List.of("accept-language", "accept-encoding", "origin"), VaryKey.fields(
                headers("Vary", ",, Accept-Language ,accept-encoding", "vary", "ACCEPT-ENCODING,\tOrigin ,")));
        assertEquals(List.of(), VaryKey.fields(headers("Vary", " , ")));
    }

    @Test
    void aStarAnywhereIsJustStar() {
        assertEquals(List.of("*"), VaryKey.fields(headers("Vary", "*")));
        assertEquals(List.of("*"), VaryKey.fields(headers("Vary", "Accept", "Vary", "Origin, * ")));
        assertThrows(IllegalArgumentException.class, () -> key(List.of("*"), "Accept", "x"));
    }

    @Test
    void equalKeysForEquivalentSpellings() {
        String expected = key(LANGUAGE, "Accept-Language", "de,en");
        assertEquals("accept-language:de,en\n", expected);
        assertEquals(expected, key(LANGUAGE, "accept-language", "de, en"));
        assertEquals(expected, key(LANGUAGE, "Accept-Language", "  de \t,  en  "));
        assertEquals(expected, key(LANGUAGE, "Accept-Language", "de", "ACCEPT-LANGUAGE", " en"));
    }

    @Test
    void differentValuesGiveDifferentKeys() {
        String deEn = key(LANGUAGE, "Accept-Language", "de, en");
        assertNotEquals(deEn, key(LANGUAGE, "Accept-Language", "en, de"));
        assertNotEquals(deEn, key(LANGUAGE, "Accept-Language", "de, en;q=0.9"));
        assertNotEquals(key(LANGUAGE, "Accept-Language", "a b"), key(LANGUAGE, "Accept-Language", "a  b"));
        assertEquals("accept-language:a  b\n", key(LANGUAGE, "Accept-Language", "a  b"));
        assertEquals("origin:HTTPS://A\n", key(List.of("origin"), "Origin", "HTTPS://A"));
        assertNotEquals(key(List.of("origin"), "Origin", "https://a"), key(List.of("origin"), "Origin", "HTTPS://A"));
    }

    /**
     * Accept-Language's definition makes case, q=1, the spelling of a weight and the order of different weights
     * irrelevant (RFC 9110 section 12.5.4, RFC 4647), so its key ignores them; the order among equal weights is a
     * preference and stays.
     */
    @Test
    void acceptLanguageIsKeyedByWhatItMeans() {
        String expected = key(LANGUAGE, "Accept-Language", "en-US,en;q=0.9,de;q=0.5");
        assertEquals("accept-language:en-us,en;q=0.9,de;q=0.5\n", expected);
        assertEquals(expected, key(LANGUAGE, "Accept-Language", "EN-us, en;Q=0.90 , de ; q=0.500"));
        assertEquals(expected, key(LANGUAGE, "Accept-Language", "de;q=0.5, en;q=0.9, en-US;q=1.000"));
        assertEquals(expected, key(LANGUAGE, "Accept-Language", "en-US", "accept-language", "en;q=0.9,de;q=0.5"));
        assertEquals("accept-language:fr,de,*;q=0.05,en;q=0\n",
                key(LANGUAGE, "Accept-Language", "en;q=0, *;q=0.05, fr, de;q=1."));
        assertEquals("accept-language:zh-hant-tw,de-ch-1996,i-klingon;q=0.001\n",
                key(LANGUAGE, "Accept-Language", "zh-Hant-TW, de-CH-1996, i-klingon;q=0.001"));
        assertNotEquals(expected, key(LANGUAGE, "Accept-Language", "en,en-US;q=0.9,de;q=0.5"));
        assertNotEquals(key(LANGUAGE, "Accept-Language", "de, fr"), key(LANGUAGE, "Accept-Language", "fr, de"));
        assertEquals("accept-language:\n", key(LANGUAGE, "Accept-Language", " , "));
    }

    /** A value that is not a list of language ranges and weights is keyed by its text, case and order included. */
    @Test
    void aMalformedAcceptLanguageIsKeyedByItsText() {
        for (String value : new String[] {"en_US", "en-", "-en", "en--us", "englishes-x", "123", "en;q=2",
                "en;q=0.5000", "en;q=1.5", "en;level=1", "en;q=0.5;x=1", "en q=0.5", "*-US", "en-US-abcdefghi",
                "e\u00f1"}) {
            assertEquals("accept-language:" + value + "\n", key(LANGUAGE, "Accept-Language", value), value);
        }
        assertEquals("accept-language:EN,de;q=2\n", key(LANGUAGE, "Accept-Language", "EN, de;q=2"));
        assertNotEquals(key(LANGUAGE, "Accept-Language", "en;q=500"), key(LANGUAGE, "Accept-Language", "en;q=0.5"));
    }

    /** Accept-Encoding's own definition says order, case and q=1 do not matter, so its key ignores them. */
    @Test
    void acceptEncodingIsKeyedByWhatItMeans() {
        String expected = key(ENCODING, "Accept-Encoding", "br,gzip,zstd");
        assertEquals("accept-encoding:br,gzip,zstd\n", expected);
        assertEquals(expected, key(ENCODING, "Accept-Encoding", "gzip, br, zstd"));
        assertEquals(expected, key(ENCODING, "Accept-Encoding", "ZSTD;q=1, x-gzip ,Br"));
        assertEquals(expected, key(ENCODING, "Accept-Encoding", "zstd", "accept-encoding", "br,gzip"));
        assertEquals(expected, key(ENCODING, "Accept-Encoding", "gzip, br, zstd, br;q=bad"));
        assertNotEquals(expected, key(ENCODING, "Accept-Encoding", "gzip;q=0.5, br, zstd"));
        assertNotEquals(expected, key(ENCODING, "Accept-Encoding", "gzip, br"));
        assertEquals("accept-encoding:br;q=0,gzip\n", key(ENCODING, "Accept-Encoding", "gzip, br;q=0"));
        assertEquals("accept-encoding:\n", key(ENCODING, "Accept-Encoding", ""));
    }

    @Test
    void anAbsentFieldDiffersFromAnEmptyOne() {
        assertEquals("accept-encoding\n", key(ENCODING));
        assertEquals("accept-encoding:\n", key(ENCODING, "Accept-Encoding", ""));
        assertEquals("accept-encoding:\n", key(ENCODING, "Accept-Encoding", "   "));
    }

    @Test
    void combinesSeveralFieldsInVaryOrder() {
        List<String> fields = VaryKey.fields(headers("Vary", "Accept-Encoding, Accept-Language"));
        assertEquals("accept-encoding:gzip\naccept-language\n", key(fields, "Accept-Encoding", " gzip "));
        assertEquals("accept-encoding\naccept-language:de\n", key(fields, "Accept-Language", "de"));
        assertEquals("", key(List.of(), "Accept-Encoding", "gzip"));
        assertEquals(key(fields, "Accept-Encoding", "gzip", "Cookie", "a=1"), key(fields, "Accept-Encoding", "gzip"));
    }
}
