package dev.portico.proxy.server.tls;

import dev.portico.proxy.route.TlsTable;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * What one TLS listener presents now, shared by its servers on every loop and read by each handshake
 * ({@link SniKeyManager}, {@link UnknownServerNameRefusal}). A new table is swapped in here rather than by replacing
 * the server's TLS options: Vert.x's {@code updateSSLOptions} leaves the server without a context while it builds
 * the new one on a worker thread, and a connection accepted in that moment was reset. Session ticket keys live in
 * the engine's context, so the contexts built for this listener are told when they change.
 */
public final class PresentedCertificates {

    private final AtomicReference<TlsTable> current;
    /** The table before the last swap: a handshake that chose its alias just before a swap still finds its key. */
    private volatile TlsTable previous;
    private final List<Consumer<TlsTable>> ticketKeyListeners = new CopyOnWriteArrayList<>();

    /** @param initial what is presented until the first {@link #present} (a listener presents its first snapshot's) */
    public PresentedCertificates(TlsTable initial) {
        this.current = new AtomicReference<>(initial);
        this.previous = initial;
    }

    public TlsTable current() {
        return current.get();
    }

    /**
     * Presents {@code next} from the next handshake on; open connections keep their session. Any thread, without a
     * lock (a loop presents its first snapshot as it starts); the snapshots' order is kept by the caller.
     */
    public void present(TlsTable next) {
        TlsTable before;
        do {
            before = current.get();
            if (next.presentsTheSameAs(before)) {
                return;
            }
        } while (!current.compareAndSet(before, next));
        previous = before;
        if (!next.ticketKeys().equals(before.ticketKeys())) {
            for (Consumer<TlsTable> listener : ticketKeyListeners) {
                listener.accept(next);
            }
        }
    }

    /** The entry of {@code alias} in the current table, or in the one before it. */
    TlsTable.Entry byAlias(String alias) {
        TlsTable.Entry entry = current.get().byAlias(alias);
        return entry != null ? entry : previous.byAlias(alias);
    }

    /**
     * Runs {@code apply} with the current table now and with each table whose ticket keys differ from then on (a
     * swap racing with this call may apply the same keys twice, which changes nothing).
     */
    void followTicketKeys(Consumer<TlsTable> apply) {
        ticketKeyListeners.add(apply);
        apply.accept(current.get());
    }
}
