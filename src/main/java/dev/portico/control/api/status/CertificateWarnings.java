package dev.portico.control.api.status;

import dev.portico.proxy.route.TlsTable;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The certificate warnings {@code /api/v1/status} shows: each presented certificate that expires within
 * {@link #SOON} or has expired, and why the snapshot in service lacks stored certificates.
 */
final class CertificateWarnings {

    /** Let's Encrypt's expiry mails start 20 days ahead, and ACME clients renew at 30: 14 days left is late. */
    static final Duration SOON = Duration.ofDays(14);

    private CertificateWarnings() {
    }

    static List<StatusView.CertificateWarning> of(TlsTable presented, String snapshotProblem, Instant now) {
        List<StatusView.CertificateWarning> out = new ArrayList<>();
        if (snapshotProblem != null) {
            out.add(new StatusView.CertificateWarning(null, List.of(), null, snapshotProblem));
        }
        for (TlsTable.Presented certificate : presented.presented()) {
            Instant notAfter = certificate.leaf().getNotAfter().toInstant();
            if (notAfter.isBefore(now.plus(SOON))) {
                out.add(new StatusView.CertificateWarning(certificate.certificateId(), certificate.names(), notAfter,
                        problem(notAfter, now)));
            }
        }
        return out;
    }

    private static String problem(Instant notAfter, Instant now) {
        if (!notAfter.isAfter(now)) {
            return "expired " + notAfter + ": clients refuse it";
        }
        long days = Duration.between(now, notAfter).toDays();
        return "expires in " + (days == 0 ? "less than a day" : days + (days == 1 ? " day" : " days"))
                + " (" + notAfter + ")";
    }
}
