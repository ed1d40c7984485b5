package dev.portico.proxy.core;

import dev.portico.proxy.core.outcome.LocalReason;
import dev.portico.proxy.server.RequestId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class RequestTargetTest {

    @ParameterizedTest
    @CsvSource({
            "example.com, example.com",
            "Example.COM:8080, example.com",
            "example.com., example.com",
            "[::1]:8080, [::1]",
            "[2001:DB8::1], [2001:db8::1]",
            "10.0.0.1:80, 10.0.0.1",
            "under_score.test, under_score.test"})
    void normalisesTheRoutingKey(String authority, String hostname) throws Exception {
        assertEquals(hostname, RequestTarget.hostnameOf(authority));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", ":80", "a b", "a/b", "example.com:", "example.com:abc", "example.com:123456",
            "[::1", "[::1]x", "[zz::1]", "exa%mple.com"})
    void rejectsInvalidAuthorities(String authority) {
        RequestTarget.Invalid invalid = assertThrows(RequestTarget.Invalid.class,
                () -> RequestTarget.hostnameOf(authority));
        assertEquals(LocalReason.INVALID_HOST, invalid.reason());
    }

    @Test
    void generatedRequestIdsAreDistinctHex() {
        String a = RequestId.generate();
        String b = RequestId.generate();
        assertEquals(32, a.length());
        assertEquals(true, a.matches("[0-9a-f]{32}"));
        assertEquals(false, a.equals(b));
    }

    @ParameterizedTest
    @CsvSource({"abc, true", "a-b_c.d:e+f/g=h@i, true", "'', false", "has space, false", "ünï, false"})
    void acceptsOnlySafeIncomingRequestIds(String id, boolean valid) {
        assertEquals(valid, RequestId.isValid(id));
    }
}
