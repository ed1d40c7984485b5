package dev.portico.control.replicas;

import dev.portico.control.snapshot.SnapshotReloader;
import jakarta.inject.Singleton;

/** {@code portico_config}: another replica committed a configuration change; the payload is its version. */
@Singleton
public class ConfigChannel implements ReplicaChannel {

    /** The NOTIFY channel; the payload is the new configuration version. */
    public static final String NAME = "portico_config";

    private final SnapshotReloader reloader;

    public ConfigChannel(SnapshotReloader reloader) {
        this.reloader = reloader;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void onNotification(String payload) {
        reloader.reloadAtLeast(version(payload));
    }

    @Override
    public void onReconnected() {
        reloader.reload();
    }

    private static long version(String payload) {
        try {
            return Long.parseLong(payload);
        } catch (NumberFormatException e) {
            return Long.MAX_VALUE;
        }
    }
}
