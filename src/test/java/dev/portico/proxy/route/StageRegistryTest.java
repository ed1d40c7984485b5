package dev.portico.proxy.route;

import dev.portico.proxy.cache.CacheStage;
import dev.portico.proxy.core.Stage;
import dev.portico.proxy.files.StaticFilesStage;
import dev.portico.proxy.forwarding.ForwardingHeadersStage;
import dev.portico.proxy.headers.HeaderRulesStage;
import dev.portico.proxy.headers.SecurityHeadersStage;
import dev.portico.proxy.limits.RequestBodyLimitStage;
import dev.portico.proxy.upstream.ForwardStage;
import dev.portico.testing.Api;
import dev.portico.testing.PostgresResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/** The compiler builds each vhost's pipeline from the registered factories, in the registry's order. */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class StageRegistryTest {

    @Inject
    SnapshotHolder snapshots;

    private Path root;

    @AfterEach
    void cleanUp() throws IOException {
        Api.deleteAll();
        if (root != null) {
            Files.deleteIfExists(root);
        }
    }

    private List<Class<?>> pipelineOf(String hostname) {
        return Arrays.stream(snapshots.current().route(hostname).stages()).<Class<?>>map(Stage::getClass).toList();
    }

    @Test
    void aVhostUsingEveryStageGetsThemInPipelineOrder() throws IOException {
        root = Files.createTempDirectory("portico-registry");
        JsonObject rules = new JsonObject().put("set", new JsonObject().put("X-Edit", "1"));
        Api.create(Api.vhost("all", "all.test", "http://127.0.0.1:9")
                .put("cache", Api.enabled())
                .put("static", new JsonObject().put("root", root.toString()))
                .put("requestHeaders", rules)
                .put("responseHeaders", rules));

        assertEquals(List.of(HeaderRulesStage.class, SecurityHeadersStage.class, RequestBodyLimitStage.class,
                CacheStage.class, StaticFilesStage.class, ForwardingHeadersStage.class, HeaderRulesStage.class,
                ForwardStage.class), pipelineOf("all.test"));
        Stage[] stages = snapshots.current().route("all.test").stages();
        assertSame(SecurityHeadersStage.DEFAULTS, stages[1]);
    }

    @Test
    void stagesAVhostDoesNotUseAreLeftOut() {
        Api.create(Api.vhost("plain", "plain.test", "http://127.0.0.1:9")
                .put("securityHeaders", false).put("maxRequestBody", "unlimited")
                .put("requestHeaders", new JsonObject().put("set", new JsonObject().put("Host", "upstream.test")))
                .put("upstreams", new JsonArray().add(new JsonObject().put("url", "http://127.0.0.1:9"))));

        // A Host among the request edits is not an edit: the forwarder sends it upstream instead.
        assertEquals(List.of(ForwardingHeadersStage.class, ForwardStage.class), pipelineOf("plain.test"));
    }
}
