package dev.portico.control.api.certificate;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A certificate to store, as {@code POST /api/v1/certificates} takes it. */
@Schema(name = "CertificateUpload")
public record CertificateUpload(
        @Schema(description = "PEM chain, leaf first, each certificate followed by its issuer (the root may be left "
                + "out)", required = true, example = "-----BEGIN CERTIFICATE-----\nMIIB...\n-----END CERTIFICATE-----\n")
        String certificate,
        @Schema(description = "PEM private key of the leaf, unencrypted: PKCS#8 (PRIVATE KEY), PKCS#1 (RSA PRIVATE "
                + "KEY) or SEC1 (EC PRIVATE KEY). RSA of at least 2048 bits or ECDSA P-256/P-384. Stored encrypted "
                + "with PORTICO_SECRET_KEY and never returned", required = true)
        String privateKey) {
}
