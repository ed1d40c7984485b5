package dev.portico.proxy.core;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;

import java.util.function.Predicate;

/**
 * A GET that Portico makes by itself on behalf of a client's request (the parent) from one stage of the vhost's
 * pipeline, through the stages inside it, like nginx's subrequests: a cache refreshing a stale response in the
 * background goes through the forwarding headers, the request header rules, the compressor and the forwarder as a
 * client's request would, with its own header fields, so the parent is never touched. No client waits on it; its
 * body is collected in memory up to {@link #maxBody()}.
 *
 * @param parent the client's request it is made for: its connection, target and trust
 * @param pathAndQuery the origin-form target asked for: the parent's, unless a stage rewrote it (a route's rewrite)
 * @param headers the sub-request's own header fields, which the stages edit
 * @param maxBody the largest body collected; a larger one is discarded
 * @param keeps whether the maker keeps a response's body (a cache stores it): stages that would transform the body
 *     (a compressor) leave one that is thrown away alone
 */
public record SubRequest(Exchange parent, String pathAndQuery, MultiMap headers, long maxBody,
                         Predicate<SubResponse> keeps) {

    /** This sub-request asking for {@code target} instead. */
    public SubRequest withPathAndQuery(String target) {
        return new SubRequest(parent, target, headers, maxBody, keeps);
    }

    /** Whether the maker keeps {@code response}'s body. */
    public boolean keeps(SubResponse response) {
        return keeps.test(response);
    }

    /** The rest of the pipeline, from the stage after the current one. */
    public interface Next {

        /** Hands the sub-request to the next stage; the last one (the forwarder) answers it. */
        Future<SubResponse> proceed(SubRequest request);
    }
}
