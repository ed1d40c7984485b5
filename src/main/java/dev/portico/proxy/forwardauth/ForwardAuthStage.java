package dev.portico.proxy.forwardauth;

import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.Stage;
import dev.portico.proxy.core.StageFactory;
import dev.portico.vhost.ForwardAuthSpec;
import io.vertx.core.MultiMap;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A vhost's or route's {@code forwardAuth} (nginx {@code auth_request}, Caddy {@code forward_auth}, Traefik's
 * ForwardAuth): each request waits, off the event loop's back, for an auth service's verdict before anything
 * reads, serves or forwards it. The service gets a GET without body (as Caddy and Traefik send it: a POST's headers
 * without its body would be a malformed POST) carrying the original method, URI, host, scheme and client in
 * {@code X-Forwarded-*} and the client fields it is configured to see. Its 2xx lets the request through with the
 * chosen answer fields copied on; its 401, 403 or redirect to a login page is relayed to the client; anything else
 * fails closed (502, or 504 past the timeout). The client's own copies of the copied fields are removed whatever the
 * verdict, so a client can never present itself as {@code X-User: admin}.
 */
public final class ForwardAuthStage implements Stage {

    private final AuthRequestTarget target;
    private final List<String> copyHeaders;
    private final List<String> requestHeaders;
    private final long timeoutMillis;
    private final AuthServiceClient service;

    private ForwardAuthStage(ForwardAuthSpec spec, AuthServiceClient service) {
        this.target = AuthRequestTarget.of(spec.url());
        this.copyHeaders = spec.copyHeaders();
        this.requestHeaders = spec.requestHeaders();
        this.timeoutMillis = Math.max(1, spec.timeout().toMillis());
        this.service = service;
    }

    /** No stage for a vhost (or route) without forward auth; the client and cache outlive snapshots. */
    public static final StageFactory FACTORY = context -> {
        ForwardAuthSpec spec = context.spec().forwardAuth();
        return spec == null ? null : new ForwardAuthStage(spec,
                context.runtime().claim(AuthServiceClient.KEY, spec, () -> new AuthServiceClient(spec)));
    };

    @Override
    public Flow onRequest(Exchange exchange) {
        MultiMap headers = exchange.request().headers();
        for (String name : copyHeaders) {
            headers.remove(name);
        }
        List<Map.Entry<String, String>> sent = sentFields(exchange);
        DecisionCache decisions = service.decisions();
        String key = decisions.enabled() ? DecisionCache.key(sent) : null;
        if (key != null) {
            DecisionCache.Allowed allowed = decisions.find(key, System.nanoTime());
            if (allowed != null) {
                allowed.copied().forEach(field -> headers.add(field.getKey(), field.getValue()));
                return Flow.NEXT;
            }
        }
        new AuthCall(exchange, copyHeaders, key == null ? null : copied -> decisions.keep(key, copied,
                System.nanoTime())).start(service.client(exchange.loop().context().owner()), target, sent,
                timeoutMillis);
        return Flow.TAKEN;
    }

    /** What the auth service is told: the chosen client fields, then where the request came from and went to. */
    private List<Map.Entry<String, String>> sentFields(Exchange exchange) {
        MultiMap client = exchange.request().headers();
        List<Map.Entry<String, String>> sent = new ArrayList<>(requestHeaders.size() + 5);
        for (String name : requestHeaders) {
            for (String value : client.getAll(name)) {
                sent.add(Map.entry(name, value));
            }
        }
        sent.add(Map.entry("X-Forwarded-Method", exchange.request().method().name()));
        sent.add(Map.entry("X-Forwarded-Proto", exchange.request().scheme()));
        sent.add(Map.entry("X-Forwarded-Host", exchange.target().authority()));
        sent.add(Map.entry("X-Forwarded-Uri", exchange.target().pathAndQuery()));
        sent.add(Map.entry("X-Forwarded-For", forwardedFor(exchange)));
        return sent;
    }

    /** A trusted proxy's chain is kept and extended, as the upstream request's is; anyone else's is replaced. */
    private static String forwardedFor(Exchange exchange) {
        List<String> chain = exchange.peerTrusted() ? exchange.request().headers().getAll("X-Forwarded-For")
                : List.of();
        return chain.isEmpty() ? exchange.clientAddress()
                : String.join(", ", chain) + ", " + exchange.clientAddress();
    }
}
