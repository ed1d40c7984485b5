package dev.portico.proxy.grpc;

import dev.portico.testing.Curl;
import dev.portico.testing.Eventually;
import dev.portico.testing.GrpcCall;
import dev.portico.testing.GrpcClient;
import dev.portico.testing.GrpcConversations;
import dev.portico.testing.GrpcOrigin;
import dev.portico.testing.GrpcProbe;
import dev.portico.testing.PostgresResource;
import io.grpc.CallOptions;
import io.grpc.Metadata;
import io.grpc.Status;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * gRPC end to end: a grpc-java client speaking HTTP/2 over TLS (ALPN h2) to Portico, Portico speaking h2c (or h2)
 * to a grpc-java origin. Every kind of call, statuses and metadata both ways, back-pressure from a slow reader to
 * the origin, cancellations, and Portico's own answers the gRPC way. {@code GrpcOriginTest} runs the same
 * conversations without Portico.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class GrpcEndToEndTest extends GrpcProxyTestSupport {

    private static final String HOST = "grpc.test";

    private GrpcOrigin origin;
    private GrpcClient client;

    @BeforeEach
    void grpcVhost() {
        origin = GrpcOrigin.cleartext();
        vhost(grpcVhost("grpc", HOST, origin.url(false)));
        client = client(HOST);
    }

    @AfterEach
    void closeOrigin() throws Exception {
        origin.close();
    }

    @Test
    void unary() {
        GrpcConversations.unary(client);
    }

    @Test
    void aMessageLargerThanEveryWindow() {
        GrpcConversations.largeMessage(client);
    }

    @Test
    void twoHundredConcurrentCallsOnOneConnection() {
        GrpcConversations.concurrentCalls(client, 200);
    }

    @Test
    void tenThousandStreamedMessagesArriveAllInOrder() {
        GrpcConversations.serverStreaming(client, 10_000);
    }

    @Test
    void clientStreaming() {
        GrpcConversations.clientStreaming(client);
    }

    @Test
    void bidirectionalMessagesInterleave() {
        GrpcConversations.bidirectional(client);
    }

    @Test
    void theOriginsStatusMessageAndTrailersAreRelayedExactly() {
        GrpcConversations.errorStatus(client);
    }

    @Test
    void metadataPassesBothWaysWithPorticosForwardingHeaders() {
        Metadata seen = GrpcConversations.metadata(client, origin);
        assertNotNull(seen.get(key("x-request-id")), "Portico's request id reaches the origin");
        assertEquals("127.0.0.1", seen.get(key("x-forwarded-for")));
    }

    @Test
    void aSlowReaderHoldsTheOriginBackAndStillGetsEverything() {
        GrpcConversations.backPressure(client, origin);
    }

    @Test
    void aCancelledCallIsCancelledOnTheOrigin() {
        GrpcCall call = client.start(GrpcProbe.HANG, CallOptions.DEFAULT, new Metadata(), 1).send("wait").halfClose();
        Eventually.within(GrpcClient.WAIT, () -> assertEquals(1, origin.hanging()));
        call.cancel("the test gives up");
        assertEquals(Status.Code.CANCELLED, call.closed(GrpcClient.WAIT).status().getCode());
        Eventually.within(GrpcClient.WAIT, () -> assertEquals(1, origin.cancelled(), "RST_STREAM reached the origin"));
    }

    @Test
    void theClientsDeadlineReachesTheOriginAndEndsTheCallThere() {
        GrpcConversations.deadline(client, origin);
    }

    /**
     * curl sends a {@code grpc-timeout} but keeps no deadline of its own, so what it reads is Portico's answer when
     * the origin cancels the call at that deadline (RST_STREAM CANCEL): the client's deadline, not a failed upstream.
     * A grpc-java client may read it too when the origin's cancel reaches it before its own timer fires.
     */
    @Test
    void aCallTheOriginCancelsAtItsDeadlineIsDeadlineExceeded(@TempDir Path dir) throws Exception {
        Path ca = Files.writeString(dir.resolve("ca.pem"), pki().caPem());
        // One gRPC message: not compressed, 4 bytes long, "wait" (the probe's text marshaller).
        Path message = Files.write(dir.resolve("message"), new byte[] {0, 0, 0, 0, 4, 'w', 'a', 'i', 't'});
        String head = Curl.run(List.of("--http2", "--cacert", ca.toString(),
                "--resolve", HOST + ":" + dataPlane.tlsPort() + ":127.0.0.1", "-D", "-", "-o", "/dev/null",
                "-H", "content-type: application/grpc", "-H", "te: trailers", "-H", "grpc-timeout: 300m",
                "--data-binary", "@" + message, "https://" + HOST + ":" + dataPlane.tlsPort() + "/"
                        + GrpcProbe.HANG.getFullMethodName()));
        assertTrue(head.contains("grpc-status: 4"), head);
        assertTrue(head.contains("grpc_deadline_exceeded"), head);
        Eventually.within(GrpcClient.WAIT, () -> assertTrue(origin.cancelled() > 0, "the call ended on the origin"));
    }

    @Test
    void noReachableUpstreamIsUnavailable() {
        vhost(grpcVhost("down", "down.test", "http://127.0.0.1:1"));
        Status status = client("down.test").unary(GrpcProbe.ECHO, "hello").status();
        assertEquals(Status.Code.UNAVAILABLE, status.getCode(), status.toString());
        assertTrue(status.getDescription().startsWith("upstream_connect_failure"), status.getDescription());
    }

    @Test
    void anUpstreamThatNeverAnswersIsADeadlineExceeded() {
        vhost(grpcVhost("slow", "slow.test", origin.url(false)).put("readTimeout", "500ms"));
        Status status = client("slow.test").unary(GrpcProbe.HANG, "wait").status();
        assertEquals(Status.Code.DEADLINE_EXCEEDED, status.getCode(), status.toString());
        assertTrue(status.getDescription().startsWith("upstream_response_timeout"), status.getDescription());
        Eventually.within(GrpcClient.WAIT, () -> assertEquals(1, origin.cancelled(),
                "Portico gave up on the upstream stream too"));
    }

    @Test
    void anH2UpstreamOverTls() throws Exception {
        try (GrpcOrigin secure = GrpcOrigin.tls(pki().server("DNS:origin.test,IP:127.0.0.1"))) {
            JsonObject upstream = new JsonObject().put("url", secure.url(true)).put("protocol", "h2")
                    .put("tls", new JsonObject().put("caBundle", pki().caPem()));
            vhost(grpcVhost("tls-upstream", "tls-upstream.test", secure.url(true))
                    .put("upstreams", new JsonArray().add(upstream)));
            GrpcClient viaTls = client("tls-upstream.test");
            GrpcConversations.unary(viaTls);
            GrpcConversations.bidirectional(viaTls);
            GrpcConversations.errorStatus(viaTls);
        }
    }

    private static Metadata.Key<String> key(String name) {
        return Metadata.Key.of(name, Metadata.ASCII_STRING_MARSHALLER);
    }
}
