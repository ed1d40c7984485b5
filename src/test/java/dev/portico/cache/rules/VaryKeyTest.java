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
        assertNotEquals(deEn, key(LANGUAGE, "Accept-Language", "DE, en"));
        assertNotEquals(key(LANGUAGE, "Accept-Language", "a b"), key(LANGUAGE, "Accept-Language", "a  b"));
        assertEquals("accept-language:a  b\n", key(LANGUAGE, "Accept-Language", "a  b"));
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
