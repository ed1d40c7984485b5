package dev.portico.proxy.limits;

import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.Stage;
import dev.portico.proxy.core.StageFactory;
import dev.portico.proxy.core.outcome.LocalReason;
import io.vertx.core.http.HttpHeaders;

/**
 * A vhost's {@code maxInFlight}: past it a request gets 503 {@code vhost_overloaded} with {@code Retry-After: 1}
 * before anything reads its body or goes upstream, so one vhost's flood holds at most that many requests (and their
 * upstream connections and buffers) and leaves the rest of the instance to the others. The count is the vhost's
 * live statistics (requests started less those completed, every loop's slot read once), so the limit costs no
 * shared write per request; loops deciding at the same instant may let a few requests past it. Only in the pipeline
 * of a vhost that has a limit.
 */
public final class InFlightLimitStage implements Stage {

    private static final CharSequence RETRY_AFTER = HttpHeaders.createOptimized("Retry-After");

    /** No stage at all without a limit. */
    public static final StageFactory FACTORY = context -> context.spec().maxInFlight() == null ? null
            : new InFlightLimitStage(context.spec().maxInFlight());

    private final int max;

    public InFlightLimitStage(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("an in-flight limit must be at least 1");
        }
        this.max = max;
    }

    @Override
    public Flow onRequest(Exchange exchange) {
        // This request is among those counted: it started when it was routed.
        if (exchange.vhost().stats().inFlight() > max) {
            exchange.response().headers().set(RETRY_AFTER, "1");
            exchange.replyLocal(LocalReason.VHOST_OVERLOADED, "This vhost has " + max
                    + " requests in flight, its limit; try again shortly");
            return Flow.TAKEN;
        }
        return Flow.NEXT;
    }
}
