package dev.portico.proxy.route;

import dev.portico.cache.ResponseStore;
import dev.portico.http.coding.CompressionPolicy;
import dev.portico.proxy.core.Stage;
import dev.portico.proxy.core.StageContext;
import dev.portico.proxy.core.StageFactory;
import dev.portico.proxy.core.VhostRuntime;
import dev.portico.vhost.RouteSpec;
import dev.portico.vhost.VhostSpec;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The compile of one vhost's pipeline: what its stage factories see, and the stages they built. */
final class Compilation implements StageContext {

    private final VhostSpec spec;
    private final RouteSpec route;
    private final VhostRuntime runtime;
    private final boolean proxied;
    private final CompressionPolicy compression;
    private final long maxRequestBody;
    private final ResponseStore store;
    private final Map<String, String> acmeChallenges;
    private final Map<Class<?>, Stage> built = new HashMap<>();

    /** @param route the route whose pipeline this is (its settings are {@code spec}), or null for the vhost's */
    Compilation(VhostSpec spec, RouteSpec route, VhostRuntime runtime, boolean proxied, CompressionPolicy compression,
                long maxRequestBody, ResponseStore store, Map<String, String> acmeChallenges) {
        this.acmeChallenges = acmeChallenges;
        this.spec = spec;
        this.route = route;
        this.runtime = runtime;
        this.proxied = proxied;
        this.compression = compression;
        this.maxRequestBody = maxRequestBody;
        this.store = store;
    }

    /** Runs the factories from the innermost outwards and returns the stages in pipeline order. */
    Stage[] pipeline(List<StageFactory> factories) {
        List<Stage> stages = new ArrayList<>(factories.size());
        for (int i = factories.size() - 1; i >= 0; i--) {
            Stage stage = factories.get(i).create(this);
            if (stage != null) {
                built.put(stage.getClass(), stage);
                stages.add(stage);
            }
        }
        Collections.reverse(stages);
        return stages.toArray(new Stage[0]);
    }

    @Override
    public VhostSpec spec() {
        return spec;
    }

    @Override
    public RouteSpec route() {
        return route;
    }

    @Override
    public VhostRuntime runtime() {
        return runtime;
    }

    @Override
    public boolean proxied() {
        return proxied;
    }

    @Override
    public CompressionPolicy compression() {
        return compression;
    }

    @Override
    public long maxRequestBody() {
        return maxRequestBody;
    }

    @Override
    public Map<String, String> acmeChallenges() {
        return acmeChallenges;
    }

    @Override
    public ResponseStore store() {
        return store;
    }

    @Override
    public <T extends Stage> T built(Class<T> type) {
        return type.cast(built.get(type));
    }
}
