package dev.portico.control.api.status;

import dev.portico.telemetry.accesslog.AccessLog;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.time.Instant;

/** The access log in {@code GET /api/v1/status}: where it goes and whether lines reach it. */
@Schema(name = "AccessLogStatus")
public record AccessLogView(
        @Schema(description = "False when portico.access-log.file is off") boolean enabled,
        @Schema(description = "The absolute file path, or stdout; null when off") String path,
        @Schema(description = "Whether lines reach it: opened, and the last write, if any, succeeded. False means "
                + "lines are being dropped") boolean writable,
        @Schema(description = "The last failure to open or write it, kept after it recovered") String lastError,
        @Schema(description = "When that failure happened") Instant lastErrorAt,
        @Schema(description = "Lines dropped since start: destination failures and a writer that fell behind")
        long droppedLines) {

    static AccessLogView of(AccessLog.Status status) {
        return new AccessLogView(status.enabled(), status.destination(), status.writable(), status.lastError(),
                status.lastErrorAt(), status.droppedLines());
    }
}
