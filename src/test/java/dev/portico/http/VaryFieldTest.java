package dev.portico.http;

import io.vertx.core.MultiMap;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class VaryFieldTest {

    private static List<String> varyAfterAdding(String... lines) {
        MultiMap headers = MultiMap.caseInsensitiveMultiMap();
        for (String line : lines) {
            headers.add("Vary", line);
        }
        VaryField.add(headers, "Origin", "Accept");
        return headers.getAll("Vary");
    }

    @Test
    void namesAreAddedOnceAfterWhatIsThere() {
        assertEquals(List.of("Origin, Accept"), varyAfterAdding());
        assertEquals(List.of("Accept-Encoding, Origin, Accept"), varyAfterAdding("Accept-Encoding"));
        assertEquals(List.of("origin, Accept-Encoding, Accept"), varyAfterAdding("origin,Accept-Encoding"));
        assertEquals(List.of("Cookie, accept, Origin"), varyAfterAdding("Cookie", "accept, ", "Cookie"),
                "several lines become one list, each name once");
        assertEquals(List.of("ORIGIN, ACCEPT"), varyAfterAdding("ORIGIN, ACCEPT"), "nothing missing: left alone");
    }

    @Test
    void aStarCoversEverything() {
        assertEquals(List.of("*"), varyAfterAdding("*"));
        assertEquals(List.of("Cookie", "*"), varyAfterAdding("Cookie", "*"));
    }
}
