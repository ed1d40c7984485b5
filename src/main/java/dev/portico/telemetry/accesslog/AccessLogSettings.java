package dev.portico.telemetry.accesslog;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.util.Optional;

/**
 * The access log: one line per request, batched per event loop and written by one background thread. Settings under
 * {@code portico.access-log.*}.
 */
@ConfigMapping(prefix = "portico.access-log")
public interface AccessLogSettings {
    /** Line formats: JSON objects, or nginx's {@code combined} plus request id, request time and vhost. */
    enum Format {
        JSON, COMBINED
    }

    /**
     * The file to append to, relative to the working directory unless absolute; {@code stdout} writes to the
     * process's standard output instead (the container images' setting; never rotated); {@code off} (or empty)
     * disables the access log.
     */
    @WithDefault("logs/access.log")
    Optional<String> file();

    @WithDefault("json")
    Format format();

    /** Rotate when the next batch would take the file past this size ({@code access.log -> access.log.1}). */
    @WithDefault("100M")
    MemorySize maxFileSize();

    /** Rotated files kept ({@code access.log.1} to {@code access.log.N}); older ones are deleted. */
    @WithDefault("10")
    int maxFiles();

    /** Size of one event loop's batch buffer, handed to the writer when full or every 200 ms. */
    @WithDefault("64K")
    MemorySize batchSize();

    /** Full batches waiting for the writer; beyond this, batches are dropped and counted. */
    @WithDefault("64")
    int queueBatches();

    /** Log requests no vhost serves (unknown host, malformed request). */
    @WithDefault("true")
    boolean unmatched();
}
