package dev.portico.control.api.body;

import dev.portico.control.api.auth.AdminSettings;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The API's body limit in bytes ({@code portico.admin.max-body-size}). Application-scoped, so the JAX-RS providers
 * that Quarkus builds at static init get a proxy and the configuration is read only once it exists, at run time.
 */
@ApplicationScoped
public class ApiBodyLimit {

    private final long bytes;

    public ApiBodyLimit(AdminSettings config) {
        this.bytes = config.maxBodySize().asLongValue();
    }

    public long bytes() {
        return bytes;
    }
}
