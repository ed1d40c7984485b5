package dev.portico.testing;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;

import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/** The tests' own Vert.x (origins and clients), separate from the one Portico runs on. */
public final class TestVertx {

    private static Vertx vertx;

    private TestVertx() {
    }

    public static synchronized Vertx get() {
        if (vertx == null) {
            vertx = Vertx.vertx();
        }
        return vertx;
    }

    public static <T> T await(Future<T> future) {
        try {
            return future.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Runs {@code start} on {@code context}'s event loop and waits for the future it returns: whatever it starts
     * there (a request, its connection, its callbacks, a loop-owned structure) stays on that one thread.
     */
    public static <T> T onContext(Context context, Supplier<Future<T>> start) {
        Promise<T> outcome = Promise.promise();
        context.runOnContext(v -> start.get().onComplete(outcome));
        return await(outcome.future());
    }
}
