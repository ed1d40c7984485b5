package dev.portico.proxy.core;

import dev.portico.cache.ResponseStore;
import dev.portico.http.coding.CompressionPolicy;
import dev.portico.vhost.RouteSpec;
import dev.portico.vhost.VhostSpec;

/**
 * What a {@link StageFactory} may use while one vhost is compiled. Factories run from the innermost stage outwards,
 * so a stage can be given the ones inside it ({@link #built}), as the cache is given the forwarder its background
 * refreshes go through.
 */
public interface StageContext {

    /** The settings of the pipeline being built: the vhost's, or for a route's pipeline the route's. */
    VhostSpec spec();

    /** The route whose pipeline is being built, or null for the vhost's own. */
    RouteSpec route();

    /** The vhost's state across snapshots: claim what outlives a publish here, never keep it in the stage. */
    VhostRuntime runtime();

    /** Whether the vhost has upstreams. */
    boolean proxied();

    /** How the vhost compresses responses, or null. */
    CompressionPolicy compression();

    /** The request body limit in bytes after the global default applied; 0 for none. */
    long maxRequestBody();

    /** The vhost's response store, or null when it has no cache (or this is a dry run, which binds none). */
    ResponseStore store();

    /** The live ACME HTTP-01 challenges (key authorization by token) of this snapshot. */
    java.util.Map<String, String> acmeChallenges();

    /** The stage of this type built for this vhost so far (an inner one), or null. */
    <T extends Stage> T built(Class<T> type);
}
