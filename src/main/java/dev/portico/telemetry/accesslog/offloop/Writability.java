package dev.portico.telemetry.accesslog.offloop;

import java.time.Instant;

/**
 * Whether the access log's destination takes lines, as the writer thread last found it; read by readiness, the
 * {@code portico_access_log_writable} metric and {@code /api/v1/status}. Only the writer (and the thread that starts
 * it) writes here, and a healthy log only reads one volatile per batch: the fields change on failures and on the
 * first success after one.
 */
public final class Writability {

    private volatile boolean opened;
    private volatile boolean writable;
    private volatile boolean writeFailing;
    private volatile String lastError;
    private volatile Instant lastErrorAt;

    /**
     * The destination was opened. That makes it writable again after a failed open, not after a failed write: a
     * full disk opens fine and fails again, so only a written batch clears that.
     */
    public void opened() {
        opened = true;
        if (!writeFailing) {
            writable = true;
        }
    }

    /** A batch reached the destination. */
    public void written() {
        if (!writable || writeFailing) {
            writeFailing = false;
            writable = true;
        }
    }

    public void openFailed(String error) {
        writable = false;
        failed(error);
    }

    public void writeFailed(String error) {
        writeFailing = true;
        writable = false;
        failed(error);
    }

    /** Whether the destination has been opened at least once since start. */
    public boolean everOpened() {
        return opened;
    }

    public boolean writable() {
        return writable;
    }

    /** The last failure, kept after the log recovered (with {@link #lastErrorAt()}) so an operator can see it. */
    public String lastError() {
        return lastError;
    }

    public Instant lastErrorAt() {
        return lastErrorAt;
    }

    private void failed(String error) {
        lastErrorAt = Instant.now();
        lastError = error;
    }
}
