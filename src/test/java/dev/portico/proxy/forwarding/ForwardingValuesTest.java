package dev.portico.proxy.forwarding;

import dev.portico.http.HopByHopHeaders;
import dev.portico.http.TrustedProxies;
import io.vertx.core.MultiMap;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ForwardingValuesTest {

    @Test
    void quotesWhatRfc7239RequiresQuoted() {
        assertEquals("192.0.2.60", ForwardingHeadersStage.forwardedNode("192.0.2.60"));
        assertEquals("\"[2001:db8:cafe::17]\"", ForwardingHeadersStage.forwardedNode("2001:db8:cafe::17"));
        assertEquals("example.com", ForwardingHeadersStage.forwardedValue("example.com"));
        assertEquals("\"example.com:8080\"", ForwardingHeadersStage.forwardedValue("example.com:8080"));
        assertEquals("\"a\\\"b\"", ForwardingHeadersStage.forwardedValue("a\"b"));
    }

    @Test
    void matchesCidrBlocksOfBothFamilies() {
        TrustedProxies trusted = TrustedProxies.parse(List.of("10.0.0.0/8", "192.168.1.7", "2001:db8::/32", " "));
        assertTrue(trusted.contains("10.255.1.2"));
        assertTrue(trusted.contains("192.168.1.7"));
        assertFalse(trusted.contains("192.168.1.8"));
        assertFalse(trusted.contains("11.0.0.1"));
        assertTrue(trusted.contains("2001:db8:1::5"));
        assertFalse(trusted.contains("2001:db9::5"));
        assertFalse(trusted.contains("not-an-ip"));
        assertFalse(TrustedProxies.NONE.contains("127.0.0.1"));
        assertTrue(TrustedProxies.parse(List.of("172.16.0.0/12")).contains("172.31.255.255"));
        assertFalse(TrustedProxies.parse(List.of("172.16.0.0/12")).contains("172.32.0.0"));
    }

    @Test
    void rejectsInvalidTrustedProxyEntries() {
        assertThrows(IllegalArgumentException.class, () -> TrustedProxies.parse(List.of("10.0.0.0/33")));
        assertThrows(IllegalArgumentException.class, () -> TrustedProxies.parse(List.of("example.com")));
        assertThrows(IllegalArgumentException.class, () -> TrustedProxies.parse(List.of("10.0.0.0/x")));
    }

    @Test
    void hopByHopCoversTheFixedListAndNominatedFields() {
        MultiMap headers = MultiMap.caseInsensitiveMultiMap()
                .add("Connection", "X-Secret, close")
                .add("Connection", "x-other")
                .add("X-Secret", "1").add("X-Other", "2").add("X-Kept", "3")
                .add("Keep-Alive", "5").add("TE", "trailers").add("Transfer-Encoding", "chunked")
                .add("Upgrade", "h2c").add("Proxy-Connection", "close");
        MultiMap out = MultiMap.caseInsensitiveMultiMap();
        HopByHopHeaders.of(headers).copyEndToEnd(headers, out, null, null);
        assertEquals(List.of("X-Kept"), out.names().stream().toList());
    }
}
