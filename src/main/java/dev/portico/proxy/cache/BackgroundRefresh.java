package dev.portico.proxy.cache;

import dev.portico.cache.StoredBody;
import dev.portico.cache.StoredResponse;
import dev.portico.cache.rules.CacheControl;
import dev.portico.cache.rules.Storability;
import dev.portico.cache.rules.VaryKey;
import dev.portico.http.HopByHopHeaders;
import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.SubRequest;
import dev.portico.proxy.core.SubResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;

/**
 * Refreshes a stale response while clients are served the stale copy ({@code stale-while-revalidate}, RFC 5861),
 * like nginx's background cache update: one conditional GET made as a sub-request from the cache stage, so it passes
 * the stages inside the cache (forwarding headers, request header rules, the compressor, the forwarder) as the
 * triggering request would have. A 304 refreshes the stored headers, a storable response replaces the entry, an
 * uncacheable one removes it, and an error leaves the stale entry for its remaining stale lifetime.
 */
final class BackgroundRefresh {

    private BackgroundRefresh() {
    }

    static Future<Void> start(CacheStage stage, Exchange exchange, String key, StoredResponse entry) {
        MultiMap client = MultiMap.caseInsensitiveMultiMap().addAll(exchange.request().headers());
        // The sub-request's own fields: the client's request, answered already, is never edited.
        MultiMap headers = MultiMap.caseInsensitiveMultiMap().addAll(client);
        // No client waits on this request, so none of its own preconditions apply either.
        headers.remove(HttpHeaderNames.IF_MATCH);
        headers.remove(HttpHeaderNames.IF_UNMODIFIED_SINCE);
        Validators.askAbout(entry, headers);
        long requestMillis = System.currentTimeMillis();
        CacheControl requestControl = CacheControl.ofRequest(client);
        SubRequest refresh = new SubRequest(exchange, exchange.target().pathAndQuery(), headers,
                stage.maxObjectBytes(),
                response -> response.status() != 304 && response.status() < 500
                        && storable(stage, client, requestControl, response, endToEnd(response)));
        return exchange.phases().subRequest(stage, refresh).compose(result -> {
            long now = System.currentTimeMillis();
            // Only end-to-end fields are stored: a 304's Connection or Keep-Alive must not reach clients.
            MultiMap fields = endToEnd(result);
            if (result.status() == 304) {
                StoredResponse updated = entry.refreshedBy(fields, requestMillis, now, stage.heuristicCapMillis());
                stage.store().put(key, stage.varyFieldsOf(key), updated);
                return Future.<Void>succeededFuture();
            }
            if (result.status() >= 500) {
                return Future.<Void>succeededFuture();
            }
            if (!storable(stage, client, requestControl, result, fields)) {
                stage.store().invalidate(key);
                return Future.<Void>succeededFuture();
            }
            // The body is as the client gets it: compressed by the compressor it passed, when the vhost compresses.
            var vary = VaryKey.fields(fields);
            stage.store().put(key, vary, StoredResponse.of(result.status(), result.statusMessage(), fields,
                    StoredBody.copyOf(result.body()), requestMillis, now, client.contains(HttpHeaders.AUTHORIZATION),
                    VaryKey.secondaryKey(vary, client), stage.heuristicCapMillis()));
            return Future.<Void>succeededFuture();
        });
    }

    private static MultiMap endToEnd(SubResponse response) {
        MultiMap fields = MultiMap.caseInsensitiveMultiMap();
        HopByHopHeaders.of(response.headers()).copyEndToEnd(response.headers(), fields, null, null);
        return fields;
    }

    /** Whether the refreshed response may replace the entry: its body complete and its head storable and fresh. */
    private static boolean storable(CacheStage stage, MultiMap client, CacheControl requestControl,
                                    SubResponse response, MultiMap fields) {
        CacheControl control = StoredResponse.controlOf(fields);
        return response.body() != null && Storability.check(HttpMethod.GET, response.status(), client, fields,
                control, requestControl).storable() && !stage.lacksFreshness(fields, control);
    }
}
