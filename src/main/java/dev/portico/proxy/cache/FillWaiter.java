package dev.portico.proxy.cache;

import dev.portico.cache.StoredResponse;
import dev.portico.cache.rules.VaryKey;
import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.outcome.CacheOutcome;
import dev.portico.proxy.core.outcome.LocalReason;
import io.vertx.core.Context;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;

import java.util.Map;

/**
 * A request waiting on another request's {@link Fill} of the same key. The fill calls in from the leader's event
 * loop; every call is handed to this request's own loop, where the state lives. Waiting is bounded by the vhost's
 * lock timeout, after which the request goes upstream by itself (and is not stored), as nginx's cache lock does.
 */
final class FillWaiter {

    private enum State { WAITING, STREAMING, DONE }

    private final CacheStage stage;
    private final Exchange exchange;
    private final Context context;
    private State state = State.WAITING;
    private long timer;

    FillWaiter(CacheStage stage, Exchange exchange, Context context) {
        this.stage = stage;
        this.exchange = exchange;
        this.context = context;
    }

    /** Starts waiting on {@code fill}. Runs on this request's loop. */
    void await(Fill fill, long timeoutMillis) {
        exchange.onClientGone(() -> {
            state = State.DONE;
            context.owner().cancelTimer(timer);
        });
        timer = context.owner().setTimer(timeoutMillis, t -> goUpstream("lock-timeout"));
        fill.join(this);
    }

    void head(Fill.Head head) {
        context.runOnContext(v -> onHead(head));
    }

    void chunk(Buffer chunk) {
        context.runOnContext(v -> {
            if (state == State.STREAMING) {
                exchange.response().write(chunk);
            }
        });
    }

    void end() {
        context.runOnContext(v -> {
            if (state == State.STREAMING) {
                state = State.DONE;
                exchange.response().end();
            }
        });
    }

    void abort() {
        context.runOnContext(v -> {
            if (state == State.STREAMING) {
                state = State.DONE;
                exchange.abort(LocalReason.UPSTREAM_RESET);
            }
        });
    }

    /** The fill ended with a stored response: answer from it. */
    void stored(StoredResponse entry) {
        context.runOnContext(v -> {
            if (state == State.WAITING) {
                state = State.DONE;
                context.owner().cancelTimer(timer);
                HitResponder.respond(exchange, entry, "Portico; hit; collapsed", CacheOutcome.COLLAPSED,
                        System.currentTimeMillis());
            }
        });
    }

    /** The fill cannot answer this request: fetch upstream as though there had been no fill. */
    void release(String reason) {
        context.runOnContext(v -> goUpstream(reason));
    }

    private void onHead(Fill.Head head) {
        if (state != State.WAITING) {
            return;
        }
        MultiMap requestHeaders = exchange.request().headers();
        if (!head.varyFields().isEmpty()
                && !VaryKey.secondaryKey(head.varyFields(), requestHeaders).equals(head.varyKey())) {
            goUpstream("vary");
            return;
        }
        context.owner().cancelTimer(timer);
        state = State.STREAMING;
        exchange.cacheOutcome(CacheOutcome.COLLAPSED);
        HttpServerResponse response = exchange.response();
        response.setStatusCode(head.status());
        if (head.statusMessage() != null) {
            response.setStatusMessage(head.statusMessage());
        }
        MultiMap headers = response.headers();
        for (Map.Entry<String, String> h : head.headers()) {
            headers.add(h.getKey(), h.getValue());
        }
        headers.set(HitResponder.CACHE_STATUS, "Portico; fwd=miss; collapsed");
        if (head.chunked() && exchange.request().version() != HttpVersion.HTTP_1_0) {
            response.setChunked(true);
        }
        exchange.sendHead();
    }

    private void goUpstream(String reason) {
        if (state != State.WAITING) {
            return;
        }
        state = State.DONE;
        context.owner().cancelTimer(timer);
        exchange.cacheOutcome(CacheOutcome.MISS);
        exchange.put(CacheStage.TAP, CacheStage.label(reason == null ? "Portico; fwd=miss"
                : "Portico; fwd=miss; detail=" + reason));
        exchange.proceed();
    }
}
