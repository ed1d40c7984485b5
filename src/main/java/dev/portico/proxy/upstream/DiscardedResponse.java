package dev.portico.proxy.upstream;

import dev.portico.proxy.core.ReadDeadlines;
import dev.portico.proxy.upstream.pool.UpstreamClients;
import dev.portico.proxy.upstream.pool.UpstreamRequest;
import dev.portico.proxy.upstream.pool.UpstreamResponse;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * An upstream response nobody will see (a stage answered instead, or a retry replaces it): its body is read and
 * dropped so the connection can go back to the pool, with the read timeout between pieces as for any body. A body
 * that goes on past {@link #MAX_DRAINED} bytes, or stalls, costs its connection instead: the request is reset and
 * Vert.x closes it.
 */
final class DiscardedResponse extends ReadDeadlines.Waiter {

    /** Reading more than this to save one connection costs more than a new connection does. */
    static final long MAX_DRAINED = 1 << 20;

    private final UpstreamRequest request;
    private final UpstreamClients.PooledClient pool;
    private final ReadDeadlines deadlines;
    private final long timeoutMillis;
    private long drained;
    private boolean done;

    private DiscardedResponse(UpstreamRequest request, UpstreamClients.PooledClient pool, ReadDeadlines deadlines,
                              long timeoutMillis) {
        this.request = request;
        this.pool = pool;
        this.deadlines = deadlines;
        this.timeoutMillis = timeoutMillis;
    }

    /** Drains {@code response}, then releases {@code pool} (which the caller no longer holds). */
    static void drain(UpstreamResponse response, UpstreamRequest request, UpstreamClients.PooledClient pool,
                      ReadDeadlines deadlines, long timeoutMillis) {
        DiscardedResponse discarded = new DiscardedResponse(request, pool, deadlines, timeoutMillis);
        long timeoutNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        response.handler(chunk -> {
            deadlines.restartIfRunning(discarded, timeoutNanos);
            discarded.drained += chunk.length();
            if (discarded.drained > MAX_DRAINED) {
                discarded.giveUp(new IllegalStateException("a discarded response body over " + MAX_DRAINED
                        + " bytes"));
            }
        });
        response.exceptionHandler(e -> discarded.finish());
        response.endHandler(v -> discarded.finish());
        deadlines.start(discarded, timeoutMillis);
        response.resume();
    }

    @Override
    protected void expired() {
        giveUp(new TimeoutException("nothing read from the upstream for " + timeoutMillis + " ms"));
    }

    private void giveUp(Throwable why) {
        if (!done) {
            // Mid-response: Vert.x closes the connection rather than pool it.
            request.reset(why);
            finish();
        }
    }

    private void finish() {
        if (!done) {
            done = true;
            deadlines.cancel(this);
            pool.release();
        }
    }
}
