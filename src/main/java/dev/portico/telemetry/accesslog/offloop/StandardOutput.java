package dev.portico.telemetry.accesslog.offloop;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.nio.channels.WritableByteChannel;

/** The process's standard output as a channel, for an access log written there ({@code portico.access-log.file=stdout}). */
public final class StandardOutput {

    private StandardOutput() {
    }

    /**
     * File descriptor 1 itself, not {@code System.out}: nothing buffers or replaces it, and the writes share the
     * descriptor (and its offset, when standard output is a file) with the application's log. Only the writer thread
     * writes to it.
     */
    public static WritableByteChannel channel() {
        return new FileOutputStream(FileDescriptor.out).getChannel();
    }
}
