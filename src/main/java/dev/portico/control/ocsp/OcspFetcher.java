package dev.portico.control.ocsp;

import org.bouncycastle.asn1.ASN1IA5String;
import org.bouncycastle.asn1.ASN1Primitive;
import org.bouncycastle.asn1.DEROctetString;
import org.bouncycastle.asn1.x509.AccessDescription;
import org.bouncycastle.asn1.x509.AuthorityInformationAccess;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateHolder;
import org.bouncycastle.cert.ocsp.BasicOCSPResp;
import org.bouncycastle.cert.ocsp.CertificateID;
import org.bouncycastle.cert.ocsp.CertificateStatus;
import org.bouncycastle.cert.ocsp.OCSPReqBuilder;
import org.bouncycastle.cert.ocsp.OCSPResp;
import org.bouncycastle.cert.ocsp.SingleResp;
import org.bouncycastle.operator.jcajce.JcaContentVerifierProviderBuilder;
import org.bouncycastle.operator.jcajce.JcaDigestCalculatorProviderBuilder;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Asks a certificate's OCSP responder (named in its Authority Information Access extension) whether it is good,
 * and checks the answer before it is ever stapled: a successful response, signed by the issuer or by a responder
 * the issuer delegated to, about this very certificate, "good", and current. Blocking: worker threads only.
 */
final class OcspFetcher {

    private static final String OCSP_ACCESS_METHOD = "1.3.6.1.5.5.7.48.1";

    private final HttpClient http;
    private final Duration timeout;

    OcspFetcher(Duration timeout) {
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(timeout).followRedirects(HttpClient.Redirect.NEVER).build();
    }

    /** A checked response and how long it is good for. */
    record Staple(byte[] der, Instant thisUpdate, Instant nextUpdate) {
    }

    /** The responder URL of {@code leaf}, if it names one. */
    static Optional<URI> responder(X509Certificate leaf) {
        byte[] extension = leaf.getExtensionValue(Extension.authorityInfoAccess.getId());
        if (extension == null) {
            return Optional.empty();
        }
        try {
            ASN1Primitive value = ASN1Primitive.fromByteArray(DEROctetString.getInstance(extension).getOctets());
            for (AccessDescription description : AuthorityInformationAccess.getInstance(value).getAccessDescriptions()) {
                GeneralName location = description.getAccessLocation();
                if (description.getAccessMethod().getId().equals(OCSP_ACCESS_METHOD)
                        && location.getTagNo() == GeneralName.uniformResourceIdentifier) {
                    String url = ASN1IA5String.getInstance(location.getName()).getString();
                    if (url.startsWith("http://") || url.startsWith("https://")) {
                        return Optional.of(URI.create(url));
                    }
                }
            }
        } catch (IOException | IllegalArgumentException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    /**
     * Fetches and checks the status of {@code leaf}, issued by {@code issuer}.
     *
     * @throws OcspException saying what was wrong, when nothing fit to staple came back
     */
    Staple fetch(URI responder, X509Certificate leaf, X509Certificate issuer) throws OcspException {
        try {
            CertificateID id = new CertificateID(new JcaDigestCalculatorProviderBuilder().build()
                    .get(CertificateID.HASH_SHA1), new JcaX509CertificateHolder(issuer), leaf.getSerialNumber());
            byte[] request = new OCSPReqBuilder().addRequest(id).build().getEncoded();
            HttpResponse<byte[]> reply = http.send(HttpRequest.newBuilder(responder).timeout(timeout)
                    .header("Content-Type", "application/ocsp-request")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(request)).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            if (reply.statusCode() != 200) {
                throw new OcspException(responder + " answered HTTP " + reply.statusCode());
            }
            return check(new OCSPResp(reply.body()), id, issuer, responder);
        } catch (OcspException e) {
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new OcspException("interrupted asking " + responder);
        } catch (Exception e) {
            throw new OcspException("asking " + responder + " failed: " + e.getMessage());
        }
    }

    private static Staple check(OCSPResp response, CertificateID id, X509Certificate issuer, URI responder)
            throws Exception {
        if (response.getStatus() != OCSPResp.SUCCESSFUL) {
            throw new OcspException(responder + " refused: OCSP status " + response.getStatus());
        }
        BasicOCSPResp basic = (BasicOCSPResp) response.getResponseObject();
        if (!signedByIssuerOrDelegate(basic, issuer)) {
            throw new OcspException("the response of " + responder + " is not signed by the issuer or its delegate");
        }
        Instant now = Instant.now();
        for (SingleResp single : basic.getResponses()) {
            if (!single.getCertID().equals(id)) {
                continue;
            }
            if (single.getCertStatus() != CertificateStatus.GOOD) {
                throw new OcspException(responder + " says the certificate is not good (revoked or unknown)");
            }
            Instant thisUpdate = single.getThisUpdate().toInstant();
            Instant nextUpdate = single.getNextUpdate() == null ? thisUpdate.plus(Duration.ofHours(24))
                    : single.getNextUpdate().toInstant();
            if (thisUpdate.isAfter(now.plus(Duration.ofMinutes(5))) || !nextUpdate.isAfter(now)) {
                throw new OcspException("the response of " + responder + " is not current");
            }
            return new Staple(response.getEncoded(), thisUpdate, nextUpdate);
        }
        throw new OcspException("the response of " + responder + " is about another certificate");
    }

    private static boolean signedByIssuerOrDelegate(BasicOCSPResp basic, X509Certificate issuer) throws Exception {
        JcaContentVerifierProviderBuilder verifiers = new JcaContentVerifierProviderBuilder();
        if (basic.isSignatureValid(verifiers.build(issuer.getPublicKey()))) {
            return true;
        }
        for (X509CertificateHolder delegate : basic.getCerts()) {
            boolean issuedByIssuer = delegate.isSignatureValid(verifiers.build(issuer.getPublicKey()));
            ExtendedKeyUsage usage = delegate.getExtensions() == null ? null
                    : ExtendedKeyUsage.fromExtensions(delegate.getExtensions());
            boolean forOcsp = usage != null && usage.hasKeyPurposeId(KeyPurposeId.id_kp_OCSPSigning);
            if (issuedByIssuer && forOcsp && basic.isSignatureValid(verifiers.build(delegate))) {
                return true;
            }
        }
        return false;
    }

    /** Why no response was stapled for a certificate. */
    static final class OcspException extends Exception {
        OcspException(String message) {
            super(message, null, false, false);
        }
    }
}
