package dev.portico.control.certificates;

import dev.portico.control.api.error.FieldError;

import java.util.Date;
import java.util.List;

/** A certificate chain and key that passed every check, with the facts the API lists. */
public record ValidCertificate(PemBundle bundle, CertificateFacts facts) {

    /**
     * Reads and checks an upload; every problem is added to {@code errors} (fields {@code certificate} and
     * {@code privateKey}), and null is returned when there was any.
     */
    public static ValidCertificate check(String certificatePem, String privateKeyPem, List<FieldError> errors) {
        int before = errors.size();
        PemBundle bundle = PemBundle.parse(certificatePem, privateKeyPem, errors);
        if (bundle == null) {
            return null;
        }
        CertificateChecks.check(bundle, new Date(), errors);
        if (errors.size() > before) {
            return null;
        }
        return new ValidCertificate(bundle, CertificateFacts.of(bundle.chain().get(0), bundle.privateKey()));
    }
}
