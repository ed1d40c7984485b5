package dev.portico.proxy.core;

/**
 * Builds one kind of stage for a vhost when a snapshot is compiled (Caddy-style: the chain is built once, not per
 * request). A stage is its folder, its factory and one line in the registry of factories
 * ({@code proxy.route.StageRegistry}), which fixes the stage's place in the pipeline.
 */
@FunctionalInterface
public interface StageFactory {

    /** The stage for the vhost being compiled, or null when the vhost does not use it. */
    Stage create(StageContext context);
}
