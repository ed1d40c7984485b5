package dev.portico.proxy.upstream;

import dev.portico.proxy.core.ClientConnection;
import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.ReadDeadlines;
import dev.portico.proxy.core.Stage;
import dev.portico.proxy.core.outcome.LocalReason;
import dev.portico.proxy.core.outcome.ProxyError;
import dev.portico.proxy.core.outcome.RetryReason;
import dev.portico.proxy.upstream.balance.AttemptOutcome;
import dev.portico.proxy.upstream.balance.UpstreamTarget;
import dev.portico.proxy.upstream.pool.PoolRejection;
import dev.portico.proxy.upstream.pool.UpstreamClients;
import dev.portico.proxy.upstream.pool.UpstreamCodec;
import dev.portico.proxy.upstream.pool.UpstreamRequest;
import dev.portico.proxy.upstream.pool.UpstreamResponse;
import io.netty.handler.codec.http.HttpResponse;
import io.vertx.core.AsyncResult;
import io.vertx.core.Handler;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.RequestOptions;
import org.jboss.logging.Logger;

import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One request's trip to the upstreams (Pingora's upstream peer phase and what follows): pick an upstream through the
 * group's selector, get a pooled connection, hand the request to {@link UpstreamRequestWriter}, wait for the response
 * head (the per-try or read timeout, as a deadline waiter), forward interim responses, and hand the response to
 * {@link ResponseForwarding}. A failed attempt (typed as a {@link ProxyError}, or a response status the vhost retries)
 * is tried again after a backoff, on another upstream when there is one, when {@link Retries} says the vhost's rules
 * allow it. Every other failure becomes the upstream failure phase and the right local reply, or a reset.
 */
final class UpstreamCall extends ReadDeadlines.Waiter implements UpstreamCodec.InterimListener {

    private static final Logger LOG = Logger.getLogger(UpstreamCall.class);
    static final CharSequence VIA = HttpHeaders.createOptimized("Via");
    private static final CharSequence RETRY_AFTER = HttpHeaders.createOptimized("Retry-After");
    /**
     * Resetting a request that has not ended (a client that left, or whose body broke its framing, before or while
     * the body went out) fails its end too; the response future reports the reset, so Vert.x need not log it as an
     * unhandled error.
     */
    static final Handler<Throwable> IGNORED = failure -> { };

    private final ForwardStage stage;
    private final Exchange exchange;
    private final Retries retries;
    private UpstreamTarget target;
    private UpstreamClients.PooledClient pool;
    private UpstreamRequest upstreamRequest;
    private ResponseForwarding forwarding;
    /** The codec of this attempt's connection, or null: it tells a stale keep-alive connection. */
    private UpstreamCodec codec;
    private boolean clientGone;
    private boolean headReceived;
    /** This attempt forwards the client's protocol switch: its request asks the upstream to upgrade. */
    private boolean upgrading;

    UpstreamCall(ForwardStage stage, Exchange exchange) {
        this.stage = stage;
        this.exchange = exchange;
        this.retries = new Retries(stage, exchange);
    }

    void start() {
        exchange.onClientGone(this::clientGone);
        // The request is handed over: a hash or a sticky cookie may pick by what it carries.
        UpstreamTarget first = stage.group().pick(exchange, 0, System.nanoTime());
        if (first == null) {
            fail(LocalReason.NO_HEALTHY_UPSTREAM, "No upstream of this vhost is available");
            return;
        }
        attempt(first);
    }

    private void attempt(UpstreamTarget next) {
        retries.attempting(next);
        target = next;
        upstreamRequest = null;
        codec = null;
        forwarding = null;
        headReceived = false;
        pool = UpstreamClients.of(exchange.loop()).acquire(next, stage.poolLimits());
        exchange.upstream().started(next.spec().origin());
        RequestOptions options = new RequestOptions()
                .setServer(next.server())
                // The name sent in SNI and verified when it is not the server's own host: tls.serverName, or the
                // URL's host name when connecting to one of its addresses.
                .setHost(next.peerHost())
                .setMethod(exchange.request().method())
                .setURI(next.uriFor(exchange.target().pathAndQuery()));
        upgrading = stage.forwardsUpgrade(exchange, next);
        // No per-request connect timeout (a timer per request): the pool's TCP connect timeout is the vhost's, and
        // the pool sets the queue timeout only on a request that can only wait.
        pool.request(options, upgrading, stage.poolLimits().queueTimeoutMillis()).onComplete(this::connected);
    }

    /** Makes attempt {@code next} after the backoff, unless the client left meanwhile. */
    private void retry(UpstreamTarget next) {
        upstreamRequest = null;
        retries.after(next, target -> {
            if (!clientGone) {
                attempt(target);
            } else {
                stage.group().finished(exchange.loop(), target, -1);
                stage.group().abandoned(target);
            }
        });
    }

    /** After a failed attempt: another one when allowed, else the failure phase and the local reply. */
    private void failed(ProxyError error) {
        UpstreamTarget next = clientGone ? null : retries.next(error.retryReason(), !error.retryable());
        if (next != null) {
            retry(next);
        } else {
            fail(error.reason(), error.detail());
        }
    }

    private void connected(AsyncResult<UpstreamRequest> result) {
        if (result.failed()) {
            releasePool();
            if (clientGone) {
                stage.group().abandoned(target);
                return;
            }
            ProxyError error = result.cause() instanceof PoolRejection rejected ? rejected.error()
                    : ProxyError.connecting(result.cause());
            reportFailure(error, AttemptOutcome.CONNECT_FAILED);
            LOG.debugf("request %s: connecting to %s failed: %s", exchange.requestId(), target.spec().origin(),
                    result.cause());
            failed(error);
            return;
        }
        UpstreamRequest request = result.result();
        upstreamRequest = request;
        if (clientGone) {
            stage.group().abandoned(target);
            request.exceptionHandler(IGNORED);
            request.reset();
            releasePool();
            return;
        }
        codec = request.codec();
        if (codec != null) {
            codec.listen(this);
        }
        request.response().onComplete(this::responded);
        UpstreamRequestWriter.send(this, request);
    }

    ReadDeadlines deadlines() {
        return UpstreamClients.of(exchange.loop()).readDeadlines();
    }

    /**
     * The request is sent: the per-try timeout, else the vhost's read timeout, runs until the response head (nginx's
     * proxy_read_timeout).
     */
    void awaitHead() {
        if (!headReceived) {
            deadlines().start(this, stage.headTimeoutMillis());
        }
    }

    /**
     * No response head, or no piece of a body read for nobody (see {@link ResponseForwarding}), within the read
     * timeout. The reset fails the response with this cause, which maps to upstream_response_timeout, and Vert.x
     * closes a connection whose request it resets mid-response.
     */
    @Override
    protected void expired() {
        upstreamRequest.reset(new TimeoutException("nothing read from the upstream for "
                + (headReceived ? stage.readTimeoutMillis() : stage.headTimeoutMillis()) + " ms"));
    }

    /** An interim response (102, 103...): it restarts the read timeout, and goes on to the client if it may. */
    @Override
    public void interim(HttpResponse head) {
        deadlines().restartIfRunning(this, TimeUnit.MILLISECONDS.toNanos(stage.readTimeoutMillis()));
        ClientConnection connection = exchange.connection();
        // Whether the client may get it (RFC 9110 section 15.2: not HTTP/1.0 clients) is its listener's rule.
        if (!clientGone && !exchange.headSent() && !exchange.response().closed() && connection != null) {
            HttpVersion received = head.protocolVersion().minorVersion() == 0 ? HttpVersion.HTTP_1_0
                    : HttpVersion.HTTP_1_1;
            MultiMap fields = HttpHeaders.headers();
            for (Iterator<Map.Entry<CharSequence, CharSequence>> it = head.headers().iteratorCharSequence();
                 it.hasNext(); ) {
                Map.Entry<CharSequence, CharSequence> field = it.next();
                fields.add(field.getKey(), field.getValue());
            }
            retries.responseStarted();
            connection.sendInterim(head.status().code(), head.status().reasonPhrase(), fields, stage.via(received));
        }
    }

    /**
     * The client sent no piece of its request body for the client body timeout while Portico was reading it: 408 when
     * no response has begun (nginx answers the same), a reset otherwise, and the upstream request is cancelled so a
     * truncated body never looks complete there.
     */
    void clientBodyTimedOut() {
        LOG.debugf("request %s: no request body from the client for %d ms", exchange.requestId(),
                exchange.loop().clientBodyTimeoutMillis());
        // This call is done with the client: the cancelled upstream's failure must not answer it again.
        clientGone = true;
        exchange.replyLocal(LocalReason.CLIENT_BODY_TIMEOUT, "The request body stopped arriving for "
                + exchange.loop().clientBodyTimeoutMillis() + " ms", true);
        upstreamRequest.reset();
    }

    private void responded(AsyncResult<UpstreamResponse> result) {
        headReceived = true;
        deadlines().cancel(this);
        if (result.failed()) {
            releasePool();
            if (clientGone) {
                stage.group().abandoned(target);
                return;
            }
            if (GrpcDeadline.cancelledAtDeadline(exchange, result.cause())) {
                stage.group().abandoned(target);
                LOG.debugf("request %s: %s cancelled the gRPC call at its deadline", exchange.requestId(),
                        target.spec().origin());
                fail(LocalReason.GRPC_DEADLINE_EXCEEDED, "The call's deadline (grpc-timeout) passed");
                return;
            }
            ProxyError error = ProxyError.awaitingResponse(result.cause());
            if (error.reason() == LocalReason.UPSTREAM_PROTOCOL_ERROR && codec != null && codec.reusedWithoutAnswer()) {
                UpstreamTarget next = retries.afterStaleConnection();
                if (next != null) {
                    // The origin closed an idle connection: no verdict on it, and the request goes again at once.
                    stage.group().abandoned(target);
                    attempt(next);
                    return;
                }
            }
            reportFailure(error, AttemptOutcome.RESPONSE_FAILED);
            LOG.debugf("request %s: %s failed before responding: %s", exchange.requestId(), target.spec().origin(),
                    result.cause());
            UpstreamFailureLog.report(exchange.vhost().name(), target.spec().origin(), "failed before responding",
                    error.reason().code(), result.cause());
            failed(error);
            return;
        }
        exchange.upstream().headersReceived();
        stage.group().report(exchange.loop(), target, AttemptOutcome.RESPONDED, result.result().statusCode(), null, 0);
        if (clientGone) {
            upstreamRequest.reset();
            releasePool();
            return;
        }
        UpstreamResponse response = result.result();
        if (!upgrading && stage.retry().retriesStatus(response.statusCode())) {
            UpstreamTarget next = retries.next(RetryReason.STATUS, true);
            if (next != null) {
                LOG.debugf("request %s: %s answered %d", exchange.requestId(), target.spec().origin(),
                        response.statusCode());
                discard(response);
                retry(next);
                return;
            }
        }
        if (upgrading) {
            if (response.statusCode() == 101) {
                UpgradeForwarding.switchProtocols(this, response.vertx());
                return;
            }
            // Not switching: the request, which connect() left open, ends so the connection serves the next one.
            upstreamRequest.end();
        }
        forwarding = new ResponseForwarding(this, response);
        forwarding.start(response.bodySource());
    }

    private void clientGone() {
        clientGone = true;
        retries.cancel();
        if (upstreamRequest != null && (forwarding == null || forwarding.cancelOnClientGone())) {
            upstreamRequest.reset();
        }
    }

    /**
     * Tells the selector (passive health) of a failed attempt when the upstream caused it: a failure the client or
     * Portico caused says nothing about the upstream (its full queue is counted apart).
     */
    private void reportFailure(ProxyError error, AttemptOutcome outcome) {
        if (error.reason() == LocalReason.UPSTREAM_OVERLOADED) {
            stage.group().overloaded(target);
        } else if (error.source() == ProxyError.Source.UPSTREAM) {
            stage.group().report(exchange.loop(), target, outcome, 0, error.reason().code(), System.nanoTime());
        } else {
            stage.group().abandoned(target);
        }
    }

    /** The upstream failure phase (a stage may answer instead, with a stale response), then the local reply. */
    private void fail(LocalReason reason, String detail) {
        if (exchange.phases().upstreamFailure(reason) == Stage.Flow.NEXT) {
            if (reason == LocalReason.UPSTREAM_OVERLOADED) {
                // As the other overload replies: the queue drains within the upstream's response time.
                exchange.response().headers().set(RETRY_AFTER, "1");
            }
            exchange.replyLocal(reason, detail);
        }
    }

    /**
     * Drops the response of this attempt (nobody will see it) and lets the drain release the pool; for the selector
     * the attempt is over now.
     */
    void discard(UpstreamResponse response) {
        DiscardedResponse.drain(response, upstreamRequest, pool, deadlines(), stage.readTimeoutMillis());
        if (pool != null) {
            pool = null;
            stage.group().finished(exchange.loop(), target, exchange.upstream().nanos());
        }
    }

    /** The attempt is over: its connection goes back, and the selector hears it (requests in flight, latency). */
    void releasePool() {
        if (pool != null) {
            pool.release();
            pool = null;
            stage.group().finished(exchange.loop(), target, exchange.upstream().nanos());
        }
    }

    /** The request's attempts and what a retry needs of them (the kept body). */
    Retries retries() {
        return retries;
    }

    ForwardStage stage() {
        return stage;
    }

    boolean upgrading() {
        return upgrading;
    }

    Exchange exchange() {
        return exchange;
    }

    UpstreamRequest upstreamRequest() {
        return upstreamRequest;
    }

    UpstreamTarget target() {
        return target;
    }
}
