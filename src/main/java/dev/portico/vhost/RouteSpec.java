package dev.portico.vhost;

import java.util.List;
import java.util.Map;

/**
 * One of a vhost's {@code routes}, validated: what requests it takes, what it does with their path, and the settings
 * it serves them with. Routes are tried in order and the first whose every condition holds takes the request; a
 * request no route takes is served by the vhost's own settings.
 *
 * @param name the route's name (given, or {@code route-N} by its position): the access log's and the stats' label
 * @param match which requests the route takes
 * @param rewrite how the path sent upstream (or looked up under the static root) is changed, or null
 * @param redirect the redirect Portico answers with, or null
 * @param respond the fixed response Portico answers with, or null
 * @param spec the settings the route's requests are served with: the vhost's, with the route's own overrides
 */
public record RouteSpec(String name, Match match, Rewrite rewrite, Redirect redirect, Respond respond, VhostSpec spec) {

    /**
     * Conditions on the request, all of which must hold.
     *
     * @param path the path pattern: {@code /exact}, {@code /prefix/*} (the prefix itself and everything below it),
     *     or a glob whose {@code *} matches within one segment ({@code /files/*.pdf}); null for any path
     * @param pathRegex an RE2 expression the whole path must match, or null
     * @param methods the methods taken (upper case); empty for any
     * @param headers request header values required, by name (lower case); {@code *} for present with any value
     * @param query query parameter values required, by name; {@code *} for present with any value
     * @param caseSensitive whether the path pattern compares case (off by default, so {@code /ADMIN} cannot pass a
     *     route that guards {@code /admin/*} on the way to a case-insensitive origin)
     */
    public record Match(String path, String pathRegex, List<String> methods, Map<String, String> headers,
                        Map<String, String> query, boolean caseSensitive) {

        public Match {
            methods = methods == null ? List.of() : List.copyOf(methods);
            headers = headers == null ? Map.of() : Map.copyOf(headers);
            query = query == null ? Map.of() : Map.copyOf(query);
        }
    }

    /**
     * The path changes, applied in this order to the normalised path.
     *
     * @param stripPrefix a leading part removed ({@code /api}: {@code /api/x} becomes {@code /x}), or null
     * @param addPrefix a part put in front ({@code /v2}), or null; with stripPrefix it replaces one prefix by another
     * @param regex an RE2 expression matched against the whole path, or null
     * @param replacement what a path {@code regex} matches becomes; {@code $1}... are its groups
     */
    public record Rewrite(String stripPrefix, String addPrefix, String regex, String replacement) {
    }

    /**
     * @param status 301, 302, 303, 307 or 308
     * @param location the target; {@code $host}, {@code $path} (the part the pattern's last {@code *} matched),
     *     {@code $uri} (the whole path) and {@code $query} (the query without {@code ?}) are replaced
     */
    public record Redirect(int status, String location) {
    }

    /** A fixed answer: status, body (may be empty) and its content type. */
    public record Respond(int status, String body, String contentType) {
    }
}
