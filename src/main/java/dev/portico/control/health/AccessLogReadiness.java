package dev.portico.control.health;

import dev.portico.telemetry.accesslog.AccessLog;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * Not ready while the access log has never been opened since start: like nginx and Envoy, which refuse to start
 * when they cannot open their access log, a misconfigured path (a read-only root filesystem, a missing volume)
 * stops a rollout at its first pod instead of silently dropping every line. Once the log has been opened, later
 * write failures (a full disk) leave readiness UP, as nginx keeps serving then: taking every replica out of the
 * load balancer would turn lost log lines into lost traffic. They show in the data here, in
 * {@code portico_access_log_writable} and in {@code /api/v1/status}.
 */
@Readiness
@Singleton
public class AccessLogReadiness implements HealthCheck {

    private final AccessLog accessLog;

    public AccessLogReadiness(AccessLog accessLog) {
        this.accessLog = accessLog;
    }

    @Override
    public HealthCheckResponse call() {
        AccessLog.Status status = accessLog.status();
        HealthCheckResponseBuilder builder = HealthCheckResponse.named("access-log")
                .status(!status.enabled() || status.opened())
                .withData("enabled", status.enabled())
                .withData("writable", status.writable())
                .withData("droppedLines", status.droppedLines());
        if (status.destination() != null) {
            builder.withData("destination", status.destination());
        }
        if (status.lastError() != null) {
            builder.withData("lastError", status.lastError());
        }
        return builder.build();
    }
}
