package dev.portico.control.api.stats;

import dev.portico.telemetry.Drops;

import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * Sends to one slow consumer without ever queueing: while a send is still in progress, further sends are dropped
 * and counted as {@link Drops.Kind#SSE_EVENTS}. A failed send marks the consumer gone.
 */
final class OneInFlight {

    private final Runnable onFailure;
    private final Drops drops;
    private volatile boolean sending;
    private volatile boolean failed;

    OneInFlight(Runnable onFailure, Drops drops) {
        this.onFailure = onFailure;
        this.drops = drops;
    }

    /** @return whether the send was started (false: dropped) */
    boolean offer(Supplier<? extends CompletionStage<?>> send) {
        if (!tryOffer(send)) {
            drops.add(Drops.Kind.SSE_EVENTS, 1);
            return false;
        }
        return true;
    }

    /** Starts the send unless one is in progress; nothing is dropped (the caller keeps what it wanted to send). */
    boolean tryOffer(Supplier<? extends CompletionStage<?>> send) {
        if (sending || failed) {
            return false;
        }
        sending = true;
        send.get().whenComplete((ignored, error) -> {
            sending = false;
            if (error != null) {
                failed = true;
                onFailure.run();
            }
        });
        return true;
    }

    boolean failed() {
        return failed;
    }
}
