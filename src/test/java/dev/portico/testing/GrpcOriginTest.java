package dev.portico.testing;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

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
    void largeMessage() {
        GrpcConversations.largeMessage(client);
    }

    @Test
    void concurrentCalls() {
        GrpcConversations.concurrentCalls(client, 200);
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
    void deadline() {
        GrpcConversations.deadline(client, origin);
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
