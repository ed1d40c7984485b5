package dev.portico.control.web;

import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.MultiMap;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

/**
 * Security headers on every response of the management port ({@code quarkus.http}: the API, the dashboard's files and
 * the WebJars). Health and metrics are on the management interface ({@code quarkus.management}, port 9000), whose
 * router these filters do not reach; the data plane is a server of its own.
 * <p>
 * Set when the response head is written, so they win over what a handler set (the static handler's caching).
 * <ul>
 *   <li>Pages and files: a strict Content-Security-Policy (only this origin's scripts and styles, no inline code, no
 *       framing, no plugins), {@code X-Frame-Options: DENY} for browsers without {@code frame-ancestors}, no
 *       sniffing, no referrer. {@code index.html} is never stored, so an upgrade is seen at the next load; the UI's
 *       files and WebJars (served under version-less paths) are revalidated each time.</li>
 *   <li>API answers are data, never documents: {@code default-src 'none'}, and {@code no-store} unless the resource
 *       said otherwise, since cookie-authenticated answers would otherwise sit in the browser's cache.</li>
 * </ul>
 */
@Singleton
public class SecurityHeaders {

    /** The dashboard's policy: see the class comment. {@code data:} images are what uPlot's legend markers use. */
    public static final String PAGE_POLICY = "default-src 'self'; script-src 'self'; style-src 'self'; "
            + "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
            + "frame-ancestors 'none'; form-action 'self'";
    /** For API answers: nothing may load, nothing may frame them. */
    public static final String API_POLICY = "default-src 'none'; frame-ancestors 'none'";

    /** Before Quarkus' own handlers (higher runs first), so even its early answers carry the headers. */
    private static final int PRIORITY = 1000;

    void register(@Observes Filters filters) {
        filters.register(this::addHeaders, PRIORITY);
    }

    private void addHeaders(RoutingContext context) {
        String path = context.normalizedPath();
        context.addHeadersEndHandler(ignored -> {
            MultiMap headers = context.response().headers();
            headers.set("X-Content-Type-Options", "nosniff");
            headers.set("X-Frame-Options", "DENY");
            headers.set("Referrer-Policy", "no-referrer");
            if (path.startsWith("/api/") || path.equals("/api")) {
                headers.set("Content-Security-Policy", API_POLICY);
                if (!headers.contains("Cache-Control")) {
                    headers.set("Cache-Control", "no-store");
                }
                return;
            }
            headers.set("Content-Security-Policy", PAGE_POLICY);
            if (path.equals("/") || path.equals("/index.html")) {
                headers.set("Cache-Control", "no-store");
            } else if (path.startsWith("/ui/") || path.startsWith("/webjars/")) {
                headers.set("Cache-Control", "no-cache");
            }
        });
        context.next();
    }
}
