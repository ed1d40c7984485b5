package dev.portico.testing;

import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.util.concurrent.TimeUnit;

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
}
