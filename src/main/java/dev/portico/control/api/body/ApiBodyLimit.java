package dev.portico.control.api.body;

import dev.portico.config.PorticoConfig;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The API's body limit in bytes ({@code portico.admin.max-body-size}). Application-scoped, so the JAX-RS providers
 * that Quarkus builds at static init get a proxy and the configuration is read only once it exists, at run time.
 */
@ApplicationScoped
public class ApiBodyLimit {

    private final long bytes;

    public ApiBodyLimit(PorticoConfig config) {
        this.bytes = config.admin().maxBodySize().asLongValue();
    }

    public long bytes() {
        return bytes;
    }
}
