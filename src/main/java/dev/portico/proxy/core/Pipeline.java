package dev.portico.proxy.core;

import dev.portico.proxy.core.outcome.LocalReason;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.streams.ReadStream;

import java.util.Arrays;

/**
 * Where one request stands in its vhost's stage list, and the phases of {@link Stage} run over the stages that ran:
 * the request phase goes outwards-in and stops at the stage that takes the request; every later phase runs over the
 * stages up to that one, innermost first (the request body phase outermost first, as a wrapper reads from what it
 * wraps). Confined to the request's event loop.
 */
public final class Pipeline {

    private static final Stage[] NONE = new Stage[0];

    private final Exchange exchange;
    private Stage[] stages = NONE;
    /** One past the innermost stage whose request phase ran. */
    private int next;

    Pipeline(Exchange exchange) {
        this.exchange = exchange;
    }

    /** Starts the request phase over {@code vhostStages}. */
    void start(Stage[] vhostStages) {
        this.stages = vhostStages;
        this.next = 0;
    }

    /** Counts {@code ran} as stages whose request phase ran, for a reply made before routing. */
    void ranAlready(Stage[] ran) {
        this.stages = ran;
        this.next = ran.length;
    }

    /** The next stage of the request phase, counted as run; null at the end. */
    Stage advance() {
        return next < stages.length ? stages[next++] : null;
    }

    ReadStream<Buffer> requestBody(ReadStream<Buffer> body) {
        ReadStream<Buffer> read = body;
        for (int i = 0; i < next; i++) {
            read = stages[i].onRequestBody(exchange, read);
        }
        return read;
    }

    /**
     * The upstream response phase: an upstream's head is in the exchange's response. {@link Stage.Flow#TAKEN} when a
     * stage answered the client instead, so the upstream's body is to be discarded.
     */
    public Stage.Flow upstreamResponse(int status) {
        for (int i = next - 1; i >= 0; i--) {
            if (stages[i].onUpstreamResponse(exchange, status) == Stage.Flow.TAKEN) {
                return Stage.Flow.TAKEN;
            }
        }
        return Stage.Flow.NEXT;
    }

    /**
     * The upstream failure phase: no upstream answered. {@link Stage.Flow#TAKEN} when a stage answered instead (a
     * stale response); otherwise the caller sends the local reply for {@code reason}.
     */
    public Stage.Flow upstreamFailure(LocalReason reason) {
        for (int i = next - 1; i >= 0; i--) {
            if (stages[i].onUpstreamFailure(exchange, reason) == Stage.Flow.TAKEN) {
                return Stage.Flow.TAKEN;
            }
        }
        return Stage.Flow.NEXT;
    }

    void responseHead() {
        for (int i = next - 1; i >= 0; i--) {
            stages[i].onResponseHead(exchange);
        }
    }

    /**
     * The response body phase of the response whose head was just sent: the filters of the stages that ran,
     * innermost first; null when none filters the body (the common case).
     */
    public ResponseBodyFilters responseBody() {
        BodyFilter[] filters = null;
        int count = 0;
        for (int i = next - 1; i >= 0; i--) {
            BodyFilter filter = stages[i].onResponseBody(exchange);
            if (filter != null) {
                if (filters == null) {
                    filters = new BodyFilter[i + 1];
                }
                filters[count++] = filter;
            }
        }
        return filters == null ? null : new ResponseBodyFilters(Arrays.copyOf(filters, count));
    }

    /** The logging phase; one stage failing does not keep the others from it. */
    void complete() {
        for (int i = next - 1; i >= 0; i--) {
            try {
                stages[i].onComplete(exchange);
            } catch (RuntimeException e) {
                exchange.loop().logInternalError(exchange, e);
            }
        }
    }

    /** Runs a sub-request through the stages inside {@code from}, on this request's behalf. */
    public Future<SubResponse> subRequest(Stage from, SubRequest request) {
        for (int i = 0; i < stages.length; i++) {
            if (stages[i] == from) {
                return new SubCursor(stages, i + 1).proceed(request);
            }
        }
        return Future.failedFuture(new IllegalStateException("the stage is not in this request's pipeline"));
    }

    /** The sub-request's place in the stage list. */
    private record SubCursor(Stage[] stages, int index) implements SubRequest.Next {

        @Override
        public Future<SubResponse> proceed(SubRequest request) {
            if (index >= stages.length) {
                return Future.failedFuture(new IllegalStateException("no stage answered the sub-request"));
            }
            try {
                return stages[index].onSubRequest(request, new SubCursor(stages, index + 1));
            } catch (RuntimeException e) {
                return Future.failedFuture(e);
            }
        }
    }
}
