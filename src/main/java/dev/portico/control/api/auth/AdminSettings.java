package dev.portico.control.api.auth;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.util.Optional;

/** Management API access. Settings under {@code portico.admin.*}. */
@ConfigMapping(prefix = "portico.admin")
public interface AdminSettings {
    /**
     * Bearer token for {@code /api}; from {@code PORTICO_ADMIN_TOKEN}. When unset, a token is generated at first
     * start, only its hash is stored in the database, and it is printed once.
     */
    Optional<String> token();

    /**
     * Largest request body the API takes. Checked after the token, so only an authenticated client learns of it;
     * larger bodies get 413 (see {@code dev.portico.control.api.body}).
     */
    @WithDefault("10M")
    MemorySize maxBodySize();
}
