package dev.portico.testing;

import io.netty.handler.codec.DateFormatter;
import io.vertx.core.json.JsonObject;

import java.time.Instant;
import java.util.Date;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Shared set-up of the cache tests: a scripted origin on loopback, a real client and a clean configuration (so a fresh,
 * empty store) for every test (from {@link OriginAndClientFixture}), helpers to create a cache-enabled vhost in front
 * of the origin, and the cache assertions.
 */
public abstract class CacheTestSupport extends OriginAndClientFixture<ScriptedOrigin> {

    protected CacheTestSupport() {
        super(ScriptedOrigin::start);
    }

    /** A cache block with {@code enabled: true} and the given settings, e.g. {@code cache("defaultTtl", "1h")}. */
    protected static JsonObject cache(Object... settings) {
        return Api.enabled(settings);
    }

    /** Creates a vhost named after {@code host} in front of the origin, with the given cache block. */
    protected String cachedVhost(String host, JsonObject cache) {
        return Api.create(Api.vhost(host.replace('.', '-'), host, origin.url()).put("cache", cache));
    }

    /** Creates a vhost with the cache enabled and every other cache setting at its default. */
    protected String cachedVhost(String host) {
        return cachedVhost(host, cache());
    }

    /** An IMF-fixdate, as origins send in {@code Date}, {@code Expires} and {@code Last-Modified}. */
    protected static String httpDate(Instant instant) {
        return DateFormatter.format(Date.from(instant));
    }

    /** Asserts status and body. */
    protected static void assertReply(ProxyClient.Reply reply, int status, String body) {
        assertEquals(status, reply.status(), () -> "status; body: " + reply.text());
        assertEquals(body, reply.text());
    }

    /** Asserts that {@code Cache-Status} matches {@code regex} in full. */
    protected static void assertCacheStatus(ProxyClient.Reply reply, String regex) {
        String value = reply.header("Cache-Status");
        assertNotNull(value, "no Cache-Status");
        assertTrue(Pattern.matches(regex, value), () -> "Cache-Status " + value + " does not match " + regex);
    }

    /** Asserts an answer from the cache: its {@code Cache-Status} matches {@code regex} and it carries {@code Age}. */
    protected static void assertFromCache(ProxyClient.Reply reply, String regex) {
        assertCacheStatus(reply, regex);
        assertNotNull(reply.header("Age"), "an answer from the cache carries Age");
    }

    /** A fresh hit of a response stored with a lifetime of 60 s moments ago. */
    protected static final String HIT_60 = "Portico; hit; ttl=(59|60)";
    protected static final String STORED = "Portico; fwd=miss; stored";
}
