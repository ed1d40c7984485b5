package dev.portico.proxy.cache;

import dev.portico.cache.StoredBody;
import dev.portico.cache.StoredResponse;
import dev.portico.cache.rules.CacheControl;
import dev.portico.cache.rules.Storability;
import dev.portico.cache.rules.VaryKey;
import dev.portico.http.DeclaredLength;
import dev.portico.proxy.core.BodyFilter;
import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.encoding.CompressionStage;
import dev.portico.proxy.core.outcome.CacheOutcome;
import dev.portico.proxy.core.outcome.LocalReason;
import io.vertx.core.Context;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One request's fetch of a cacheable response that other requests for the same key wait on (request collapsing).
 * The leading request goes upstream with this as its {@link CacheTap}, and the upstream's body passes through it in
 * the response body phase; requests that arrive meanwhile join as
 * {@link FillWaiter}s and are streamed the same response as it arrives. If the response cannot be shared (not
 * storable, different variant) or the fetch fails, the waiters are released to go upstream themselves, so a failed
 * fill never poisons the key.
 *
 * <p>All state is confined to the leader's event loop: joins and every other call arrive there, and waiters on
 * other loops are told through their own contexts. Nothing blocks and nothing is locked.
 */
final class Fill implements CacheTap, BodyFilter {

    private enum State { PENDING, SHARING, DONE, RELEASED }

    /** What the waiters need to write the shared response head. */
    record Head(int status, String statusMessage, List<Map.Entry<String, String>> headers, List<String> varyFields,
                String varyKey, boolean chunked) {
    }

    private final CacheStage stage;
    private final String key;
    private final String fillKey;
    private final Context context;
    private final StoredResponse stale;
    private final long requestMillis;
    private final MultiMap requestHeaders;
    private final CacheControl requestControl;
    private final List<FillWaiter> waiters = new ArrayList<>(2);
    private State state = State.PENDING;
    private Head head;
    private List<Buffer> chunks;
    private long size;
    /** The declared Content-Length, or -1. */
    private long expected = -1;
    private StoredResponse stored;

    /**
     * @param stale the stored response being revalidated, or null for a plain miss
     * @param requestHeaders a copy of the leading request's headers as the client sent them, before the cache's
     *     validators and the vhost's edits
     */
    Fill(CacheStage stage, String key, String fillKey, Context context, StoredResponse stale, MultiMap requestHeaders,
         CacheControl requestControl) {
        this.stage = stage;
        this.key = key;
        this.fillKey = fillKey;
        this.context = context;
        this.stale = stale;
        this.requestMillis = System.currentTimeMillis();
        this.requestHeaders = requestHeaders;
        this.requestControl = requestControl;
    }

    /** Adds a waiting request; callable from any thread. */
    void join(FillWaiter waiter) {
        context.runOnContext(v -> attach(waiter));
    }

    private void attach(FillWaiter waiter) {
        switch (state) {
            case PENDING -> waiters.add(waiter);
            case SHARING -> {
                if (chunks == null) {
                    // Grew past the object size limit: what was streamed is gone, so this one fetches for itself.
                    waiter.release("size");
                    return;
                }
                waiters.add(waiter);
                waiter.head(head);
                for (Buffer chunk : chunks) {
                    waiter.chunk(chunk);
                }
            }
            case DONE -> waiter.stored(stored);
            case RELEASED -> waiter.release(null);
        }
    }

    @Override
    public boolean head(Exchange exchange, int status) {
        long now = System.currentTimeMillis();
        MultiMap headers = exchange.response().headers();
        if (stale != null && status == 304) {
            StoredResponse updated = stale.refreshedBy(headers, requestMillis, now, stage.heuristicCapMillis());
            stage.store().put(key, stage.varyFieldsOf(key), updated);
            finish(updated);
            HitResponder.respond(exchange, requestHeaders, updated, "Portico; fwd=stale; fwd-status=304",
                    CacheOutcome.REVALIDATED, now);
            return true;
        }
        if (stale != null && status >= 500 && stage.mayServeStaleOnError(stale, requestControl, now)) {
            serveStale(exchange, now);
            return true;
        }
        CacheControl control = StoredResponse.controlOf(headers);
        // The leader may be a HEAD revalidating a stale GET response: its 200 has no body to store or share.
        Storability.Verdict verdict = Storability.check(exchange.request().method(), status, requestHeaders, headers,
                control, requestControl);
        String reason = !verdict.storable() ? verdict.reason()
                : stage.lacksFreshness(headers, control) ? "no-freshness" : null;
        long declared = DeclaredLength.of(headers);
        if (reason == null && declared > stage.maxObjectBytes()) {
            reason = "size";
        }
        CompressionStage compression = stage.compression();
        if (reason == null && compression != null && compression.withheldFromHttp10(exchange.request().version(),
                requestHeaders, headers)) {
            reason = "http-1.0";
        }
        String fwd = stale == null ? "Portico; fwd=miss" : "Portico; fwd=stale; fwd-status=" + status;
        exchange.cacheOutcome(CacheOutcome.MISS);
        if (reason != null) {
            // The origin now says the stored response may not be reused; an error says nothing about it, and its
            // validators may still earn a 304 next time.
            if (stale != null && status < 500) {
                stage.store().invalidate(key);
            }
            release(reason);
            headers.set(HitResponder.CACHE_STATUS, fwd + "; detail=" + reason);
            return false;
        }
        List<String> vary = VaryKey.fields(headers);
        head = new Head(status, exchange.response().getStatusMessage(), StoredResponse.fieldsOf(headers), vary,
                VaryKey.secondaryKey(vary, requestHeaders), declared < 0);
        expected = declared;
        chunks = new ArrayList<>();
        state = State.SHARING;
        for (FillWaiter waiter : waiters) {
            waiter.head(head);
        }
        headers.set(HitResponder.CACHE_STATUS, fwd + "; stored");
        return false;
    }

    @Override
    public BodyFilter body() {
        return state == State.SHARING ? this : null;
    }

    @Override
    public Buffer piece(Buffer chunk) {
        if (state != State.SHARING) {
            return chunk;
        }
        if (chunks != null) {
            size += chunk.length();
            if (size > stage.maxObjectBytes()) {
                // Too large to store: new requests must not join a stream they cannot replay from the start.
                chunks = null;
                stage.fillEnded(fillKey, this);
            } else {
                chunks.add(chunk);
            }
        }
        for (FillWaiter waiter : waiters) {
            waiter.chunk(chunk);
        }
        if (size == expected) {
            // With Content-Length the client has the whole response once this piece is written, which is before
            // the upstream's end arrives: store now, or its next request would find neither entry nor fill.
            complete();
        }
        return chunk;
    }

    @Override
    public Buffer end() {
        if (state == State.SHARING) {
            complete();
        }
        return EMPTY;
    }

    private void complete() {
        StoredResponse entry = null;
        if (chunks != null) {
            Buffer body = StoredBody.copyOf(chunks, (int) size);
            entry = StoredResponse.of(head.status(), head.statusMessage(), StoredResponse.mapOf(head.headers()), body,
                    requestMillis, System.currentTimeMillis(), requestHeaders.contains(HttpHeaders.AUTHORIZATION),
                    head.varyKey(), stage.heuristicCapMillis());
            stage.store().put(key, head.varyFields(), entry);
        }
        chunks = null;
        for (FillWaiter waiter : waiters) {
            waiter.end();
        }
        waiters.clear();
        state = State.DONE;
        stored = entry;
        if (entry == null) {
            state = State.RELEASED;
        }
        stage.fillEnded(fillKey, this);
    }

    /** Waiters streaming this response need its rest, and so does the store. */
    @Override
    public boolean wantsRestWithoutClient() {
        return state == State.SHARING && !waiters.isEmpty();
    }

    @Override
    public void broken() {
        if (state == State.SHARING) {
            for (FillWaiter waiter : waiters) {
                waiter.abort();
            }
            waiters.clear();
            state = State.RELEASED;
            chunks = null;
            stage.fillEnded(fillKey, this);
        }
        // A fill is a body filter only once it shares a head, so it is never broken while still pending: a request
        // that ends before any upstream head lets its waiters go through noUpstreamResponse().
    }

    /** A static file answered instead, or the client left: the waiters go on by themselves. */
    @Override
    public void noUpstreamResponse() {
        if (state == State.PENDING) {
            release(null);
        }
    }

    @Override
    public boolean failed(Exchange exchange, LocalReason reason) {
        long now = System.currentTimeMillis();
        if (stale != null && stage.mayServeStaleOnError(stale, requestControl, now)) {
            serveStale(exchange, now);
            return true;
        }
        release(null);
        return false;
    }

    private void serveStale(Exchange exchange, long now) {
        finish(stale);
        HitResponder.respond(exchange, requestHeaders, stale, "Portico; hit; detail=stale-if-error",
                CacheOutcome.STALE, now);
    }

    /** The fill ends with a stored response that every waiter is answered from. */
    private void finish(StoredResponse entry) {
        state = State.DONE;
        stored = entry;
        for (FillWaiter waiter : waiters) {
            waiter.stored(entry);
        }
        waiters.clear();
        stage.fillEnded(fillKey, this);
    }

    private void release(String reason) {
        state = State.RELEASED;
        for (FillWaiter waiter : waiters) {
            waiter.release(reason);
        }
        waiters.clear();
        stage.fillEnded(fillKey, this);
    }
}
