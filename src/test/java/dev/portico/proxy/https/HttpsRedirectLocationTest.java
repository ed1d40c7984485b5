package dev.portico.proxy.https;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The redirect's {@code Location}: https's default port left out, the target kept, only ASCII on the wire. */
class HttpsRedirectLocationTest {

    @Test
    void thePortIsLeftOutWhenItIs443OrThereIsNoTlsListener() {
        assertEquals("https://shop.test/a?b=1", HttpsRedirectStage.location("shop.test", 443, "/a?b=1"));
        assertEquals("https://shop.test/a", HttpsRedirectStage.location("shop.test", -1, "/a"));
        assertEquals("https://shop.test:8443/a", HttpsRedirectStage.location("shop.test", 8443, "/a"));
    }

    @Test
    void anIpv6LiteralKeepsItsBrackets() {
        assertEquals("https://[::1]:8443/", HttpsRedirectStage.location("[::1]", 8443, "/"));
    }

    @Test
    void aRawUtf8QueryIsPercentEncoded() {
        assertEquals("https://shop.test/s?q=%C3%A9", HttpsRedirectStage.location("shop.test", 443, "/s?q=\u00e9"));
    }
}
