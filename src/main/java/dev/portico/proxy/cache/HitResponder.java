package dev.portico.proxy.cache;

import dev.portico.cache.StoredResponse;
import dev.portico.http.conditional.ByteRange;
import dev.portico.http.conditional.Conditionals;
import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.body.SlicedBody;
import dev.portico.proxy.core.outcome.CacheOutcome;
import dev.portico.proxy.core.outcome.LocalReason;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerResponse;

import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Answers a request from a stored response: the full response, a 304 when the client's validators match, a 206 for
 * a satisfiable single range, 416 for an unsatisfiable one, or headers only for HEAD. Stamps {@code Age} and
 * {@code Cache-Status}.
 */
final class HitResponder {

    static final CharSequence CACHE_STATUS = HttpHeaders.createOptimized("Cache-Status");
    private static final CharSequence ACCEPT_RANGES = HttpHeaders.createOptimized("Accept-Ranges");
    private static final CharSequence BYTES = HttpHeaders.createOptimized("bytes");
    /** What a 304 carries of the stored response (RFC 9110 section 15.4.5). */
    private static final Set<String> NOT_MODIFIED_FIELDS = Set.of("cache-control", "content-location", "date", "etag",
            "expires", "vary", "last-modified", "cdn-cache-control");

    private HitResponder() {
    }

    /**
     * @param cacheStatus the {@code Cache-Status} value, without the {@code ttl} that is added here
     * @param nowMillis the current time, for {@code Age}
     */
    static void respond(Exchange exchange, StoredResponse entry, String cacheStatus, CacheOutcome outcome,
                        long nowMillis) {
        respond(exchange, exchange.request().headers(), entry, cacheStatus, outcome, nowMillis);
    }

    /**
     * @param requestHeaders the client's request headers, whose conditions and range are answered (the request's
     *     own map may carry the cache's validators instead, after a revalidation)
     */
    static void respond(Exchange exchange, MultiMap requestHeaders, StoredResponse entry, String cacheStatus,
                        CacheOutcome outcome, long nowMillis) {
        exchange.cacheOutcome(outcome);
        HttpServerResponse response = exchange.response();
        MultiMap headers = response.headers();
        headers.clear();
        HttpMethod method = exchange.request().method();
        long age = entry.ageMillis(nowMillis);
        long ttlSeconds = Math.floorDiv(entry.lifetimeMillis() - age, 1000);
        String status = cacheStatus + "; ttl=" + ttlSeconds;

        long modifiedSinceBase = requestHeaders.contains(HttpHeaderNames.IF_MODIFIED_SINCE)
                ? entry.modifiedSinceBaseMillis() : entry.lastModifiedMillis();
        Conditionals.Outcome condition = Conditionals.evaluate(method, requestHeaders, entry.etag(),
                entry.lastModifiedMillis(), modifiedSinceBase);
        if (condition == Conditionals.Outcome.PRECONDITION_FAILED) {
            exchange.replyLocal(LocalReason.PRECONDITION_FAILED, "A precondition of the request failed");
            return;
        }
        if (condition == Conditionals.Outcome.NOT_MODIFIED && entry.status() == 200) {
            response.setStatusCode(304);
            for (Map.Entry<String, String> h : entry.headers()) {
                if (NOT_MODIFIED_FIELDS.contains(h.getKey().toLowerCase(Locale.ROOT))) {
                    headers.add(h.getKey(), h.getValue());
                }
            }
            stamp(headers, age, status);
            exchange.sendHead();
            response.end();
            return;
        }

        response.setStatusCode(entry.status());
        if (entry.statusMessage() != null) {
            response.setStatusMessage(entry.statusMessage());
        }
        for (Map.Entry<String, String> h : entry.headers()) {
            headers.add(h.getKey(), h.getValue());
        }
        stamp(headers, age, status);
        Buffer body = entry.body();
        String range = entry.status() == 200 && method == HttpMethod.GET
                ? requestHeaders.get(HttpHeaderNames.RANGE) : null;
        if (range != null && Conditionals.ifRangeMatches(requestHeaders, entry.etag(), entry.lastModifiedMillis())) {
            ByteRange.Result r = ByteRange.parse(range, body.length());
            if (r.kind() == ByteRange.Kind.UNSATISFIABLE) {
                response.setStatusCode(416);
                response.setStatusMessage("Range Not Satisfiable");
                headers.set(HttpHeaders.CONTENT_RANGE, ByteRange.unsatisfiedRange(body.length()));
                headers.remove(HttpHeaders.CONTENT_TYPE);
                body = Buffer.buffer();
            } else if (r.kind() == ByteRange.Kind.PARTIAL) {
                response.setStatusCode(206);
                response.setStatusMessage("Partial Content");
                headers.set(HttpHeaders.CONTENT_RANGE, ByteRange.contentRange(r.start(), r.endInclusive(),
                        body.length()));
                body = body.slice((int) r.start(), (int) r.endInclusive() + 1);
            }
        }
        if (entry.status() == 200 && !headers.contains(ACCEPT_RANGES)) {
            headers.set(ACCEPT_RANGES, BYTES);
        }
        boolean bodyless = entry.status() == 204 || entry.status() == 304;
        if (!bodyless) {
            headers.set(HttpHeaders.CONTENT_LENGTH, Integer.toString(body.length()));
        }
        exchange.sendHead();
        if (method == HttpMethod.HEAD || bodyless) {
            response.end();
        } else {
            SlicedBody.end(response, body);
        }
    }

    private static void stamp(MultiMap headers, long ageMillis, String cacheStatus) {
        headers.set(HttpHeaders.AGE, Long.toString(Math.max(0, ageMillis / 1000)));
        headers.set(CACHE_STATUS, cacheStatus);
    }
}
