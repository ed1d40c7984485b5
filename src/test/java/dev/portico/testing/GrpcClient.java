package dev.portico.testing;

import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.TlsChannelCredentials;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A grpc-java client channel to a loopback port, naming {@code authority} as {@code :authority} (and, over TLS, as
 * SNI and the name the certificate must match): how a gRPC client reaches a vhost through Portico.
 */
public final class GrpcClient implements AutoCloseable {

    public static final Duration WAIT = Duration.ofSeconds(20);

    private final ManagedChannel channel;

    private GrpcClient(ManagedChannel channel) {
        this.channel = channel;
    }

    /** Cleartext HTTP/2 with prior knowledge (what grpc-java's {@code usePlaintext()} speaks). */
    public static GrpcClient h2c(int port, String authority) {
        return new GrpcClient(NettyChannelBuilder.forAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), port))
                .usePlaintext().overrideAuthority(authority).build());
    }

    /** HTTP/2 over TLS (ALPN h2), trusting only {@code caPem}. */
    public static GrpcClient tls(int port, String authority, String caPem) {
        try {
            TlsChannelCredentials.Builder credentials = TlsChannelCredentials.newBuilder()
                    .trustManager(new ByteArrayInputStream(caPem.getBytes(StandardCharsets.US_ASCII)));
            return new GrpcClient(NettyChannelBuilder.forAddress(
                            new InetSocketAddress(InetAddress.getLoopbackAddress(), port), credentials.build())
                    .overrideAuthority(authority).build());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Starts a call sending {@code headers}, asking for {@code initialRequest} messages at first. */
    public GrpcCall start(MethodDescriptor<String, String> method, CallOptions options, Metadata headers,
                          int initialRequest) {
        return new GrpcCall(channel.newCall(method, options), headers, initialRequest);
    }

    /** Starts a call that reads every message as it comes. */
    public GrpcCall start(MethodDescriptor<String, String> method) {
        return start(method, CallOptions.DEFAULT, new Metadata(), Integer.MAX_VALUE);
    }

    /** Sends one request, half-closes and waits for the end of the call. */
    public GrpcCall.Closed unary(MethodDescriptor<String, String> method, String request) {
        return start(method).send(request).halfClose().closed(WAIT);
    }

    /** The single answer of a unary call that must succeed. */
    public String ask(MethodDescriptor<String, String> method, String request) {
        GrpcCall call = start(method).send(request).halfClose();
        GrpcCall.Closed closed = call.closed(WAIT);
        if (!closed.status().isOk()) {
            throw new AssertionError("call failed: " + closed.status());
        }
        return call.messages().get(0);
    }

    @Override
    public void close() throws InterruptedException {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
}
