package dev.portico.control.definition;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A vhost's passive outlier detection, as clients write it; every field has a default. */
@Schema(name = "OutlierDetection", description = "Passive health (Envoy's outlier detection): an upstream that "
        + "answers 5xx or fails several times in a row is ejected for baseEjectionTime, n times that on its n-th "
        + "ejection in a row (up to maxEjectionTime); so is one whose share of failed requests over failureRatioWindow "
        + "reaches failureRatio (off by default). At most maxEjectedPercent of the upstreams at once, and never a "
        + "vhost's only upstream")
public record OutlierDetectionDefinition(
        @Schema(description = "Eject upstreams by the rules below", defaultValue = "true")
        Boolean enabled,
        @Schema(description = "5xx responses in a row that eject, 0-1000 (0: never)", defaultValue = "5")
        Integer consecutive5xx,
        @Schema(description = "Connect failures, timeouts and resets in a row that eject, 0-1000 (0: never)",
                defaultValue = "5")
        Integer consecutiveGatewayErrors,
        @Schema(description = "Length of a first ejection, 1s to 1h", defaultValue = "30s")
        String baseEjectionTime,
        @Schema(description = "Longest ejection, at least baseEjectionTime, at most 1d", defaultValue = "5m")
        String maxEjectionTime,
        @Schema(description = "Share of the vhost's upstreams that may be ejected at once, rounded down, 0-100",
                defaultValue = "50")
        Integer maxEjectedPercent,
        @Schema(description = "Eject an upstream when at least this share of its requests over failureRatioWindow "
                + "failed (connect failures, timeouts, resets and 5xx responses), 0 to 1, e.g. 0.5 for 50% (Envoy's "
                + "failure_percentage_threshold as a ratio); 0 turns it off", defaultValue = "0")
        Double failureRatio,
        @Schema(description = "The failure ratio counts only for an upstream with at least this many requests within "
                + "the window, 1-100000", defaultValue = "50")
        Integer failureRatioMinRequests,
        @Schema(description = "The sliding window the failure ratio is measured over, 1s to 10m", defaultValue = "10s")
        String failureRatioWindow) {
}
