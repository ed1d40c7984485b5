package dev.portico.vhost;

import java.util.Set;

/**
 * A vhost's or route's custom error pages.
 *
 * @param html the page for clients that prefer HTML, or null to keep the default for them
 * @param json the document for the others, or null to keep the default for them
 * @param statuses the statuses whose replies get a page; empty for every 4xx and 5xx
 * @param upstreamErrors whether an upstream's own 5xx gets the page too (its body replaced, its status kept)
 */
public record ErrorPagesSpec(ErrorPageTemplate html, ErrorPageTemplate json, Set<Integer> statuses,
                             boolean upstreamErrors) {

    public static final ErrorPagesSpec NONE = new ErrorPagesSpec(null, null, Set.of(), false);

    public ErrorPagesSpec {
        statuses = Set.copyOf(statuses);
    }

    public boolean isEmpty() {
        return html == null && json == null;
    }

    /** Whether a reply with {@code status} gets a page (when the client's preference has one). */
    public boolean covers(int status) {
        return status >= 400 && status <= 599 && (statuses.isEmpty() || statuses.contains(status));
    }
}
