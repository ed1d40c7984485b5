package dev.portico.http.negotiation;

import dev.portico.http.negotiation.AcceptEncoding.Coding;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Which precompressed sibling a client gets, from its Accept-Encoding and the siblings on disk. */
class AcceptEncodingTest {

    /**
     * @param siblings which siblings exist, as letters: b (br), z (zstd), g (gzip)
     * @param expected br, zstd, gzip, or identity
     */
    @ParameterizedTest(name = "[{index}] \"{0}\" with siblings {1} -> {2}")
    @CsvSource(delimiter = '|', nullValues = "NULL", value = {
            "NULL                          | bzg | identity",
            "''                            | bzg | identity",
            "gzip                          | bzg | gzip",
            "gzip, deflate, br, zstd       | bzg | br",
            "gzip, deflate, br, zstd       | zg  | zstd",
            "gzip, deflate, br, zstd       | g   | gzip",
            "gzip, deflate, br, zstd       | ''  | identity",
            "br;q=0.5, gzip                | bzg | gzip",
            "br;q=0.5, gzip;q=0.5          | bzg | br",
            "br;q=0, gzip                  | bzg | gzip",
            "br;q=0                        | b   | identity",
            "*                             | bzg | br",
            "*;q=0.1, gzip;q=0.2           | bzg | gzip",
            "*, br;q=0                     | bz  | zstd",
            "*;q=0                         | bzg | identity",
            "identity                      | bzg | identity",
            "identity;q=1, gzip;q=0.5      | g   | identity",
            "identity;q=0.1, gzip;q=0.5    | g   | gzip",
            "identity;q=0, gzip;q=0.5      | g   | gzip",
            "identity;q=0                  | g   | identity",
            "x-gzip                        | g   | gzip",
            "GZIP;Q=1.0                    | g   | gzip",
            "gzip;q=1.001                  | g   | identity",
            "gzip;q=2                      | g   | identity",
            "gzip;q=abc, br                | bg  | br",
            "gzip;q=0.000                  | g   | identity",
            "gzip ; q=0.8 , br ; q=0.9     | bg  | br",
            "compress, deflate             | bzg | identity",
            "zstd                          | bg  | identity",
            "' , ,gzip'                    | g   | gzip",
    })
    void selects(String acceptEncoding, String siblings, String expected) {
        boolean[] available = new boolean[Coding.values().length];
        available[Coding.BR.ordinal()] = siblings.contains("b");
        available[Coding.ZSTD.ordinal()] = siblings.contains("z");
        available[Coding.GZIP.ordinal()] = siblings.contains("g");
        Coding chosen = AcceptEncoding.select(acceptEncoding, available);
        assertEquals(expected, chosen == null ? "identity" : chosen.token());
    }

    /** The server's order breaks ties in q-value, and only the codings it lists are considered. */
    @ParameterizedTest(name = "[{index}] \"{0}\" with preference {1} -> {2}")
    @CsvSource(delimiter = '|', value = {
            "br, gzip, zstd           | gzip br zstd | gzip",
            "br, gzip, zstd           | zstd gzip    | zstd",
            "br;q=1, gzip;q=0.9       | gzip br      | br",
            "*                        | gzip         | gzip",
            "br                       | gzip zstd    | identity",
    })
    void followsThePreference(String acceptEncoding, String preference, String expected) {
        java.util.List<Coding> order = java.util.Arrays.stream(preference.split(" "))
                .map(token -> Coding.valueOf(token.toUpperCase(java.util.Locale.ROOT))).toList();
        boolean[] offered = new boolean[Coding.values().length];
        order.forEach(coding -> offered[coding.ordinal()] = true);
        Coding chosen = AcceptEncoding.select(acceptEncoding, offered, order);
        assertEquals(expected, chosen == null ? "identity" : chosen.token());
    }
}
