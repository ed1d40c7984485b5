package dev.portico.proxy.upstream.breaker;

import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.Slot;
import dev.portico.proxy.core.Stage;
import dev.portico.proxy.core.SubRequest;
import dev.portico.proxy.core.SubResponse;
import dev.portico.proxy.core.outcome.LocalReason;
import dev.portico.proxy.upstream.health.CircuitBreaker;
import io.vertx.core.Future;
import io.vertx.core.http.HttpHeaders;

/**
 * A vhost's {@code circuitBreaker}: a request the {@link CircuitBreaker} refuses gets 503 {@code circuit_open} with
 * {@code Retry-After} (the cool-down left) before anything is prepared for the upstream, after the upstream failure
 * phase gave the cache its chance to answer with a stale response ({@code stale-if-error}) and to let its waiting
 * requests go. A request let through counts once, as the client gets it: its final response's status (5xx failed) or
 * the upstream failure that ended it (connect failure, timeout, reset), after the retries. Cache hits and static files
 * never get here; a request with no upstream available, or whose client left, counts for nothing. Only in the
 * pipeline of a vhost that has a breaker, inside the cache and the static files.
 */
public final class CircuitBreakerStage implements Stage {

    private static final CharSequence RETRY_AFTER = HttpHeaders.createOptimized("Retry-After");
    /** The ticket {@link CircuitBreaker#admit} gave the request, until its outcome is told. */
    private static final Slot<Exchange, Long> TICKET = Slot.declare(Exchange.class, "circuit breaker ticket");

    private final CircuitBreaker breaker;

    public CircuitBreakerStage(CircuitBreaker breaker) {
        this.breaker = breaker;
    }

    @Override
    public Flow onRequest(Exchange exchange) {
        long now = System.nanoTime();
        long ticket = breaker.admit(now);
        if (ticket != CircuitBreaker.REFUSED) {
            exchange.put(TICKET, ticket);
            return Flow.NEXT;
        }
        if (exchange.phases().upstreamFailure(LocalReason.CIRCUIT_OPEN) == Flow.NEXT) {
            long seconds = breaker.retryAfterSeconds(now);
            exchange.response().headers().set(RETRY_AFTER, Long.toString(seconds));
            exchange.replyLocal(LocalReason.CIRCUIT_OPEN, "The circuit breaker of this vhost is open ("
                    + breaker.reason() + "); try again in " + seconds + "s");
        }
        return Flow.TAKEN;
    }

    @Override
    public Flow onUpstreamResponse(Exchange exchange, int status) {
        ended(exchange, status >= 500, Integer.toString(status));
        return Flow.NEXT;
    }

    @Override
    public Flow onUpstreamFailure(Exchange exchange, LocalReason reason) {
        switch (reason) {
            case UPSTREAM_CONNECT_FAILURE, UPSTREAM_CONNECT_TIMEOUT, UPSTREAM_TLS_ERROR, UPSTREAM_RESPONSE_TIMEOUT,
                 UPSTREAM_PROTOCOL_ERROR -> ended(exchange, true, reason.code());
            // This stage's own refusal, or no upstream to send to: nothing was learnt about the upstreams.
            default -> { }
        }
        return Flow.NEXT;
    }

    /** A protocol switch has no upstream response phase: its 101 is a success. */
    @Override
    public void onResponseHead(Exchange exchange) {
        if (exchange.response().getStatusCode() == 101 && exchange.reason() == null) {
            ended(exchange, false, "101");
        }
    }

    /** A request whose outcome was never told (its client left, a local reply) gives its trial's place back. */
    @Override
    public void onComplete(Exchange exchange) {
        Long ticket = exchange.get(TICKET);
        if (ticket != null) {
            exchange.put(TICKET, null);
            breaker.abandoned(ticket);
        }
    }

    /** A cache's background refresh goes upstream only while the breaker is closed, and is not counted. */
    @Override
    public Future<SubResponse> onSubRequest(SubRequest request, SubRequest.Next next) {
        return breaker.closed() ? next.proceed(request)
                : Future.failedFuture(new IllegalStateException("the vhost's circuit breaker is open"));
    }

    private void ended(Exchange exchange, boolean failed, String what) {
        Long ticket = exchange.get(TICKET);
        if (ticket != null) {
            exchange.put(TICKET, null);
            breaker.ended(ticket, failed, what, exchange.loop().index(), System.nanoTime());
        }
    }
}
