package dev.portico.control.api.error;

import io.quarkus.arc.Arc;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Path;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The methods each API path takes, read once from the resources' JAX-RS annotations, for the {@code Allow} field
 * RFC 9110 section 15.5.6 requires on a 405 (the framework's own 405 does not carry one). A resource added later
 * is found the same way: every bean with {@code @Path} is read.
 */
final class AllowedMethods {

    private record Route(Pattern path, String allow) {
    }

    private static volatile List<Route> routes;

    private AllowedMethods() {
    }

    /** The {@code Allow} value for a request path, or null when no resource path matches it. */
    static String of(String requestPath) {
        for (Route route : routes()) {
            if (route.path().matcher(requestPath).matches()) {
                return route.allow();
            }
        }
        return null;
    }

    private static List<Route> routes() {
        List<Route> read = routes;
        if (read == null) {
            read = read();
            routes = read;
        }
        return read;
    }

    private static List<Route> read() {
        Map<String, TreeSet<String>> methods = new TreeMap<>();
        for (Bean<?> bean : Arc.container().beanManager().getBeans(Object.class, Any.Literal.INSTANCE)) {
            Class<?> type = bean.getBeanClass();
            Path root = type.getAnnotation(Path.class);
            if (root == null) {
                continue;
            }
            for (Method method : type.getMethods()) {
                String verb = verbOf(method);
                if (verb != null) {
                    Path sub = method.getAnnotation(Path.class);
                    String path = join(root.value(), sub == null ? "" : sub.value());
                    TreeSet<String> verbs = methods.computeIfAbsent(path, p -> new TreeSet<>());
                    verbs.add(verb);
                    if (verb.equals(HttpMethod.GET)) {
                        // JAX-RS answers HEAD with the GET method.
                        verbs.add(HttpMethod.HEAD);
                    }
                }
            }
        }
        List<Route> out = new ArrayList<>();
        methods.forEach((path, verbs) -> out.add(new Route(template(path), String.join(", ", verbs))));
        return List.copyOf(out);
    }

    private static String verbOf(Method method) {
        for (Annotation annotation : method.getAnnotations()) {
            HttpMethod verb = annotation.annotationType().getAnnotation(HttpMethod.class);
            if (verb != null) {
                return verb.value();
            }
        }
        return null;
    }

    private static String join(String root, String sub) {
        String path = "/" + trimSlashes(root) + (sub.isEmpty() ? "" : "/" + trimSlashes(sub));
        return path.equals("/") ? path : path.replaceAll("/+$", "");
    }

    private static String trimSlashes(String part) {
        return part.replaceAll("^/+|/+$", "");
    }

    /** A path template ({@code /api/v1/vhosts/{id}}) as a pattern: each parameter is one segment. */
    private static Pattern template(String path) {
        StringBuilder regex = new StringBuilder();
        for (String piece : path.split("\\{[^}]*}", -1)) {
            if (regex.length() > 0 || path.startsWith("{")) {
                regex.append("[^/]+");
            }
            regex.append(Pattern.quote(piece));
        }
        return Pattern.compile(regex + "/?");
    }
}
