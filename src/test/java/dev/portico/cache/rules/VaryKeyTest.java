package dev.portico.cache.rules;

import io.vertx.core.MultiMap;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class VaryKeyTest {

    private static final List<String> ENCODING = List.of("accept-encoding");

    private static MultiMap headers(String... namesAndValues) {
        MultiMap headers = MultiMap.caseInsensitiveMultiMap();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            headers.add(namesAndValues[i], namesAndValues[i + 1]);
        }
        return headers;
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
        String expected = key(ENCODING, "Accept-Encoding", "gzip,br");
        assertEquals("accept-encoding:gzip,br\n", expected);
        assertEquals(expected, key(ENCODING, "accept-encoding", "gzip, br"));
        assertEquals(expected, key(ENCODING, "Accept-Encoding", "  gzip \t,  br  "));
        assertEquals(expected, key(ENCODING, "Accept-Encoding", "gzip", "ACCEPT-ENCODING", " br"));
    }

    @Test
    void differentValuesGiveDifferentKeys() {
        String gzipBr = key(ENCODING, "Accept-Encoding", "gzip, br");
        assertNotEquals(gzipBr, key(ENCODING, "Accept-Encoding", "br, gzip"));
        assertNotEquals(gzipBr, key(ENCODING, "Accept-Encoding", "GZIP, br"));
        assertNotEquals(key(ENCODING, "Accept-Encoding", "a b"), key(ENCODING, "Accept-Encoding", "a  b"));
        assertEquals("accept-encoding:a  b\n", key(ENCODING, "Accept-Encoding", "a  b"));
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
