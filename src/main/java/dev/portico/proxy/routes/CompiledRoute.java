package dev.portico.proxy.routes;

import dev.portico.proxy.core.Stage;
import dev.portico.vhost.RouteSpec;
import io.vertx.core.MultiMap;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One route ready to serve: its conditions compiled and its own stage list (the vhost's pipeline built again with
 * the route's settings). Immutable, shared by every event loop.
 */
final class CompiledRoute {

    private final int index;
    private final RouteSpec spec;
    private final PathPattern path;
    private final Set<String> methods;
    private final List<Map.Entry<String, String>> headers;
    private final List<Map.Entry<String, String>> query;
    private final Stage[] stages;

    CompiledRoute(int index, RouteSpec spec, Stage[] stages) {
        this.index = index;
        this.spec = spec;
        this.stages = stages;
        RouteSpec.Match match = spec.match();
        this.path = PathPattern.compile(match.path(), match.pathRegex(), match.caseSensitive());
        this.methods = Set.copyOf(match.methods());
        this.headers = List.copyOf(match.headers().entrySet());
        this.query = List.copyOf(match.query().entrySet());
    }

    int index() {
        return index;
    }

    RouteSpec spec() {
        return spec;
    }

    PathPattern path() {
        return path;
    }

    Stage[] stages() {
        return stages;
    }

    /** The route's capture ({@code $path}) when it takes the request, else null. */
    String take(String method, MultiMap requestHeaders, RequestPath requestPath) {
        if (!methods.isEmpty() && !methods.contains(method)) {
            return null;
        }
        for (Map.Entry<String, String> header : headers) {
            String value = requestHeaders.get(header.getKey());
            if (value == null || !(header.getValue().equals("*") || header.getValue().equals(value))) {
                return null;
            }
        }
        for (Map.Entry<String, String> parameter : query) {
            String value = QueryParameters.first(requestPath.query(), parameter.getKey());
            if (value == null || !(parameter.getValue().equals("*") || parameter.getValue().equals(value))) {
                return null;
            }
        }
        return path.match(requestPath);
    }
}
