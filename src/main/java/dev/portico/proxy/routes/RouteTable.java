package dev.portico.proxy.routes;

import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.RouteSelector;
import dev.portico.proxy.core.Stage;
import dev.portico.proxy.core.outcome.LocalReason;
import dev.portico.vhost.RouteSpec;
import io.vertx.core.MultiMap;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * A vhost's routes, indexed by the literal segments their path patterns start with (a trie), so a request looks at
 * the few routes on its path's branch instead of trying every route: a hundred prefix routes cost a walk of the
 * path's depth. First match wins: among the routes that take the request, the one listed first serves it.
 */
public final class RouteTable implements RouteSelector {

    private static final class Node {
        final Map<String, Node> children = new HashMap<>();
        final List<CompiledRoute> routes = new ArrayList<>(1);
    }

    private final Node root = new Node();

    /**
     * @param routes the vhost's routes, in order
     * @param pipelines builds a route's stage list from its settings (the compiler's job)
     */
    public static RouteTable of(List<RouteSpec> routes, Function<RouteSpec, Stage[]> pipelines) {
        List<CompiledRoute> compiled = new ArrayList<>(routes.size());
        for (int i = 0; i < routes.size(); i++) {
            compiled.add(new CompiledRoute(i, routes.get(i), pipelines.apply(routes.get(i))));
        }
        return new RouteTable(compiled);
    }

    private RouteTable(List<CompiledRoute> routes) {
        for (CompiledRoute route : routes) {
            Node node = root;
            for (String segment : route.path().literalSegments()) {
                // Keys ignore case; a case-sensitive pattern compares case itself when it is tried.
                node = node.children.computeIfAbsent(segment.toLowerCase(Locale.ROOT), s -> new Node());
            }
            // Routes arrive in their order, so each node's list is in it too: the walk stops at the first taker.
            node.routes.add(route);
        }
    }

    @Override
    public Stage[] select(Exchange exchange, Stage[] fallback) {
        MatchedRoute matched;
        try {
            matched = match(exchange.request().method().name(), exchange.request().headers(),
                    exchange.target().pathAndQuery());
        } catch (RequestPath.Invalid e) {
            exchange.replyLocal(LocalReason.BAD_REQUEST, "The request path cannot be routed: " + e.getMessage());
            return null;
        }
        if (matched == null) {
            return fallback;
        }
        exchange.put(MatchedRoute.SLOT, matched);
        return matched.route().stages();
    }

    /**
     * The name of the route that took {@code exchange}, or null when none did (a vhost without routes, or a request
     * that fell through to the vhost's own settings): for the access log.
     */
    public static String takenBy(Exchange exchange) {
        MatchedRoute matched = exchange.get(MatchedRoute.SLOT);
        return matched == null ? null : matched.route().spec().name();
    }

    /** The first route that takes the request, or null. */
    MatchedRoute match(String method, MultiMap headers, String pathAndQuery) throws RequestPath.Invalid {
        RequestPath path = RequestPath.parse(pathAndQuery);
        if (path == null) {
            return null;
        }
        CompiledRoute best = null;
        String capture = null;
        List<String> segments = path.segments();
        Node node = root;
        for (int depth = 0; node != null; depth++) {
            for (CompiledRoute route : node.routes) {
                if (best != null && route.index() > best.index()) {
                    break;
                }
                String taken = route.take(method, headers, path);
                if (taken != null) {
                    best = route;
                    capture = taken;
                    break;
                }
            }
            if (depth == segments.size()) {
                break;
            }
            node = node.children.get(segments.get(depth).toLowerCase(Locale.ROOT));
        }
        return best == null ? null : new MatchedRoute(best, path, capture);
    }
}
