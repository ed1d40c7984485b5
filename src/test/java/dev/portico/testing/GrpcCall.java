package dev.portico.testing;

import io.grpc.ClientCall;
import io.grpc.Metadata;
import io.grpc.Status;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One gRPC call made with grpc-java's low-level {@link ClientCall}, recording everything the client saw: response
 * headers, messages in arrival order, the final status and the trailers. The test drives it from one thread
 * ({@code ClientCall} is not thread-safe) and chooses how many messages to ask for, which is gRPC's client-side flow
 * control: a message not requested is not read, so its bytes stay in the HTTP/2 window.
 */
public final class GrpcCall {

    /** How the call ended. */
    public record Closed(Status status, Metadata trailers) {
    }

    private final ClientCall<String, String> call;
    private final List<String> messages = new ArrayList<>();
    private final CompletableFuture<Metadata> headers = new CompletableFuture<>();
    private final CompletableFuture<Closed> closed = new CompletableFuture<>();

    GrpcCall(ClientCall<String, String> call, Metadata requestHeaders, int initialRequest) {
        this.call = call;
        call.start(new ClientCall.Listener<>() {
            @Override
            public void onHeaders(Metadata received) {
                headers.complete(received);
            }

            @Override
            public void onMessage(String message) {
                synchronized (messages) {
                    messages.add(message);
                }
            }

            @Override
            public void onClose(Status status, Metadata trailers) {
                closed.complete(new Closed(status, trailers));
            }
        }, requestHeaders);
        if (initialRequest > 0) {
            call.request(initialRequest);
        }
    }

    public GrpcCall send(String message) {
        call.sendMessage(message);
        return this;
    }

    public GrpcCall halfClose() {
        call.halfClose();
        return this;
    }

    /** Asks for {@code n} more messages. */
    public void request(int n) {
        call.request(n);
    }

    public void cancel(String why) {
        call.cancel(why, null);
    }

    /** A copy of the messages received so far, in order. */
    public List<String> messages() {
        synchronized (messages) {
            return List.copyOf(messages);
        }
    }

    /** The response headers; fails if none came within {@code timeout} (a trailers-only reply has none). */
    public Metadata headers(Duration timeout) {
        return await(headers, timeout);
    }

    public Closed closed(Duration timeout) {
        return await(closed, timeout);
    }

    public boolean isClosed() {
        return closed.isDone();
    }

    private static <T> T await(CompletableFuture<T> future, Duration timeout) {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("nothing within " + timeout.toMillis() + " ms", e);
        } catch (ExecutionException e) {
            throw new AssertionError(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
