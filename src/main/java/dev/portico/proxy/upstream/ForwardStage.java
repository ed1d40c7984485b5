package dev.portico.proxy.upstream;

import dev.portico.http.HopByHopHeaders;
import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.Stage;
import dev.portico.proxy.core.SubRequest;
import dev.portico.proxy.core.SubResponse;
import dev.portico.proxy.upstream.balance.UpstreamGroup;
import dev.portico.proxy.upstream.balance.UpstreamTarget;
import dev.portico.proxy.upstream.pool.PoolLimits;
import dev.portico.proxy.upstream.retry.RetryPolicy;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpVersion;

/**
 * The terminal stage of a proxied vhost: sends the request to one of the vhost's upstreams and streams the
 * response back. Always takes the request. See {@link UpstreamCall} for one request's life.
 */
public final class ForwardStage implements Stage {

    private final UpstreamGroup group;
    private final boolean preserveHost;
    private final String hostOverride;
    private final PoolLimits poolLimits;
    private final long readTimeoutMillis;
    private final CharSequence via11;
    private final CharSequence via10;
    private final CharSequence via2;
    private final boolean websocket;
    private final long websocketIdleTimeoutMillis;
    private final RetryPolicy retry;
    private final long headTimeoutMillis;

    /**
     * @param hostOverride a {@code Host} value the vhost's request header rules fix, or null
     * @param viaPseudonym this instance's name in {@code Via}
     * @param websocket whether Upgrade requests are forwarded as such (the vhost's {@code websocket})
     * @param retry when a failed attempt is tried again
     * @param poolLimits the connect timeout, and the queue for a busy upstream's connections
     */
    public ForwardStage(UpstreamGroup group, boolean preserveHost, String hostOverride, PoolLimits poolLimits,
                        long readTimeoutMillis, String viaPseudonym, boolean websocket,
                        long websocketIdleTimeoutMillis, RetryPolicy retry) {
        this.retry = retry;
        this.headTimeoutMillis = retry.headTimeoutMillis(readTimeoutMillis);
        this.websocket = websocket;
        this.websocketIdleTimeoutMillis = websocketIdleTimeoutMillis;
        this.group = group;
        this.preserveHost = preserveHost;
        this.hostOverride = hostOverride;
        this.poolLimits = poolLimits;
        this.readTimeoutMillis = readTimeoutMillis;
        this.via11 = HttpHeaders.createOptimized("1.1 " + viaPseudonym);
        this.via10 = HttpHeaders.createOptimized("1.0 " + viaPseudonym);
        // HTTP/2's protocol-version is "2" (RFC 9113 section 3.1: the protocol is "HTTP/2", without minor version).
        this.via2 = HttpHeaders.createOptimized("2 " + viaPseudonym);
    }

    @Override
    public Flow onRequest(Exchange exchange) {
        if (MaxForwards.answeredHere(exchange)) {
            return Flow.TAKEN;
        }
        // Every request counts towards the share of retries the budget allows.
        retry.budget().requested(exchange.loop().index(), System.nanoTime());
        new UpstreamCall(this, exchange).start();
        return Flow.TAKEN;
    }

    /** Answers a sub-request with one GET to an upstream, its hop-by-hop fields dropped as for any request. */
    @Override
    public Future<SubResponse> onSubRequest(SubRequest request, SubRequest.Next next) {
        MultiMap in = request.headers();
        MultiMap out = MultiMap.caseInsensitiveMultiMap();
        HopByHopHeaders.of(in).copyEndToEnd(in, out, "Host", "Expect");
        Exchange parent = request.parent();
        return UpstreamFetch.get(this, parent.loop(), parent.target().authority(), request.pathAndQuery(),
                out, request.maxBody());
    }

    public UpstreamGroup group() {
        return group;
    }

    PoolLimits poolLimits() {
        return poolLimits;
    }

    long readTimeoutMillis() {
        return readTimeoutMillis;
    }

    /**
     * Whether this request's protocol switch goes to {@code target}: the vhost forwards upgrades and the upstream
     * speaks HTTP/1.1 (HTTP/2 has no Upgrade). Otherwise the request goes as a plain one, its {@code Upgrade} and
     * {@code Connection} dropped like any hop-by-hop field (nginx without {@code proxy_set_header Upgrade}).
     */
    boolean forwardsUpgrade(Exchange exchange, UpstreamTarget target) {
        return websocket && exchange.upgrade() != null && !target.spec().protocol().http2();
    }

    RetryPolicy retry() {
        return retry;
    }

    /** The longest wait for a response head once the request is sent: the per-try timeout or the read timeout. */
    long headTimeoutMillis() {
        return headTimeoutMillis;
    }

    long websocketIdleTimeoutMillis() {
        return websocketIdleTimeoutMillis;
    }

    /** The {@code Via} entry for a message received with this HTTP version (RFC 9110 section 7.6.3). */
    CharSequence via(HttpVersion received) {
        return received == HttpVersion.HTTP_1_0 ? via10 : received == HttpVersion.HTTP_2 ? via2 : via11;
    }

    /** The {@code Host} the upstream sees: a fixed override, the client's, or the upstream's own authority. */
    String hostFor(Exchange exchange, UpstreamTarget target) {
        return hostFor(exchange.target().authority(), target);
    }

    String hostFor(String clientAuthority, UpstreamTarget target) {
        if (hostOverride != null) {
            return hostOverride;
        }
        return preserveHost ? clientAuthority : target.spec().authority();
    }
}
