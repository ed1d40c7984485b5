package dev.portico.cache;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** The in-memory response cache shared by the vhosts that enable it. Settings under {@code portico.cache.*}. */
@ConfigMapping(prefix = "portico.cache")
public interface CacheSettings {
    /** Memory for stored responses of all vhosts together; each vhost's {@code cache.maxSize} is a share of it. */
    @WithDefault("256M")
    MemorySize memoryBudget();
}
