package dev.portico.vhost;

import java.time.Duration;
import java.util.List;

/**
 * A vhost's or route's forward auth: every request is first put to an auth service, which lets it through (2xx) or
 * answers for it (401, 403, a redirect to a login page). Value equality: the stage's decision cache is kept across
 * snapshots while these settings stay the same.
 *
 * @param url the auth service's absolute {@code http} or {@code https} URL, asked with GET
 * @param copyHeaders the auth service's response fields copied onto the upstream request on a 2xx (and always
 *     removed from the client's request, so a client cannot forge them)
 * @param requestHeaders the client's request fields sent on to the auth service
 * @param timeout the longest the whole auth call may take, connection included
 * @param cacheFor how long an allowing decision is reused for an identical auth request; zero for never
 */
public record ForwardAuthSpec(String url, List<String> copyHeaders, List<String> requestHeaders, Duration timeout,
                              Duration cacheFor) {

    public ForwardAuthSpec {
        copyHeaders = List.copyOf(copyHeaders);
        requestHeaders = List.copyOf(requestHeaders);
    }
}
