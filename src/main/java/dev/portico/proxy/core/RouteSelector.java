package dev.portico.proxy.core;

/**
 * Chooses, among a vhost's routes, the one that serves a request (its stage list, compiled like a vhost's). Built
 * once per snapshot and shared by every event loop; runs on the request's loop and must not block.
 */
public interface RouteSelector {

    /**
     * @return the stages of the first route that takes the request, or {@code fallback} (the vhost's own) when none
     *     does; null when the request's path has no safe reading and the selector has answered it (400)
     */
    Stage[] select(Exchange exchange, Stage[] fallback);
}
