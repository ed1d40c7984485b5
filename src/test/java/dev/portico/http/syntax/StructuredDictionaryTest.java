package dev.portico.http.syntax;

import dev.portico.http.syntax.StructuredDictionary.Kind;
import dev.portico.http.syntax.StructuredDictionary.Value;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StructuredDictionaryTest {

    private static Map<String, Value> parse(String... lines) {
        return StructuredDictionary.parse(Arrays.asList(lines));
    }

    @Test
    void readsEveryTypeOfMember() {
        Map<String, Value> d = parse("a=1, b=-42, c=1.5, d=\"x \\\"y\\\" \\\\z\", e=tok/en:1, f=:cHJldGVuZA==:, "
                + "g=?0, h, i=(1 \"two\" three);p=1, j=?1, *k=*");
        assertEquals(List.of("a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "*k"), List.copyOf(d.keySet()));
        assertEquals(new Value(Kind.INTEGER, 1, null), d.get("a"));
        assertEquals(new Value(Kind.INTEGER, -42, null), d.get("b"));
        assertEquals(new Value(Kind.DECIMAL, 0, "1.5"), d.get("c"));
        assertEquals(new Value(Kind.STRING, 0, "x \"y\" \\z"), d.get("d"));
        assertEquals(new Value(Kind.TOKEN, 0, "tok/en:1"), d.get("e"));
        assertEquals(Kind.BYTE_SEQUENCE, d.get("f").kind());
        assertEquals(Value.FALSE, d.get("g"));
        assertTrue(d.get("h").isTrue());
        assertEquals(Kind.INNER_LIST, d.get("i").kind());
        assertTrue(d.get("j").isTrue());
        assertEquals(new Value(Kind.TOKEN, 0, "*"), d.get("*k"));
    }

    @Test
    void parametersAreCheckedAndDropped() {
        Map<String, Value> d = parse("max-age=60;a=1;b, no-store;x=\"y\";  z=?1");
        assertEquals(new Value(Kind.INTEGER, 60, null), d.get("max-age"));
        assertTrue(d.get("no-store").isTrue());
    }

    @Test
    void whitespaceAndLinesFollowTheRfc() {
        assertEquals(2, parse("  a=1 ,\tb=2  ").size());
        assertEquals(2, parse("a=1", "b=2").size());
        // A later duplicate replaces the earlier value, also across field lines.
        assertEquals(new Value(Kind.INTEGER, 2, null), parse("a=1, a=2").get("a"));
        assertEquals(new Value(Kind.INTEGER, 3, null), parse("a=1", "a=3").get("a"));
        assertEquals(Map.of(), parse(""));
        assertEquals(Map.of(), parse("   "));
        assertEquals(Map.of(), StructuredDictionary.parse(null));
        assertEquals(Map.of(), StructuredDictionary.parse(List.of()));
    }

    @Test
    void theLimitsOfNumbers() {
        assertEquals(999_999_999_999_999L, parse("a=999999999999999").get("a").integer());
        assertEquals(-999_999_999_999_999L, parse("a=-999999999999999").get("a").integer());
        assertNotNull(parse("a=123456789012.123"));
        assertNull(parse("a=1234567890123456"));
        assertNull(parse("a=1234567890123.1"));
        assertNull(parse("a=1.1234"));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "max-age=10000, &&&&&",
            "&",
            "Max-Age=10",
            "1a=1",
            "a=1,",
            "a=1,,b=2",
            ",a=1",
            "a=1 b=2",
            "a=1;",
            "a=1; B=2",
            "a=",
            "a= 1",
            "a =1",
            "a=1.",
            "a=-",
            "a=--1",
            "a=1..2",
            "a=\"open",
            "a=\"bad \\n escape\"",
            "a=\"tab\tinside\"",
            "a=\"caf\u00e9\"",
            "a=:not base64!:",
            "a=:unclosed",
            "a=?",
            "a=?2",
            "a=?true",
            "a=(1 2",
            "a=(1,2)",
            "a=(1  2)x",
            "a=(1)(2)",
            "a=@1",
            "a=%\"x\"",
            "a=#",
            "a=1\u00e9",
    })
    void anythingThatIsNotADictionaryFailsAsAWhole(String value) {
        assertNull(parse(value), value);
    }

    @Test
    void aFailureInAnyLineFailsTheField() {
        assertNull(parse("max-age=60", "&&&"));
    }
}
