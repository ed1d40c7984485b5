package dev.portico.testing;

import io.grpc.CallOptions;
import io.grpc.Metadata;
import io.grpc.Status;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The gRPC harness checked on its own, client straight to origin, no proxy: what {@code GrpcEndToEndTest} then
 * expects through Portico is what grpc-java does without it. In particular the back-pressure check must hold here,
 * or it would prove nothing about Portico.
 */
class GrpcOriginTest {

    private static final OpensslPki PKI = OpensslPki.authority("Portico gRPC origin test CA");

    private static GrpcOrigin origin;
    private static GrpcClient client;

    @BeforeAll
    static void start() {
        origin = GrpcOrigin.cleartext();
        client = GrpcClient.h2c(origin.port(), "probe.test");
    }

    @AfterAll
    static void stop() throws Exception {
        client.close();
        origin.close();
    }

    @Test
    void unary() {
        GrpcConversations.unary(client);
    }

    @Test
    void serverStreaming() {
        GrpcConversations.serverStreaming(client, 10_000);
    }

    @Test
    void clientStreaming() {
        GrpcConversations.clientStreaming(client);
    }

    @Test
    void bidirectional() {
        GrpcConversations.bidirectional(client);
    }

    @Test
    void errorStatus() {
        GrpcConversations.errorStatus(client);
    }

    @Test
    void metadata() {
        GrpcConversations.metadata(client, origin);
    }

    @Test
    void backPressure() {
        GrpcConversations.backPressure(client, origin);
    }

    @Test
    void aCallPastItsDeadlineIsCancelledOnTheOrigin() {
        int cancelledBefore = origin.cancelled();
        GrpcCall.Closed closed = client.start(GrpcProbe.HANG,
                        CallOptions.DEFAULT.withDeadlineAfter(300, TimeUnit.MILLISECONDS), new Metadata(), 1)
                .send("wait").halfClose().closed(GrpcClient.WAIT);
        assertEquals(Status.Code.DEADLINE_EXCEEDED, closed.status().getCode());
        Eventually.within(GrpcClient.WAIT, () -> assertTrue(origin.cancelled() > cancelledBefore));
    }

    @Test
    void overTls() throws Exception {
        try (GrpcOrigin secure = GrpcOrigin.tls(PKI.server("DNS:probe.test,IP:127.0.0.1"));
             GrpcClient tls = GrpcClient.tls(secure.port(), "probe.test", PKI.caPem())) {
            GrpcConversations.unary(tls);
            GrpcConversations.serverStreaming(tls, 100);
        }
    }
}
