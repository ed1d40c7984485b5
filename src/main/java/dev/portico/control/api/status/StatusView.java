package dev.portico.control.api.status;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.time.Instant;
import java.util.List;

/** What {@code GET /api/v1/status} reports. */
@Schema(name = "Status")
public record StatusView(
        @Schema(description = "Configuration version of the routing snapshot being served") long snapshotVersion,
        @Schema(description = "When that snapshot was built") Instant snapshotBuiltAt,
        int vhostCount,
        @Schema(description = "Why the last reload failed, if it did; the previous snapshot stays in service")
        String lastReloadError,
        @Schema(description = "When that reload failed; null while lastReloadError is null") Instant lastReloadErrorAt,
        @Schema(description = "False from the first failed database operation (an API call, a reload, a purge's "
                + "NOTIFY) until a probe reaches the database again; the API answers 503 meanwhile")
        boolean databaseReachable,
        @Schema(description = "Why the database is unreachable; null while it is reachable") String databaseError,
        @Schema(description = "When the database became unreachable; null while it is reachable")
        Instant databaseUnreachableSince,
        boolean dataPlaneListening,
        int dataPlanePort,
        int inFlightRequests,
        @Schema(description = "This instance's pseudonym in Via headers") String via,
        @Schema(description = "Vhosts of the served snapshot whose static.root is not a readable directory: they "
                + "serve no file until it is") List<StaticRootWarning> staticRootWarnings,
        AccessLogView accessLog,
        @Schema(description = "Certificates the TLS listener presents that expire within 14 days or have expired, "
                + "and why the served snapshot lacks stored certificates (e.g. no secret key)")
        List<CertificateWarning> certificateWarnings,
        @Schema(description = "Upstream host names whose last DNS query failed: their upstreams keep the addresses "
                + "of the last answer (or are connected to by name when there was none)")
        List<DnsProblem> dnsProblems,
        @Schema(description = "Served vhosts none of whose upstreams takes traffic now (unknown, unhealthy, ejected): "
                + "their requests get 503 no_healthy_upstream; GET /api/v1/vhosts/{id}/upstreams says why")
        List<String> vhostsWithoutHealthyUpstream) {

    /** An upstream host name DNS does not answer for now. */
    @Schema(name = "DnsProblem")
    public record DnsProblem(@Schema(example = "api.internal") String name,
                             @Schema(example = "query timed out after 2000 milliseconds") String error,
                             @Schema(description = "Since when its queries fail") Instant since) {
    }

    /** A certificate to renew, or (certificate null) why stored certificates could not be loaded. */
    @Schema(name = "CertificateWarning")
    public record CertificateWarning(
            @Schema(description = "The stored certificate's id; null for a problem of the snapshot as a whole")
            String certificate,
            @Schema(description = "The server names it is presented for; empty when it is only the default")
            List<String> names,
            @Schema(description = "When it expires") Instant notAfter,
            @Schema(example = "expires in 5 days (2026-12-08T20:00:00Z)") String problem) {
    }

    /** A vhost whose static root cannot be served from, and why. */
    @Schema(name = "StaticRootWarning")
    public record StaticRootWarning(String vhost, String root,
                                    @Schema(example = "does not exist") String problem) {
    }
}
