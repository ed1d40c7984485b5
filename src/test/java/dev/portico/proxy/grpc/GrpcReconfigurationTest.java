package dev.portico.proxy.grpc;

import dev.portico.testing.Api;
import dev.portico.testing.ConfigurationChurn;
import dev.portico.testing.Eventually;
import dev.portico.testing.GrpcCall;
import dev.portico.testing.GrpcClient;
import dev.portico.testing.GrpcConversations;
import dev.portico.testing.GrpcOrigin;
import dev.portico.testing.GrpcProbe;
import dev.portico.testing.Pacing;
import dev.portico.testing.PostgresResource;
import io.grpc.Metadata;
import io.grpc.Status;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The reconfiguration promise for gRPC: a bidirectional stream open through Portico, exchanging a message every
 * 100 ms, runs on untouched while 50 configuration commits add, edit and delete other vhosts and edit its own
 * (a new response header and read timeout each time); a new call made afterwards gets the last edit.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class GrpcReconfigurationTest extends GrpcProxyTestSupport {

    private static final String HOST = "live.test";
    private static final Metadata.Key<String> REVISION = Metadata.Key.of("x-revision",
            Metadata.ASCII_STRING_MARSHALLER);
    private static final int COMMITS = 50;

    @Test
    void aBidirectionalStreamLosesNothingThroughFiftyCommits() throws Exception {
        try (GrpcOrigin origin = GrpcOrigin.cleartext(); GrpcOrigin other = GrpcOrigin.cleartext()) {
            JsonObject definition = grpcVhost("live", HOST, origin.url(false));
            String own = vhost(definition);
            GrpcClient stream = client(HOST);
            GrpcConversations.unary(stream);
            GrpcCall chat = stream.start(GrpcProbe.CHAT);

            ConfigurationChurn churn = new ConfigurationChurn(own, edit -> definition.copy()
                    .put("readTimeout", (30 + edit) + "s")
                    .put("responseHeaders", new JsonObject().put("set", new JsonObject()
                            .put("X-Revision", Integer.toString(edit)))), other.url(false));
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread commits = new Thread(() -> {
                try {
                    churn.run(COMMITS, 50);
                } catch (Throwable t) {
                    failure.set(t);
                }
            }, "grpc-reconfiguration-churn");
            commits.start();
            List<String> expected = new ArrayList<>();
            for (int i = 0; commits.isAlive() || i < 20; i++) {
                assertFalse(chat.isClosed(), () -> "the stream ended: " + chat.closed(GrpcClient.WAIT));
                chat.send("m" + i);
                expected.add("echo:m" + i);
                Pacing.pause(Duration.ofMillis(100), "a message every 100 ms, as a live stream sends them");
            }
            commits.join();
            assertNull(failure.get(), () -> "a commit failed: " + failure.get());
            assertEquals(COMMITS, churn.commits());

            Eventually.value(GrpcClient.WAIT, chat::messages, received -> received.size() >= expected.size());
            assertEquals(expected, chat.messages(), "every message answered once, in order");
            GrpcConversations.assertOk(chat.halfClose().closed(GrpcClient.WAIT));
            assertTrue(expected.size() >= 20, "messages exchanged: " + expected.size());

            GrpcClient probe = client(HOST);
            Eventually.within(GrpcClient.WAIT, () -> {
                GrpcCall after = probe.start(GrpcProbe.ECHO).send("which revision?").halfClose();
                GrpcConversations.assertOk(after.closed(GrpcClient.WAIT));
                assertEquals("46", after.headers(GrpcClient.WAIT).get(REVISION), "a new call gets the last edit");
            });
        }
    }

    /**
     * Deleting the stream's own vhost ends the stream, but only after the grace period (2 s in tests): a message sent
     * right after the delete is still answered, then the stream is reset (grpc-java reports a reset as UNAVAILABLE,
     * which gRPC clients may retry) and the call ends on the origin too.
     */
    @Test
    void deletingItsVhostEndsTheStreamAfterTheGrace() throws Exception {
        try (GrpcOrigin origin = GrpcOrigin.cleartext()) {
            String own = vhost(grpcVhost("doomed", "doomed.test", origin.url(false)));
            GrpcCall chat = client("doomed.test").start(GrpcProbe.CHAT);
            chat.send("before");
            Eventually.value(GrpcClient.WAIT, chat::messages, received -> received.size() == 1);
            Api.delete(own);
            chat.send("during the grace");
            Eventually.value(GrpcClient.WAIT, chat::messages, received -> received.size() == 2);
            GrpcCall.Closed closed = chat.closed(GrpcClient.WAIT);
            assertEquals(List.of("echo:before", "echo:during the grace"), chat.messages());
            assertEquals(Status.Code.UNAVAILABLE, closed.status().getCode(), closed.status().toString());
            Eventually.within(GrpcClient.WAIT, () -> assertEquals(1, origin.cancelled(), "ended on the origin"));
        }
    }
}
