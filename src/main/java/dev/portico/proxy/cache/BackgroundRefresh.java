package dev.portico.proxy.cache;

import dev.portico.cache.StoredBody;
import dev.portico.cache.StoredResponse;
import dev.portico.cache.rules.CacheControl;
import dev.portico.cache.rules.Storability;
import dev.portico.cache.rules.VaryKey;
import dev.portico.http.HopByHopHeaders;
import dev.portico.http.coding.BodyEncoder;
import dev.portico.http.coding.CompressionPolicy;
import dev.portico.http.negotiation.AcceptEncoding;
import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.Stage;
import dev.portico.proxy.upstream.UpstreamFetch;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;

/**
 * Refreshes a stale response while clients are served the stale copy ({@code stale-while-revalidate}, RFC 5861):
 * one conditional GET with the triggering request's headers as the vhost forwards them, like nginx's background
 * cache update. A 304 refreshes the stored headers, a storable response replaces the entry, an uncacheable one
 * removes it, and an error leaves the stale entry for its remaining stale lifetime.
 */
final class BackgroundRefresh {

    private BackgroundRefresh() {
    }

    static Future<Void> start(CacheStage stage, Exchange exchange, String key, StoredResponse entry) {
        MultiMap client = MultiMap.caseInsensitiveMultiMap().addAll(exchange.request().headers());
        editAsForwarded(stage, exchange);
        MultiMap in = exchange.request().headers();
        MultiMap headers = MultiMap.caseInsensitiveMultiMap();
        HopByHopHeaders.of(in).copyEndToEnd(in, headers, "Host", "Expect");
        // The stale hit may still be writing its body: its access log line and analytics must see the request as
        // the client sent it, whether they are taken before this refresh began or after.
        in.clear().addAll(client);
        // No client waits on this request, so none of its own preconditions apply either.
        headers.remove(HttpHeaderNames.IF_MATCH);
        headers.remove(HttpHeaderNames.IF_UNMODIFIED_SINCE);
        Validators.askAbout(entry, headers);
        long requestMillis = System.currentTimeMillis();
        CacheControl requestControl = CacheControl.ofRequest(client);
        return UpstreamFetch.get(stage.forward(), exchange.loop(), exchange.target().authority(),
                exchange.target().pathAndQuery(), headers, stage.maxObjectBytes()).compose(result -> {
                    long now = System.currentTimeMillis();
                    // Only end-to-end fields are stored: a 304's Connection or Keep-Alive must not reach clients.
                    MultiMap fields = MultiMap.caseInsensitiveMultiMap();
                    HopByHopHeaders.of(result.headers()).copyEndToEnd(result.headers(), fields, null, null);
                    if (result.status() == 304) {
                        StoredResponse updated = entry.refreshedBy(fields, requestMillis, now,
                                stage.heuristicCapMillis());
                        stage.store().put(key, stage.varyFieldsOf(key), updated);
                        return Future.<Void>succeededFuture();
                    }
                    if (result.status() >= 500) {
                        return Future.<Void>succeededFuture();
                    }
                    CacheControl control = StoredResponse.controlOf(fields);
                    boolean storable = result.body() != null && Storability.check(HttpMethod.GET,
                            result.status(), client, fields, control, requestControl).storable()
                            && !stage.lacksFreshness(fields, control);
                    if (!storable) {
                        stage.store().invalidate(key);
                        return Future.<Void>succeededFuture();
                    }
                    return compressed(exchange, client, result.status(), fields, result.body()).map(body -> {
                        var vary = VaryKey.fields(fields);
                        stage.store().put(key, vary, StoredResponse.of(result.status(), result.statusMessage(),
                                fields, StoredBody.copyOf(body), requestMillis, now,
                                client.contains(HttpHeaders.AUTHORIZATION), VaryKey.secondaryKey(vary, client),
                                stage.heuristicCapMillis()));
                        return (Void) null;
                    });
                });
    }

    /**
     * The body as an HTTP/1.1 client with the triggering request's {@code Accept-Encoding} gets it: compressed when
     * the vhost compresses it, on a worker thread, since the whole body (up to the cache's object size) is at hand.
     */
    private static Future<Buffer> compressed(Exchange exchange, MultiMap client, int status, MultiMap fields,
                                             Buffer body) {
        CompressionPolicy compression = exchange.vhost().compression();
        BodyEncoder encoder = compression == null ? null : compression.begin(HttpMethod.GET, HttpVersion.HTTP_1_1,
                AcceptEncoding.of(client), status, fields, body.length());
        if (encoder == null) {
            return Future.succeededFuture(body);
        }
        return exchange.loop().context().executeBlocking(() -> encoder.encode(body).appendBuffer(encoder.finish()),
                false);
    }

    /**
     * Runs the request edits of the stages between the cache and the forward stage (forwarding headers, the vhost's
     * request header rules) on the request, which the cache has already answered, so that the refresh reaches the
     * origin as every forwarded request does: spoofed X-Forwarded-For replaced, configured fields set or removed.
     * Those stages only edit the request; one that took it would stop the edits.
     */
    private static void editAsForwarded(CacheStage cache, Exchange exchange) {
        boolean after = false;
        for (Stage stage : exchange.vhost().stages()) {
            if (stage == cache.forward() || after && stage.onRequest(exchange) == Stage.Flow.TAKEN) {
                return;
            }
            after |= stage == cache;
        }
    }
}
