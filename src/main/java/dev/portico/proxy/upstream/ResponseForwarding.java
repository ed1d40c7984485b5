package dev.portico.proxy.upstream;

import dev.portico.http.HopByHopHeaders;
import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.ResponseBodyFilters;
import dev.portico.proxy.core.Stage;
import dev.portico.proxy.core.outcome.LocalReason;
import dev.portico.proxy.upstream.pool.BodySource;
import dev.portico.proxy.upstream.pool.HeaderEntries;
import dev.portico.proxy.upstream.pool.UpstreamResponse;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import org.jboss.logging.Logger;

import java.util.concurrent.TimeoutException;

/**
 * An upstream's response on its way to the client: its head copied (end-to-end fields, this hop's {@code Via}), the
 * upstream response phase (a compressor rewrites the head, a cache may answer from what it stored instead), the
 * response head phase, then the body relayed through the response body phase, with the relay's outcomes mapped to
 * what the client and the pool see (this is the relay's {@link BodyRelay.Outcome}).
 */
final class ResponseForwarding implements BodyRelay.Outcome {

    private static final Logger LOG = Logger.getLogger(ResponseForwarding.class);

    private final UpstreamCall call;
    private final UpstreamResponse upstream;
    private BodyRelay relay;
    private boolean finished;

    ResponseForwarding(UpstreamCall call, UpstreamResponse upstream) {
        this.call = call;
        this.upstream = upstream;
    }

    /** @param handoff the connection's direct body path, or null */
    void start(BodySource handoff) {
        Exchange exchange = call.exchange();
        ForwardStage stage = call.stage();
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
        HopByHopHeaders.of(upHeaders).copyEndToEnd(HeaderEntries.of(upHeaders), outHeaders, null, null);
        outHeaders.add(UpstreamCall.VIA, stage.via(upstream.version()));
        if (exchange.phases().upstreamResponse(status) == Stage.Flow.TAKEN) {
            // A stage answered instead: the body is drained so the connection can be pooled.
            finished = true;
            call.discard(upstream);
            return;
        }
        HttpServerRequest request = exchange.request();
        boolean bodyless = request.method() == HttpMethod.HEAD || status == 204 || status == 304 || status < 200;
        // After the upstream response phase: a compressor drops Content-Length.
        if (!bodyless && !outHeaders.contains(HttpHeaders.CONTENT_LENGTH)
                && request.version() != HttpVersion.HTTP_1_0) {
            response.setChunked(true);
        }
        stage.group().responding(exchange, call.target(), outHeaders);
        exchange.sendHead();
        ResponseBodyFilters filters = exchange.phases().responseBody();
        relay = BodyRelay.start(upstream, response, filters, call.deadlines(), stage.readTimeoutMillis(),
                call.exchange().loop().clientSendTimeoutMillis(), this);
        if (handoff != null && !bodyless) {
            relay.takeFrom(handoff);
        }
    }

    /**
     * The client left: whether the upstream request is to be cancelled, which it is unless the response is complete,
     * the upstream's side of it is (its connection is clean and goes back to the pool; an HTTP/2 stream whose last
     * bytes waited for the client's flow-control window closes before the write of its end reports), or the relay
     * reads on for a body filter that still needs the body (other requests are streaming it).
     */
    boolean cancelOnClientGone() {
        return !finished && (relay == null || !relay.sourceEnded() && !relay.destinationGone());
    }

    /** The relay's outcomes (what its end means for the client and the pool), on this object: one allocation less. */
    @Override
    public void relayed() {
        finished = true;
        call.releasePool();
    }

    /**
     * Relays the upstream's trailer fields: gRPC puts its status there. They reach HTTP/1.1 clients in the last
     * chunk of a chunked response (RFC 9112 section 7.1.2) and HTTP/2 clients as a trailing HEADERS frame.
     */
    @Override
    public void sourceEnded() {
        MultiMap trailers = upstream.trailers();
        HttpServerResponse response = call.exchange().response();
        if (!trailers.isEmpty()
                && (response.isChunked() || call.exchange().request().version() == HttpVersion.HTTP_2)) {
            HopByHopHeaders.of(trailers).copyEndToEnd(HeaderEntries.of(trailers), response.trailers(), null, null);
        }
    }

    @Override
    public void sourceFailed(Throwable cause) {
        finished = true;
        call.releasePool();
        LOG.debugf("request %s: %s failed while streaming the response: %s", call.exchange().requestId(),
                call.target().spec().origin(), cause);
        UpstreamFailureLog.report(call.exchange().vhost().name(), call.target().spec().origin(),
                "failed while streaming the response", LocalReason.UPSTREAM_RESET.code(), cause);
        call.exchange().abort(LocalReason.UPSTREAM_RESET);
    }

    @Override
    public void sourceTimedOut(boolean destinationEnded) {
        finished = true;
        long timeout = call.stage().readTimeoutMillis();
        // The connection is mid-response: Vert.x closes it rather than pool it.
        call.upstreamRequest().reset(new TimeoutException("no response body for " + timeout + " ms"));
        call.releasePool();
        LOG.debugf("request %s: %s sent no response body for %d ms", call.exchange().requestId(),
                call.target().spec().origin(), timeout);
        if (!destinationEnded) {
            // The head is out, so the client learns of it as of any broken upstream: a reset.
            call.exchange().abort(LocalReason.UPSTREAM_RESPONSE_TIMEOUT);
        }
    }

    @Override
    public void destinationStalled(long stallTimeoutMillis) {
        finished = true;
        call.releasePool();
        call.upstreamRequest().reset();
        LOG.debugf("request %s: the client took no response body for %d ms", call.exchange().requestId(),
                stallTimeoutMillis);
        call.exchange().abort(LocalReason.CLIENT_SEND_TIMEOUT);
    }

    @Override
    public void destinationFailed(Throwable cause) {
        finished = true;
        call.releasePool();
        if (relay == null || !relay.sourceEnded()) {
            // Mid-response the connection cannot serve another request; once the upstream's response is complete
            // it can, and a reset would close it for nothing.
            call.upstreamRequest().reset();
        }
        call.exchange().clientFailed();
    }
}
