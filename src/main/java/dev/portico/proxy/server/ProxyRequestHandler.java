package dev.portico.proxy.server;

import dev.portico.proxy.core.ClientConnection;
import dev.portico.proxy.core.ClientTls;
import dev.portico.proxy.core.CompiledVhost;
import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.LoopState;
import dev.portico.proxy.core.RequestObserver;
import dev.portico.proxy.core.RequestTarget;
import dev.portico.proxy.core.StatsRegistry;
import dev.portico.proxy.core.outcome.LocalReason;
import dev.portico.proxy.route.RoutingSnapshot;
import dev.portico.proxy.route.SnapshotHolder;
import io.netty.util.NetUtil;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.SocketAddress;

import java.util.List;

/**
 * The pipeline's entry on one event loop, the same for every listener: opens the {@link Exchange}, resolves the
 * target, refuses loops, finds the vhost in the current snapshot and hands over to its pipeline; accounts the request
 * when it ends. The listener's {@link ListenerServing} calls it for each request its protocol read.
 */
final class ProxyRequestHandler {

    private static final CharSequence VIA = HttpHeaders.createOptimized("Via");
    private static final CharSequence RETRY_AFTER = HttpHeaders.createOptimized("Retry-After");

    private final SnapshotHolder snapshots;
    private final LoopState loop;
    private final SnapshotAdoption adoption;
    private final StatsRegistry stats;
    private final RequestObserver[] observers;
    private final int maxInFlight;

    /**
     * @param maxInFlight requests in flight on the instance past which a request is refused ({@code overloaded});
     *                    0 for no limit
     */
    ProxyRequestHandler(SnapshotHolder snapshots, LoopState loop, SnapshotAdoption adoption, StatsRegistry stats,
                        RequestObserver[] observers, int maxInFlight) {
        this.maxInFlight = maxInFlight;
        this.snapshots = snapshots;
        this.loop = loop;
        this.adoption = adoption;
        this.stats = stats;
        this.observers = observers;
    }

    /** The snapshot a request arriving now is served by. */
    RoutingSnapshot snapshot() {
        return snapshots.current();
    }

    /**
     * Opens the exchange of a request that just arrived, and holds its body back until a stage reads it. The
     * listener's serving pairs it with its connection before {@link #route} runs.
     */
    Exchange open(HttpServerRequest request, RoutingSnapshot snapshot) {
        long start = System.nanoTime();
        request.pause();
        String client = canonicalAddress(request.remoteAddress());
        Exchange exchange = new Exchange(request, loop, start,
                RequestId.acceptOrGenerate(request.getHeader(Exchange.REQUEST_ID_HEADER)), client,
                snapshot.trustedProxies().contains(client), this::account);
        loop.requestStarted();
        adoption.adopt(snapshot);
        return exchange;
    }

    /** Resolves the target, refuses loops, finds the vhost in {@code snapshot} and hands over to its pipeline. */
    void route(Exchange exchange, RoutingSnapshot snapshot) {
        HttpServerRequest request = exchange.request();
        HttpMethod method = request.method();
        if (method == HttpMethod.CONNECT || method == HttpMethod.TRACE) {
            exchange.unroutedStages(snapshot.fallbackStages());
            exchange.response().headers().set("Allow", Exchange.FORWARDED_METHODS);
            exchange.replyLocal(LocalReason.METHOD_NOT_ALLOWED, method.name() + " is not proxied");
            return;
        }
        RequestTarget target;
        try {
            target = RequestTarget.parse(request);
        } catch (RequestTarget.Invalid invalid) {
            exchange.unroutedStages(snapshot.fallbackStages());
            exchange.replyLocal(invalid.reason(), invalid.getMessage());
            return;
        }
        exchange.target(target);
        if (hasLooped(request, snapshot.viaPseudonym())) {
            exchange.unroutedStages(snapshot.fallbackStages());
            exchange.replyLocal(LocalReason.LOOP_DETECTED, "The request has already passed through this proxy");
            return;
        }
        CompiledVhost vhost = snapshot.route(target.hostname());
        if (vhost == null) {
            exchange.unroutedStages(snapshot.fallbackStages());
            exchange.replyLocal(LocalReason.VHOST_NOT_FOUND, "No vhost serves this host");
            return;
        }
        if (isMisdirected(exchange, vhost, snapshot)) {
            exchange.unroutedStages(snapshot.fallbackStages());
            exchange.replyLocal(LocalReason.MISDIRECTED_REQUEST,
                    "The Host is not served by the vhost this TLS connection's server name (SNI) chose");
            return;
        }
        if (!vhost.enabled()) {
            exchange.refusedBy(vhost);
            exchange.unroutedStages(snapshot.fallbackStages());
            exchange.replyLocal(LocalReason.VHOST_DISABLED, "No vhost serves this host");
            return;
        }
        if (maxInFlight > 0 && loop.inFlightEverywhere() > maxInFlight) {
            // Counted under the vhost, but answered before any of its stages: shedding load must stay cheap.
            exchange.refusedBy(vhost);
            exchange.unroutedStages(snapshot.fallbackStages());
            exchange.response().headers().set(RETRY_AFTER, "1");
            exchange.replyLocal(LocalReason.OVERLOADED, "Portico has " + maxInFlight
                    + " requests in flight, its limit; try again shortly");
            return;
        }
        exchange.route(vhost);
    }

    /**
     * Whether the request's vhost differs from the one the connection's server name routes to: vhosts are compared,
     * not names, so {@code x.a.test} and {@code y.a.test} under one {@code *.a.test} vhost share a connection (as in
     * nginx and Envoy). A connection without a server name, or with one no vhost serves, got the default certificate,
     * which chose no vhost: it is not refused. The server name's vhost is looked up once per connection and snapshot.
     */
    private static boolean isMisdirected(Exchange exchange, CompiledVhost vhost, RoutingSnapshot snapshot) {
        ClientConnection connection = exchange.connection();
        ClientTls tls = connection == null ? null : connection.tls();
        if (tls == null || tls.serverName() == null) {
            return false;
        }
        if (!tls.routedIn(snapshot)) {
            tls.routed(snapshot, snapshot.route(tls.serverName()));
        }
        CompiledVhost named = tls.serverNameVhost();
        return named != null && named != vhost;
    }

    private void account(Exchange exchange) {
        loop.requestEnded();
        CompiledVhost vhost = exchange.vhost();
        // A tunnel's life is in its own series; the request's latency runs to its 101.
        long latencyNanos = exchange.handshakeNanos() >= 0 ? exchange.handshakeNanos() : exchange.durationNanos();
        (vhost == null ? stats.unmatched() : vhost.stats()).slot(loop.index()).completed(exchange.status(),
                exchange.reason(), exchange.bytesIn(), exchange.bytesOut(), latencyNanos,
                exchange.upstream().nanos(), exchange.cacheOutcome());
        for (RequestObserver observer : observers) {
            try {
                observer.completed(exchange);
            } catch (RuntimeException e) {
                loop.logInternalError(exchange, e);
            }
        }
    }

    /** RFC 9110 section 7.6.3: a request carrying our own pseudonym in {@code Via} came back to us. */
    static boolean hasLooped(HttpServerRequest request, String pseudonym) {
        if (request.headers().get(VIA) == null) {
            return false;
        }
        List<String> vias = request.headers().getAll(VIA);
        for (String via : vias) {
            int at = via.indexOf(pseudonym);
            while (at >= 0) {
                int end = at + pseudonym.length();
                boolean startOk = at > 0 && via.charAt(at - 1) == ' ';
                boolean endOk = end == via.length() || via.charAt(end) == ',' || via.charAt(end) == ' ';
                if (startOk && endOk) {
                    return true;
                }
                at = via.indexOf(pseudonym, at + 1);
            }
        }
        return false;
    }

    /** IPv6 in RFC 5952 form, as logs and {@code X-Forwarded-For} consumers expect. */
    static String canonicalAddress(SocketAddress address) {
        if (address == null) {
            return "unknown";
        }
        String host = address.hostAddress();
        if (host == null) {
            return "unknown";
        }
        if (host.indexOf(':') < 0) {
            return host;
        }
        int zone = host.indexOf('%');
        if (zone >= 0) {
            host = host.substring(0, zone);
        }
        byte[] bytes = NetUtil.createByteArrayFromIpAddressString(host);
        return bytes == null ? host : NetUtil.bytesToIpAddress(bytes);
    }
}
