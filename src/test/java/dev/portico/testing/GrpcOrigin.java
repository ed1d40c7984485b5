package dev.portico.testing;

import io.grpc.ForwardingServerCall.SimpleForwardingServerCall;
import io.grpc.InsecureServerCredentials;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerCredentials;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.TlsServerCredentials;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A grpc-java server on a loopback port serving {@link GrpcProbe}: cleartext HTTP/2 (h2c, what an upstream with
 * {@code protocol: h2c} speaks) or TLS with ALPN h2 ({@code protocol: h2}). It records what a test asserts on: the
 * metadata of the last call, how many {@link GrpcProbe#COUNT} messages it sent and how often the transport told it to
 * stop ({@code isReady() == false}: the peer's flow-control window is full), and the calls cancelled under it.
 * <p>
 * Metadata: every request key starting {@code x-probe-} comes back as a response header {@code x-echo-<rest>}, and
 * every call ends with the trailer {@code x-probe-trailer: <method name>}.
 */
public final class GrpcOrigin implements AutoCloseable {

    public static final Metadata.Key<String> TRAILER = Metadata.Key.of("x-probe-trailer",
            Metadata.ASCII_STRING_MARSHALLER);
    /** Sent in the trailers of a {@link GrpcProbe#FAIL} call, next to grpc-status and grpc-message. */
    public static final Metadata.Key<String> FAILURE_DETAIL = Metadata.Key.of("x-failure-detail",
            Metadata.ASCII_STRING_MARSHALLER);

    private static final String ECHOED_PREFIX = "x-probe-";

    private final Server server;
    private final AtomicReference<Metadata> lastHeaders = new AtomicReference<>();
    private final AtomicInteger sent = new AtomicInteger();
    private final AtomicInteger stalls = new AtomicInteger();
    private final AtomicInteger hanging = new AtomicInteger();
    private final AtomicInteger cancelled = new AtomicInteger();

    private GrpcOrigin(ServerCredentials credentials) {
        ServerServiceDefinition probe = ServerServiceDefinition.builder(GrpcProbe.SERVICE)
                .addMethod(GrpcProbe.ECHO, ServerCalls.asyncUnaryCall(GrpcOrigin::echo))
                .addMethod(GrpcProbe.COUNT, ServerCalls.asyncServerStreamingCall(this::count))
                .addMethod(GrpcProbe.SUM, ServerCalls.asyncClientStreamingCall(GrpcOrigin::sum))
                .addMethod(GrpcProbe.CHAT, ServerCalls.asyncBidiStreamingCall(this::chat))
                .addMethod(GrpcProbe.FAIL, ServerCalls.asyncUnaryCall(GrpcOrigin::fail))
                .addMethod(GrpcProbe.HANG, ServerCalls.asyncUnaryCall(this::hang))
                .build();
        server = NettyServerBuilder.forAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), credentials)
                .addService(ServerInterceptors.intercept(probe, new MetadataEcho()))
                .build();
        try {
            server.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A cleartext (h2c, prior knowledge) origin. */
    public static GrpcOrigin cleartext() {
        return new GrpcOrigin(InsecureServerCredentials.create());
    }

    /** A TLS origin presenting {@code certificate} (ALPN h2). */
    public static GrpcOrigin tls(OpensslPki.Issued certificate) {
        try {
            return new GrpcOrigin(TlsServerCredentials.create(
                    new ByteArrayInputStream(certificate.certificatePem().getBytes(StandardCharsets.US_ASCII)),
                    new ByteArrayInputStream(certificate.keyPem().getBytes(StandardCharsets.US_ASCII))));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public int port() {
        return ((InetSocketAddress) server.getListenSockets().get(0)).getPort();
    }

    /** The upstream URL of a vhost pointing here: {@code http://} (h2c) or {@code https://} (h2). */
    public String url(boolean tls) {
        return (tls ? "https" : "http") + "://127.0.0.1:" + port();
    }

    /** The request metadata of the latest call. */
    public Metadata lastHeaders() {
        return lastHeaders.get();
    }

    /** Messages sent by all {@link GrpcProbe#COUNT} calls so far. */
    public int sent() {
        return sent.get();
    }

    /** How many times a {@link GrpcProbe#COUNT} call found its stream not ready and waited for the peer. */
    public int stalls() {
        return stalls.get();
    }

    /** {@link GrpcProbe#HANG} calls received so far. */
    public int hanging() {
        return hanging.get();
    }

    /** Calls the client side (or the proxy) cancelled before they ended. */
    public int cancelled() {
        return cancelled.get();
    }

    @Override
    public void close() throws InterruptedException {
        server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }

    private static void echo(String request, StreamObserver<String> response) {
        response.onNext(request);
        response.onCompleted();
    }

    /**
     * Sends only while the transport is ready (grpc-java's manual flow control): when the peer stops reading, the
     * stream stays not ready and the origin waits for onReady instead of queueing the rest in memory.
     */
    private void count(String request, StreamObserver<String> response) {
        ServerCallStreamObserver<String> call = (ServerCallStreamObserver<String>) response;
        call.setOnCancelHandler(cancelled::incrementAndGet);
        int total = Integer.parseInt(request.substring(0, request.indexOf(':')));
        int padding = Integer.parseInt(request.substring(request.indexOf(':') + 1));
        int[] next = {0};
        boolean[] done = {false};
        Runnable drain = () -> {
            while (next[0] < total && call.isReady()) {
                call.onNext(GrpcProbe.numbered(next[0]++, padding));
                sent.incrementAndGet();
            }
            if (next[0] == total && !done[0]) {
                done[0] = true;
                call.onCompleted();
            } else if (next[0] < total) {
                stalls.incrementAndGet();
            }
        };
        // onReady and the method body run on the call's serializing executor, never at the same time.
        call.setOnReadyHandler(drain);
        drain.run();
    }

    private static StreamObserver<String> sum(StreamObserver<String> response) {
        long[] total = {0};
        return new StreamObserver<>() {
            @Override
            public void onNext(String value) {
                total[0] += Long.parseLong(value);
            }

            @Override
            public void onError(Throwable t) {
            }

            @Override
            public void onCompleted() {
                response.onNext(Long.toString(total[0]));
                response.onCompleted();
            }
        };
    }

    private StreamObserver<String> chat(StreamObserver<String> response) {
        ((ServerCallStreamObserver<String>) response).setOnCancelHandler(cancelled::incrementAndGet);
        return new StreamObserver<>() {
            @Override
            public void onNext(String value) {
                response.onNext("echo:" + value);
            }

            @Override
            public void onError(Throwable t) {
            }

            @Override
            public void onCompleted() {
                response.onCompleted();
            }
        };
    }

    private static void fail(String request, StreamObserver<String> response) {
        int colon = request.indexOf(':');
        Metadata trailers = new Metadata();
        trailers.put(FAILURE_DETAIL, "from the origin");
        response.onError(Status.Code.valueOf(request.substring(0, colon)).toStatus()
                .withDescription(request.substring(colon + 1)).asRuntimeException(trailers));
    }

    private void hang(String request, StreamObserver<String> response) {
        ((ServerCallStreamObserver<String>) response).setOnCancelHandler(cancelled::incrementAndGet);
        hanging.incrementAndGet();
    }

    /** Records each call's metadata, echoes {@code x-probe-*} as response headers and adds a trailer. */
    private final class MetadataEcho implements ServerInterceptor {
        @Override
        public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
                                                           ServerCallHandler<Q, R> next) {
            lastHeaders.set(headers);
            return next.startCall(new SimpleForwardingServerCall<>(call) {
                @Override
                public void sendHeaders(Metadata responseHeaders) {
                    for (String key : headers.keys()) {
                        if (key.startsWith(ECHOED_PREFIX) && !key.endsWith(Metadata.BINARY_HEADER_SUFFIX)) {
                            Metadata.Key<String> seen = Metadata.Key.of(key, Metadata.ASCII_STRING_MARSHALLER);
                            responseHeaders.put(Metadata.Key.of("x-echo-" + key.substring(ECHOED_PREFIX.length()),
                                    Metadata.ASCII_STRING_MARSHALLER), headers.get(seen));
                        } else if (key.startsWith(ECHOED_PREFIX)) {
                            Metadata.Key<byte[]> seen = Metadata.Key.of(key, Metadata.BINARY_BYTE_MARSHALLER);
                            responseHeaders.put(Metadata.Key.of("x-echo-" + key.substring(ECHOED_PREFIX.length()),
                                    Metadata.BINARY_BYTE_MARSHALLER), headers.get(seen));
                        }
                    }
                    super.sendHeaders(responseHeaders);
                }

                @Override
                public void close(Status status, Metadata trailers) {
                    trailers.put(TRAILER, call.getMethodDescriptor().getBareMethodName());
                    super.close(status, trailers);
                }
            }, headers);
        }
    }
}
