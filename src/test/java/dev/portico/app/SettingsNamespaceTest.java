package dev.portico.app;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class SettingsNamespaceTest {

    @Test
    void aMisspeltGroupIsUnknownAndEveryFeatureGroupIsKnown() {
        assertEquals(List.of("%prod.portico.acesslog.file", "portico.acm.email", "portico.dataplan.port", "portico.token"),
                SettingsNamespace.unknown(List.of("portico.dataplan.port", "portico.dataplane.port",
                        "portico.access-log.file", "%prod.portico.acesslog.file", "%test.portico.admin.token",
                        "portico.upstream.max-fails", "portico.reload.listen", "portico.analytics.top",
                        "portico.cache.memory-budget", "portico.tls.engine", "portico.secret.key", "portico.acme.directory-url", "portico.acme.eab-kid",
                        "portico.acm.email", "portico.token", "quarkus.http.port", "PORTICO_ADMIN_TOKEN")));
    }
}
