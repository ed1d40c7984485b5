package dev.portico.telemetry.analytics.offloop;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/** What PostgreSQL's text and jsonb cannot hold becomes U+FFFD; everything else is kept, and clean text not copied. */
class StorableTextTest {

    @Test
    void nulBecomesTheReplacementCharacter() {
        assertEquals("/a\uFFFDb\uFFFD", StorableText.of("/a\u0000b\u0000"));
    }

    @Test
    void unpairedSurrogatesAreReplacedAndPairsKept() {
        assertEquals("\uFFFDx\uFFFD\uD83D\uDE00\uFFFD", StorableText.of("\uD83Dx\uDE00\uD83D\uDE00\uD83D"));
    }

    @Test
    void cleanTextIsReturnedAsItIs() {
        String text = "/caf\u00e9?q=\u0001\u007f \uD83D\uDE00";
        assertSame(text, StorableText.of(text));
    }

    @Test
    void everyDimensionKeyIsStorable() {
        DimensionKeys keys = new DimensionKeys(dev.portico.http.TrustedProxies.NONE);
        assertEquals("/a\uFFFDb", keys.path("/a\u0000b?x=\u0000"));
        assertEquals("agent\uFFFD", keys.agent("agent\u0000"));
        assertEquals("http://r/\uFFFD", keys.referrer("http://r/\u0000"));
        assertEquals("10.0.0.1\uFFFD", keys.client("10.0.0.1\u0000", null));
    }
}
