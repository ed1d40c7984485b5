package dev.portico.proxy.upstream;

import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.RequestTarget;
import dev.portico.proxy.core.counters.VhostStats;
import dev.portico.proxy.core.outcome.RetryReason;
import dev.portico.proxy.upstream.balance.UpstreamTarget;
import dev.portico.proxy.upstream.retry.RetryPolicy;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.streams.WriteStream;
import org.jboss.logging.Logger;

import java.util.function.Consumer;

/**
 * One request's attempts as its vhost's {@link RetryPolicy} sees them: which upstreams it tried, whether another
 * attempt may follow one that failed and on which upstream, the backoff before it, and the copy of the request body
 * that lets a retry send it again. Confined to the request's event loop.
 *
 * <p>Another attempt is made only when every rule holds: the vhost retries that kind of failure; the request is safe to
 * send again (nothing of it reached the upstream, or its method is idempotent, RFC 9110 section 9.2.2); its body can
 * be sent again (none, not read yet, or kept whole within {@code retryBufferSize}); nothing of the response reached the
 * client (not even an interim response); tries are left; an upstream is available; and the budget allows it.
 */
final class Retries {

    private static final Logger LOG = Logger.getLogger(Retries.class);
    /**
     * Requests sent again after a stale keep-alive connection, at most: each one takes a closed connection out of the
     * pool, and an origin that closes every reused connection at once must still get its failure answered.
     */
    private static final int MAX_STALE_REPLAYS = 2;

    private final ForwardStage stage;
    private final Exchange exchange;
    private final RetryPolicy policy;
    /** Bit i set when upstream i was tried. */
    private long tried;
    private int attempts;
    private int staleReplays;
    /** The backoff timer before the next attempt, or -1. */
    private long timer = -1;
    /** The upstream picked for the attempt the backoff timer will make. */
    private UpstreamTarget waiting;
    /** An interim response went to the client: part of the response is out, so no attempt may follow. */
    private boolean responseStarted;
    /** The request body began to stream from the client: it can be sent again only from {@link #keptBody}. */
    private boolean bodyStarted;
    /** The copy of the request body kept for a retry, or null. */
    private KeptBody keptBody;

    Retries(ForwardStage stage, Exchange exchange) {
        this.stage = stage;
        this.exchange = exchange;
        this.policy = stage.retry();
    }

    /** An attempt on {@code target} begins. */
    void attempting(UpstreamTarget target) {
        attempts++;
        tried |= 1L << target.index();
    }

    /** Part of the response (an interim one) went to the client. */
    void responseStarted() {
        responseStarted = true;
    }

    /**
     * The upstream for another attempt after one failed for {@code why}, with the retry counted; null when none may be
     * made (the budget refusing it is counted too). A different upstream when one is available (the tried mask), else
     * the same one again (Envoy's rule; nginx's {@code proxy_next_upstream} never reuses one) — except after
     * {@link RetryReason#OVERLOADED}: that upstream's queue just said it has no room, and the client hears so at once
     * (HAProxy redispatches past a server's {@code maxqueue} the same way).
     *
     * @param sent whether any of the request reached the upstream
     */
    UpstreamTarget next(RetryReason why, boolean sent) {
        if (!mayResend(sent) || attempts >= policy.attempts() || !policy.retriesOn(why)
                || why == RetryReason.OVERLOADED && Long.bitCount(tried) >= stage.group().size()) {
            return null;
        }
        long now = System.nanoTime();
        int loop = exchange.loop().index();
        VhostStats stats = exchange.vhost().stats();
        // The budget is asked before an upstream is picked: a pick counts as an attempt for the balancing policy
        // (requests in flight) and for health, and one refused by the budget would never end.
        if (!policy.budget().tryRetry(loop, now)) {
            if (stats != null) {
                stats.slot(loop).retryBudgetExhausted();
            }
            LOG.debugf("request %s: not retried after %s, the retry budget is spent", exchange.requestId(), why.code());
            return null;
        }
        UpstreamTarget next = stage.group().pick(exchange, tried, now);
        if (next == null && why != RetryReason.OVERLOADED) {
            next = stage.group().pick(exchange, 0, now);
        }
        if (next == null) {
            return null;
        }
        if (stats != null) {
            stats.slot(loop).retried(why);
        }
        LOG.debugf("request %s: retrying after %s on %s", exchange.requestId(), why.code(), next.spec().origin());
        return next;
    }

    /**
     * The upstream to send the request to again after its attempt met a stale keep-alive connection (one the origin
     * closed as the request went out: {@code UpstreamCodec.reusedWithoutAnswer}), or null when it may not be. Such a
     * request never reached the origin, so this is no retry in the vhost's sense: no {@code retry.on} condition, no
     * attempt or budget used, no backoff; but only an idempotent request whose body can be sent again qualifies,
     * since the close may also have been a crash while handling it. Counted as {@code stale_connection}.
     */
    UpstreamTarget afterStaleConnection() {
        if (staleReplays >= MAX_STALE_REPLAYS || !mayResend(true)) {
            return null;
        }
        UpstreamTarget next = stage.group().pick(exchange, 0, System.nanoTime());
        if (next == null) {
            return null;
        }
        staleReplays++;
        attempts--;
        VhostStats stats = exchange.vhost().stats();
        if (stats != null) {
            stats.slot(exchange.loop().index()).retried(RetryReason.STALE_CONNECTION);
        }
        LOG.debugf("request %s: sent again on %s after a stale keep-alive connection", exchange.requestId(),
                next.spec().origin());
        return next;
    }

    /** Runs {@code attempt} on {@code next} after the backoff (a Vert.x timer on this loop: the loop never waits). */
    void after(UpstreamTarget next, Consumer<UpstreamTarget> attempt) {
        long delay = policy.backoffMillis(attempts);
        if (delay == 0) {
            attempt.accept(next);
            return;
        }
        waiting = next;
        timer = exchange.loop().context().owner().setTimer(delay, id -> {
            timer = -1;
            waiting = null;
            attempt.accept(next);
        });
    }

    /** The client left: no attempt follows, and the upstream picked for one waiting for its backoff is let go. */
    void cancel() {
        if (timer >= 0) {
            exchange.loop().context().owner().cancelTimer(timer);
            timer = -1;
            stage.group().finished(exchange.loop(), waiting, -1);
            stage.group().abandoned(waiting);
            waiting = null;
        }
    }

    /**
     * Whether the request is safe to send again, for any reason: nothing of the response reached the client, the
     * request never reached an upstream or its method is idempotent (RFC 9110 section 9.2.2), and its body can be sent
     * again.
     *
     * @param sent whether any of the request reached the upstream
     */
    private boolean mayResend(boolean sent) {
        return !exchange.headSent() && !responseStarted
                && (!sent || RetryPolicy.idempotent(exchange.request().method())) && bodyAvailable();
    }

    /** Whether the request body can be sent (again): there is none, none of it was read yet, or it was kept whole. */
    private boolean bodyAvailable() {
        return !bodyStarted || keptBody != null && keptBody.whole() != null
                || !RequestTarget.hasBody(exchange.request());
    }

    /**
     * The request body starts to stream to the upstream: the destination to write it to, which keeps a copy when the
     * vhost may retry the request after it was sent.
     */
    WriteStream<Buffer> bodyStarted(WriteStream<Buffer> destination) {
        bodyStarted = true;
        if (policy.keepsBodyOf(exchange.request().method())) {
            keptBody = new KeptBody(destination, policy.bufferBytes());
            return keptBody;
        }
        return destination;
    }

    /** The request body as an earlier attempt sent it, to send again; null when the body is still to be read. */
    Buffer bodyToReplay() {
        return bodyStarted && keptBody != null ? keptBody.whole() : null;
    }
}
