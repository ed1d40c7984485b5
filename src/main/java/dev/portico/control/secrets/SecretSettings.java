package dev.portico.control.secrets;

import io.smallrye.config.ConfigMapping;

import java.util.Optional;

/** The key that encrypts secrets at rest. Settings under {@code portico.secret.*}. */
@ConfigMapping(prefix = "portico.secret")
public interface SecretSettings {

    /**
     * 32 random bytes, base64 (standard or URL alphabet) or hex; from {@code PORTICO_SECRET_KEY}. When unset, the
     * first instance generates one and prints it once: every replica, and every restart, needs that same key.
     */
    Optional<String> key();
}
