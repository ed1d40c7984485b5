package dev.portico.proxy.upstream;

import dev.portico.http.HopByHopHeaders;
import dev.portico.http.coding.BodyEncoder;
import dev.portico.http.coding.CompressionPolicy;
import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.ReadDeadlines;
import dev.portico.proxy.core.RequestTarget;
import dev.portico.proxy.core.UpstreamTap;
import dev.portico.proxy.core.outcome.LocalReason;
import dev.portico.proxy.core.outcome.ProxyError;
import dev.portico.proxy.upstream.balance.AttemptOutcome;
import dev.portico.proxy.upstream.balance.UpstreamTarget;
import dev.portico.proxy.upstream.pool.BodyHandoff;
import dev.portico.proxy.upstream.pool.UpstreamClients;
import dev.portico.proxy.upstream.pool.UpstreamCodec;
import io.netty.handler.codec.http.HttpResponse;
import io.vertx.core.AsyncResult;
import io.vertx.core.Handler;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.RequestOptions;
import org.jboss.logging.Logger;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One request's trip to the upstreams: pick an upstream, get a pooled connection (trying the next upstream when
 * connecting fails, since nothing was sent yet), stream the request body up and the response body down with
 * back-pressure on both sides, forward interim responses, and turn every failure into the right local reply or
 * reset. As a deadline waiter it times the wait for the response head (the vhost's read timeout); each body relay
 * times its own source.
 */
final class UpstreamCall extends ReadDeadlines.Waiter implements UpstreamCodec.InterimListener {

    private static final Logger LOG = Logger.getLogger(UpstreamCall.class);
    static final CharSequence VIA = HttpHeaders.createOptimized("Via");
    /**
     * Resetting a request that has not ended (a client that left, or whose body broke its framing, before or while
     * the body went out) fails its end too; the response future reports the reset, so Vert.x need not log it as an
     * unhandled error.
     */
    private static final Handler<Throwable> IGNORED = failure -> { };

    private final ForwardStage stage;
    private final Exchange exchange;
    private long tried;
    private ProxyError lastError;
    private UpstreamTarget target;
    private UpstreamClients.PooledClient pool;
    private HttpClientRequest upstreamRequest;
    private BodyRelay responseRelay;
    /** Hands the response body straight from the upstream socket to the relay, when the connection has one. */
    private BodyHandoff handoff;
    private boolean clientGone;
    private boolean headReceived;
    private boolean finished;
    private boolean tapDone;

    UpstreamCall(ForwardStage stage, Exchange exchange) {
        this.stage = stage;
        this.exchange = exchange;
    }

    void start() {
        exchange.onClientGone(this::clientGone);
        attempt();
    }

    private void attempt() {
        UpstreamTarget next = stage.group().pick(exchange.loop(), tried, System.nanoTime());
        if (next == null) {
            if (lastError == null) {
                fail(LocalReason.NO_HEALTHY_UPSTREAM, "No upstream of this vhost is available");
            } else {
                fail(lastError.reason(), lastError.detail());
            }
            return;
        }
        tried |= 1L << next.index();
        target = next;
        pool = UpstreamClients.of(exchange.loop()).acquire(next, stage.connectTimeoutMillis());
        exchange.upstreamStarted(next.spec().origin());
        RequestOptions options = new RequestOptions()
                .setServer(next.server())
                .setMethod(exchange.request().method())
                .setURI(next.uriFor(exchange.target().pathAndQuery()));
        // No per-request connect timeout (a timer per request): the pool's TCP connect timeout is the vhost's.
        pool.client().request(options).onComplete(this::connected);
    }

    private void connected(AsyncResult<HttpClientRequest> result) {
        if (result.failed()) {
            releasePool();
            if (clientGone) {
                return;
            }
            ProxyError error = ProxyError.connecting(result.cause());
            stage.group().report(exchange.loop(), target, AttemptOutcome.CONNECT_FAILED, System.nanoTime());
            LOG.debugf("request %s: connecting to %s failed: %s", exchange.requestId(), target.spec().origin(),
                    result.cause());
            lastError = error;
            if (error.retryable()) {
                // Nothing was sent: the next upstream may take it.
                attempt();
            } else {
                fail(error.reason(), error.detail());
            }
            return;
        }
        HttpClientRequest request = result.result();
        upstreamRequest = request;
        if (clientGone) {
            request.exceptionHandler(IGNORED);
            request.reset();
            releasePool();
            return;
        }
        UpstreamCodec codec = UpstreamCodec.of(request.connection());
        if (codec != null) {
            codec.listen(this);
        }
        handoff = BodyHandoff.of(request.connection());
        send(request);
    }

    private void send(HttpClientRequest request) {
        HttpServerRequest in = exchange.request();
        MultiMap inHeaders = in.headers();
        MultiMap out = request.headers();
        HopByHopHeaders.of(inHeaders).copyEndToEnd(inHeaders, out, "Host", "Expect");
        out.set(HttpHeaders.HOST, stage.hostFor(exchange, target));
        out.set(Exchange.REQUEST_ID_HEADER, exchange.requestId());
        out.add(VIA, stage.via(in.version()));
        request.response().onComplete(this::responded);
        if (RequestTarget.hasBody(in)) {
            // A request reset mid-body (client gone, timed out or broken framing) reports here too.
            request.exceptionHandler(IGNORED);
            if (inHeaders.contains(HttpHeaders.TRANSFER_ENCODING)) {
                out.remove(HttpHeaders.CONTENT_LENGTH);
                request.setChunked(true);
            }
            if (inHeaders.contains(HttpHeaders.EXPECT, HttpHeaders.CONTINUE, true)) {
                // The upstream is connected, so the body has somewhere to go (nginx answers 100 the same way).
                exchange.response().writeContinue();
            }
            long bodyTimeout = exchange.loop().clientBodyTimeoutMillis();
            BodyRelay.start(exchange.requestBody(), request, deadlines(), bodyTimeout, new BodyRelay.Outcome() {
                @Override
                public void relayed() {
                    awaitHead();
                }

                @Override
                public void sourceFailed(Throwable cause) {
                    // The client stopped sending mid-body: never let a truncated body look complete upstream.
                    request.reset();
                }

                @Override
                public void sourceTimedOut(boolean destinationEnded) {
                    clientBodyTimedOut();
                }

                @Override
                public void destinationFailed(Throwable cause) {
                    // The upstream stopped reading; its response (or the lack of one) decides what the client sees.
                    request.reset();
                }
            });
        } else {
            awaitHead();
            request.end();
            in.resume();
        }
    }

    private ReadDeadlines deadlines() {
        return UpstreamClients.of(exchange.loop()).readDeadlines();
    }

    /** The request is sent: the vhost's read timeout runs until the response head (nginx's proxy_read_timeout). */
    private void awaitHead() {
        if (!headReceived) {
            deadlines().start(this, stage.readTimeoutMillis());
        }
    }

    /**
     * No response head, or no piece of a body read for nobody (see {@link #discard}), within the read timeout. The
     * reset fails the response with this cause, which maps to upstream_response_timeout, and Vert.x closes a
     * connection whose request it resets mid-response.
     */
    @Override
    protected void expired() {
        upstreamRequest.reset(0, new TimeoutException("nothing read from the upstream for "
                + stage.readTimeoutMillis() + " ms"));
    }

    /** An interim response (102, 103...): it restarts the read timeout, and goes on to the client if it may. */
    @Override
    public void interim(HttpResponse head) {
        deadlines().restartIfRunning(this, TimeUnit.MILLISECONDS.toNanos(stage.readTimeoutMillis()));
        HttpServerRequest in = exchange.request();
        // RFC 9110 section 15.2: not to HTTP/1.0 clients, which do not know 1xx.
        if (!clientGone && !exchange.headSent() && !exchange.response().closed()
                && in.version() == HttpVersion.HTTP_1_1) {
            HttpVersion received = head.protocolVersion().minorVersion() == 0 ? HttpVersion.HTTP_1_0
                    : HttpVersion.HTTP_1_1;
            InterimForwarding.forward(in, head, stage.via(received));
        }
    }

    /**
     * The client sent no piece of its request body for the client body timeout while Portico was reading it: 408 when
     * no response has begun (nginx answers the same), a reset otherwise, and the upstream request is cancelled so a
     * truncated body never looks complete there.
     */
    private void clientBodyTimedOut() {
        LOG.debugf("request %s: no request body from the client for %d ms", exchange.requestId(),
                exchange.loop().clientBodyTimeoutMillis());
        // This call is done with the client: the cancelled upstream's failure must not answer it again.
        clientGone = true;
        exchange.replyLocal(LocalReason.CLIENT_BODY_TIMEOUT, "The request body stopped arriving for "
                + exchange.loop().clientBodyTimeoutMillis() + " ms", true);
        upstreamRequest.reset();
    }

    private void responded(AsyncResult<HttpClientResponse> result) {
        headReceived = true;
        deadlines().cancel(this);
        if (result.failed()) {
            releasePool();
            if (clientGone) {
                tapBroken();
                return;
            }
            stage.group().report(exchange.loop(), target, AttemptOutcome.RESPONSE_FAILED, System.nanoTime());
            ProxyError error = ProxyError.awaitingResponse(result.cause());
            LOG.debugf("request %s: %s failed before responding: %s", exchange.requestId(), target.spec().origin(),
                    result.cause());
            fail(error.reason(), error.detail());
            return;
        }
        HttpClientResponse upstream = result.result();
        exchange.upstreamHeadersReceived();
        stage.group().report(exchange.loop(), target, AttemptOutcome.RESPONDED, 0);
        if (clientGone) {
            upstreamRequest.reset();
            releasePool();
            tapBroken();
            return;
        }
        HttpServerResponse response = exchange.response();
        int status = upstream.statusCode();
        // Set only what differs: a new response is 200 OK, a status lookup and a custom phrase (a new status object)
        // per response showed up in profiles.
        if (status != response.getStatusCode()) {
            response.setStatusCode(status);
        }
        String message = upstream.statusMessage();
        if (message != null && !message.equals(response.getStatusMessage())) {
            response.setStatusMessage(message);
        }
        MultiMap upHeaders = upstream.headers();
        MultiMap outHeaders = response.headers();
        HopByHopHeaders.of(upHeaders).copyEndToEnd(upHeaders, outHeaders, null, null);
        outHeaders.add(VIA, stage.via(upstream.version()));
        HttpServerRequest request = exchange.request();
        boolean bodyless = request.method() == HttpMethod.HEAD || status == 204 || status == 304 || status < 200;
        CompressionPolicy compression = exchange.vhost().compression();
        // Before the tap sees the head: a cache stores the response as the client gets it, compressed.
        BodyEncoder encoder = compression == null ? null
                : compression.begin(request.method(), request.version(), exchange.clientAcceptEncoding(), status,
                        outHeaders, -1);
        if (!bodyless && !outHeaders.contains(HttpHeaders.CONTENT_LENGTH)
                && request.version() != HttpVersion.HTTP_1_0) {
            response.setChunked(true);
        }
        UpstreamTap tap = exchange.upstreamTap();
        if (tap != null && tap.head(exchange, status)) {
            if (encoder != null) {
                encoder.release();
            }
            discard(upstream);
            return;
        }
        exchange.sendHead();
        long timeout = stage.readTimeoutMillis();
        ReadDeadlines deadlines = deadlines();
        responseRelay = BodyRelay.start(upstream, response, tap, encoder, deadlines, timeout, new BodyRelay.Outcome() {
            @Override
            public void sourceEnded() {
                // Before the client can see the end: a cache stores the response before the client's next request
                // can arrive, and a complete body is stored even if the client connection fails on the last write.
                if (tap != null) {
                    tapDone = true;
                    tap.end();
                }
            }

            @Override
            public void relayed() {
                finished = true;
                releasePool();
            }

            @Override
            public void sourceFailed(Throwable cause) {
                finished = true;
                releasePool();
                tapBroken();
                LOG.debugf("request %s: %s failed while streaming the response: %s", exchange.requestId(),
                        target.spec().origin(), cause);
                exchange.abort(LocalReason.UPSTREAM_RESET);
            }

            @Override
            public void sourceTimedOut(boolean destinationEnded) {
                finished = true;
                // The connection is mid-response: Vert.x closes it rather than pool it.
                upstreamRequest.reset(0, new TimeoutException("no response body for " + stage.readTimeoutMillis()
                        + " ms"));
                releasePool();
                // A cache fill is abandoned: nothing of a body that never ended is stored.
                tapBroken();
                LOG.debugf("request %s: %s sent no response body for %d ms", exchange.requestId(),
                        target.spec().origin(), stage.readTimeoutMillis());
                if (!destinationEnded) {
                    // The head is out, so the client learns of it as of any broken upstream: a reset.
                    exchange.abort(LocalReason.UPSTREAM_RESPONSE_TIMEOUT);
                }
            }

            @Override
            public void destinationFailed(Throwable cause) {
                finished = true;
                releasePool();
                upstreamRequest.reset();
                tapBroken();
                exchange.clientFailed();
            }

            @Override
            public boolean readOnWithoutDestination() {
                // Requests collapsed onto this one are streaming the same body: the client leaving must not cut
                // them off, so the upstream is read to its end for the cache.
                return tap != null && tap.wantsBodyWithoutClient();
            }
        });
        if (handoff != null && !bodyless) {
            responseRelay.takeFrom(handoff);
        }
    }

    private void clientGone() {
        clientGone = true;
        if (upstreamRequest != null && !finished
                && (responseRelay == null || !responseRelay.destinationGone())) {
            upstreamRequest.reset();
        }
    }

    /** The local reply for an upstream failure, unless the tap answers instead (a stale response). */
    private void fail(LocalReason reason, String detail) {
        UpstreamTap tap = exchange.upstreamTap();
        if (tap != null && !tapDone) {
            tapDone = true;
            if (tap.failed(exchange, reason)) {
                return;
            }
        }
        exchange.replyLocal(reason, detail);
    }

    private void tapBroken() {
        UpstreamTap tap = exchange.upstreamTap();
        if (tap != null && !tapDone) {
            tapDone = true;
            tap.broken();
        }
    }

    /**
     * Reads and drops a body the client will not see, so the connection can go back to the pool; the read timeout
     * runs between its pieces as for any body.
     */
    private void discard(HttpClientResponse upstream) {
        finished = true;
        ReadDeadlines deadlines = deadlines();
        long timeoutNanos = TimeUnit.MILLISECONDS.toNanos(stage.readTimeoutMillis());
        upstream.handler(chunk -> deadlines.restartIfRunning(this, timeoutNanos));
        upstream.exceptionHandler(e -> {
            deadlines.cancel(this);
            releasePool();
        });
        upstream.endHandler(v -> {
            deadlines.cancel(this);
            releasePool();
        });
        deadlines.start(this, stage.readTimeoutMillis());
        upstream.resume();
    }

    private void releasePool() {
        if (pool != null) {
            pool.release();
            pool = null;
        }
    }
}
