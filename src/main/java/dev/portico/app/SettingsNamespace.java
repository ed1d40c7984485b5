package dev.portico.app;

import dev.portico.cache.CacheSettings;
import dev.portico.control.acme.AcmeSettings;
import dev.portico.control.api.auth.AdminSettings;
import dev.portico.control.api.auth.DashboardSettings;
import dev.portico.control.secrets.SecretSettings;
import dev.portico.control.snapshot.ReloadSettings;
import dev.portico.proxy.core.DataPlaneSettings;
import dev.portico.proxy.server.tls.TlsListenerSettings;
import dev.portico.proxy.upstream.UpstreamSettings;
import dev.portico.telemetry.accesslog.AccessLogSettings;
import dev.portico.telemetry.analytics.AnalyticsSettings;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.runtime.configuration.ConfigurationException;
import io.smallrye.config.ConfigMapping;
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
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Refuses to start with a {@code portico.*} setting outside the known groups. Each feature maps its own group
 * ({@code portico.dataplane}, {@code portico.access-log}, ...), and the configuration library rejects a misspelt
 * key inside a group; a misspelt group ({@code portico.dataplan.port}) would otherwise be ignored without a word, and
 * Portico would run with a default the operator thinks they changed.
 */
@Singleton
public class SettingsNamespace {

    private static final String PREFIX = "portico.";
    /** The groups under {@code portico.}: each feature's settings interface names its own. */
    static final Set<String> GROUPS = Stream.of(DataPlaneSettings.class, UpstreamSettings.class, AdminSettings.class,
                    ReloadSettings.class, AnalyticsSettings.class, AccessLogSettings.class, CacheSettings.class,
                    TlsListenerSettings.class, SecretSettings.class, AcmeSettings.class, DashboardSettings.class)
            .map(settings -> settings.getAnnotation(ConfigMapping.class).prefix().substring(PREFIX.length()))
            .collect(Collectors.toUnmodifiableSet());

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
