package dev.portico.proxy.basicauth;

import dev.portico.http.auth.PasswordHash;
import dev.portico.proxy.core.LoopState;
import dev.portico.proxy.core.Slot;
import io.vertx.core.Future;
import io.vertx.core.WorkerExecutor;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The few worker threads password hashes are checked on (bcrypt and argon2 take tens of milliseconds by design, so
 * never on an event loop), with a bounded queue: past {@link #MAX_QUEUED} checks waiting or running in the whole
 * process, a request is refused at once (503 {@code auth_busy}) instead of queueing, so a flood of guesses costs
 * Portico a fixed amount of CPU and memory, and the other vhosts' requests keep their loops.
 */
final class PasswordWorkers {

    /** Half the cores, at least one: the event loops keep the other half while a flood of guesses is checked. */
    static final int THREADS = Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
    /** About a second of bcrypt cost 10 per thread waiting: a client that waits longer would rather hear 503. */
    static final int MAX_QUEUED = 16 * THREADS;

    private static final Slot<LoopState, WorkerExecutor> PER_LOOP = Slot.declare(LoopState.class,
            "password workers");
    private static final AtomicInteger QUEUED = new AtomicInteger();

    private PasswordWorkers() {
    }

    /**
     * Checks {@code password} against {@code hash} on a worker; the result comes back on the loop. The password's
     * bytes are wiped once checked.
     *
     * @return the check, or null when the queue is full (nothing was queued)
     */
    static Future<Boolean> check(LoopState loop, PasswordHash hash, byte[] password) {
        if (QUEUED.incrementAndGet() > MAX_QUEUED) {
            QUEUED.decrementAndGet();
            Arrays.fill(password, (byte) 0);
            return null;
        }
        return executor(loop).<Boolean>executeBlocking(() -> {
            try {
                return hash.matches(password);
            } finally {
                Arrays.fill(password, (byte) 0);
            }
        }, false).andThen(done -> QUEUED.decrementAndGet());
    }

    /** Checks waiting or running now, process-wide: for tests and diagnostics. */
    static int queued() {
        return QUEUED.get();
    }

    /**
     * The loop's handle on the shared pool; a shared executor is pooled by name and closed with the verticle that
     * asked for it, so each loop asks once, on its own thread.
     */
    private static WorkerExecutor executor(LoopState loop) {
        WorkerExecutor executor = loop.get(PER_LOOP);
        if (executor == null) {
            executor = loop.context().owner().createSharedWorkerExecutor("portico-password-checks", THREADS);
            loop.put(PER_LOOP, executor);
        }
        return executor;
    }
}
