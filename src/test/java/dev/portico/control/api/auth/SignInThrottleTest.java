package dev.portico.control.api.auth;

import dev.portico.testing.Api;
import dev.portico.testing.Concurrently;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.RawHttp;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Guessing the admin token through the sign-in is slowed down per client address. The guesser here connects from
 * its own loopback address, so no other test's sign-in is throttled.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class SignInThrottleTest {

    private static final String GUESSER = "127.0.0.7";
    private static final String OTHER = "127.0.0.8";
    private static final String BURST = "127.0.0.9";

    @TestHTTPResource("/")
    URL api;

    private String signIn(String from, String token) throws Exception {
        byte[] body = new JsonObject().put("token", token).encode().getBytes(StandardCharsets.UTF_8);
        return RawHttp.exchangeFrom(from, api.getPort(), "POST /api/v1/session HTTP/1.1\r\nHost: localhost\r\n"
                + "Content-Type: application/json\r\nContent-Length: " + body.length + "\r\nConnection: close\r\n\r\n"
                + new String(body, StandardCharsets.UTF_8));
    }

    @Test
    void tenFailuresInAMinuteGet429WithRetryAfterEvenForTheRightToken() throws Exception {
        for (int i = 0; i < 10; i++) {
            String raw = signIn(GUESSER, "guess-" + i);
            assertEquals(401, RawHttp.status(raw), "guess " + i + ": " + raw);
        }

        String throttled = signIn(GUESSER, "guess-10");
        String rightButThrottled = signIn(GUESSER, Api.TOKEN);

        assertEquals(429, RawHttp.status(throttled), throttled);
        assertTrue(throttled.contains("application/problem+json"), throttled);
        assertTrue(throttled.contains("urn:portico:problem:too-many-sign-ins"), throttled);
        Matcher retryAfter = Pattern.compile("(?i)\r\nretry-after: *(\\d+)\r\n").matcher(throttled);
        assertTrue(retryAfter.find(), throttled);
        int seconds = Integer.parseInt(retryAfter.group(1));
        assertTrue(seconds >= 1 && seconds <= 60, "Retry-After " + seconds);
        assertEquals(429, RawHttp.status(rightButThrottled), "a guesser must not learn which guess was right");
        assertFalse(rightButThrottled.toLowerCase().contains("set-cookie"), rightButThrottled);
        assertEquals(200, RawHttp.status(signIn(OTHER, Api.TOKEN)), "another address signs in");
    }

    @Test
    void thirtyGuessesSentAtOnceGetTenAnswersAndTwenty429s() throws Exception {
        List<Integer> statuses = Concurrently.run(30, i -> {
            try {
                return RawHttp.status(signIn(BURST, "burst-" + i));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });

        assertEquals(10, statuses.stream().filter(status -> status == 401).count(), statuses.toString());
        assertEquals(20, statuses.stream().filter(status -> status == 429).count(), statuses.toString());
    }

    @Test
    void ipv6ClientsCountPerSlash64() {
        assertEquals(SignInThrottle.key("2001:db8:1:2::1"), SignInThrottle.key("2001:db8:1:2:ffff::9"));
        assertEquals(SignInThrottle.key("[2001:db8:1:2::1]"), SignInThrottle.key("2001:db8:1:2::1"));
        assertNotEquals(SignInThrottle.key("2001:db8:1:2::1"), SignInThrottle.key("2001:db8:1:3::1"));
        assertNotEquals(SignInThrottle.key("192.0.2.1"), SignInThrottle.key("192.0.2.2"));
        assertEquals("192.0.2.1", SignInThrottle.key("::ffff:192.0.2.1"));
    }
}
