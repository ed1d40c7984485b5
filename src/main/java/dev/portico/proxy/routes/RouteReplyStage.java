package dev.portico.proxy.routes;

import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.Stage;
import dev.portico.proxy.core.StageFactory;
import dev.portico.proxy.core.outcome.LocalReason;
import dev.portico.vhost.RouteSpec;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;

import java.nio.charset.StandardCharsets;

/**
 * A route that Portico answers itself: a redirect ({@code /old/*} to {@code /new/$path}, nginx's {@code return 308},
 * Caddy's {@code redir}) or a fixed response ({@code /healthz}: nginx's {@code return 200 "fine"}, Caddy's
 * {@code respond}). It runs after the route's policies, so an IP rule or a password guards it like anything else.
 */
public final class RouteReplyStage implements Stage {

    /** Only in the pipeline of a route that redirects or responds. */
    public static final StageFactory FACTORY = context -> {
        RouteSpec route = context.route();
        return route == null || route.redirect() == null && route.respond() == null ? null
                : new RouteReplyStage(route.redirect(), route.respond());
    };

    private final RouteSpec.Redirect redirect;
    private final RouteSpec.Respond respond;
    private final Buffer body;

    private RouteReplyStage(RouteSpec.Redirect redirect, RouteSpec.Respond respond) {
        this.redirect = redirect;
        this.respond = respond;
        this.body = respond == null ? null : Buffer.buffer(respond.body().getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public Flow onRequest(Exchange exchange) {
        if (redirect != null) {
            exchange.response().headers().set(HttpHeaders.LOCATION, location(exchange));
            exchange.replyFixed(LocalReason.ROUTE_REDIRECT, redirect.status(), null, null);
        } else {
            // A copy: a buffer written to a connection is not to be shared between requests.
            exchange.replyFixed(LocalReason.ROUTE_RESPONSE, respond.status(),
                    body.length() == 0 ? null : respond.contentType(), body.copy());
        }
        return Flow.TAKEN;
    }

    /**
     * The target with its placeholders filled in: {@code $host} (the request's host name), {@code $path} (what the
     * pattern's last {@code *} matched, percent-encoded again), {@code $query} (as received; {@code ?$query} with no
     * query is left out whole).
     */
    private String location(Exchange exchange) {
        MatchedRoute matched = exchange.get(MatchedRoute.SLOT);
        String query = matched == null ? null : matched.path().query();
        String text = redirect.location();
        if (query == null || query.isEmpty()) {
            text = text.replace("?$query", "");
        }
        // One pass, so a value that holds a placeholder's name is never expanded again.
        StringBuilder out = new StringBuilder(text.length() + 32);
        for (int i = 0; i < text.length(); i++) {
            String value = text.charAt(i) != '$' ? null
                    : text.startsWith("host", i + 1) ? exchange.target().hostname()
                    : text.startsWith("path", i + 1) ? (matched == null ? "" : PathText.encode(matched.capture()))
                    : text.startsWith("query", i + 1) ? (query == null ? "" : query)
                    : null;
            if (value == null) {
                out.append(text.charAt(i));
            } else {
                out.append(value);
                i += text.startsWith("query", i + 1) ? 5 : 4;
            }
        }
        return out.toString();
    }
}
