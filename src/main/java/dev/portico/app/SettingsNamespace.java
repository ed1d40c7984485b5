package dev.portico.app;

import io.quarkus.runtime.StartupEvent;
import io.quarkus.runtime.configuration.ConfigurationException;
import io.smallrye.config.EnvConfigSource;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.config.spi.ConfigSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Refuses to start with a {@code portico.*} setting outside the known groups. Each feature maps its own group
 * ({@code portico.dataplane}, {@code portico.access-log}, ...), and the configuration library rejects a misspelt
 * key inside a group; a misspelt group ({@code portico.dataplan.port}) would otherwise be ignored without a word, and
 * Portico would run with a default the operator thinks they changed.
 */
@Singleton
public class SettingsNamespace {

    /** The groups under {@code portico.}, one per feature's settings interface. */
    static final Set<String> GROUPS = Set.of("dataplane", "admin", "upstream", "reload", "analytics", "access-log",
            "cache");
    private static final String PREFIX = "portico.";

    void check(@Observes @Priority(1) StartupEvent event) {
        List<String> names = new ArrayList<>();
        for (ConfigSource source : ConfigProvider.getConfig().getConfigSources()) {
            // An environment variable's dotted name is a guess (PORTICO_LOCAL_DB is Portico's own, read as is, and
            // any PORTICO_* variable of the surroundings would look like a setting): only files and system
            // properties are checked.
            if (!(source instanceof EnvConfigSource)) {
                source.getPropertyNames().forEach(names::add);
            }
        }
        List<String> unknown = unknown(names);
        if (!unknown.isEmpty()) {
            throw new ConfigurationException("Unknown Portico settings " + unknown + ": Portico's settings are "
                    + new TreeSet<>(GROUPS).stream().map(g -> PREFIX + g + ".*").toList());
        }
    }

    /**
     * The {@code portico.*} names (with or without a {@code %profile.} in front) outside the known groups, sorted.
     * Environment variables keep their own spelling ({@code PORTICO_ADMIN_TOKEN}) and are not checked.
     */
    static List<String> unknown(Iterable<String> names) {
        Set<String> unknown = new TreeSet<>();
        for (String name : names) {
            String key = name.startsWith("%") && name.indexOf('.') > 0 ? name.substring(name.indexOf('.') + 1) : name;
            if (!key.startsWith(PREFIX)) {
                continue;
            }
            int end = key.indexOf('.', PREFIX.length());
            String group = end < 0 ? key.substring(PREFIX.length()) : key.substring(PREFIX.length(), end);
            if (!GROUPS.contains(group)) {
                unknown.add(name);
            }
        }
        return new ArrayList<>(unknown);
    }
}
