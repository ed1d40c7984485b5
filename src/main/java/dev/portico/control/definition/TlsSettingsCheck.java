package dev.portico.control.definition;

import dev.portico.control.api.error.FieldError;
import dev.portico.control.definition.VhostDefinition.HstsDefinition;
import dev.portico.control.definition.VhostDefinition.TlsDefinition;
import dev.portico.vhost.TlsSpec;

import java.util.List;
import java.util.UUID;

/**
 * Validates and normalises a vhost's {@code tls} block, and turns the normal form into a {@link TlsSpec}. Whether
 * the named certificate exists and covers the host names needs the database: the vhost service checks that.
 */
final class TlsSettingsCheck {

    /** A year: the common HSTS lifetime, and the least the browsers' preload lists take. */
    static final long DEFAULT_HSTS_MAX_AGE = 31_536_000;
    /** Two years: what the preload list asks of new entries is one, most sites send two; more is a typo. */
    static final long MAX_HSTS_MAX_AGE = 2 * 63_072_000L;

    static final TlsDefinition DEFAULT = new TlsDefinition(null, false, false, null);

    private TlsSettingsCheck() {
    }

    /** The block with defaults filled in; problems are added to {@code errors} under {@code tls.*}. */
    static TlsDefinition normalise(TlsDefinition in, List<String> hostnames, List<FieldError> errors) {
        if (in == null) {
            return DEFAULT;
        }
        String certificate = in.certificate() == null ? null : in.certificate().strip().toLowerCase();
        if (certificate != null && !isUuid(certificate)) {
            errors.add(new FieldError("tls.certificate", "must be the id of an uploaded certificate (a UUID)"));
        }
        boolean acme = in.acme() != null && in.acme();
        if (acme && hostnames != null) {
            acmeNames(hostnames, errors);
        }
        if (acme && certificate != null) {
            errors.add(new FieldError("tls.acme", "cannot be true together with tls.certificate: name a certificate "
                    + "or ask for an automatic one, not both"));
        }
        boolean redirect = in.httpsRedirect() != null && in.httpsRedirect();
        boolean secured = certificate != null || acme;
        if (redirect && !secured) {
            errors.add(new FieldError("tls.httpsRedirect", "needs tls.certificate or tls.acme: clients would be sent "
                    + "to an https URL no certificate of this vhost serves"));
        }
        HstsDefinition hsts = hsts(in.hsts(), errors);
        if (hsts != null && !secured) {
            errors.add(new FieldError("tls.hsts", "needs tls.certificate or tls.acme"));
        }
        return new TlsDefinition(certificate, acme, redirect, hsts);
    }

    /**
     * ACME validates names with HTTP-01, which proves control of one exact DNS name: a wildcard needs DNS-01 and an
     * IP address is not a name Let's Encrypt issues for.
     */
    private static void acmeNames(List<String> hostnames, List<FieldError> errors) {
        for (String hostname : hostnames) {
            if (hostname == null) {
                continue;
            }
            if (hostname.startsWith("*.")) {
                errors.add(new FieldError("tls.acme", "cannot obtain a certificate for '" + hostname + "': HTTP-01 "
                        + "validation proves exact names only (a wildcard needs DNS-01); upload a wildcard certificate "
                        + "instead"));
            } else if (hostname.indexOf('.') < 0 || io.netty.util.NetUtil.isValidIpV4Address(hostname)
                    || io.netty.util.NetUtil.isValidIpV6Address(hostname)) {
                errors.add(new FieldError("tls.acme", "cannot obtain a certificate for '" + hostname + "': a public "
                        + "CA issues for DNS names with a dot, not for addresses or single labels"));
            }
        }
    }

    private static HstsDefinition hsts(HstsDefinition in, List<FieldError> errors) {
        if (in == null) {
            return null;
        }
        long maxAge = in.maxAge() == null ? DEFAULT_HSTS_MAX_AGE : in.maxAge();
        if (maxAge < 0 || maxAge > MAX_HSTS_MAX_AGE) {
            errors.add(new FieldError("tls.hsts.maxAge", "must be 0-" + MAX_HSTS_MAX_AGE + " seconds"));
        }
        boolean subdomains = in.includeSubDomains() != null && in.includeSubDomains();
        boolean preload = in.preload() != null && in.preload();
        if (preload && (!subdomains || maxAge < DEFAULT_HSTS_MAX_AGE)) {
            errors.add(new FieldError("tls.hsts.preload", "needs includeSubDomains and a maxAge of at least "
                    + DEFAULT_HSTS_MAX_AGE + " (what browsers' preload lists accept)"));
        }
        return new HstsDefinition((int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, maxAge)), subdomains, preload);
    }

    /** For output: definitions stored before TLS existed have no block. */
    static TlsDefinition normalised(TlsDefinition stored) {
        return stored == null ? DEFAULT : stored;
    }

    /** For a normalised block. */
    static TlsSpec toSpec(TlsDefinition d) {
        if (d == null) {
            return TlsSpec.NONE;
        }
        HstsDefinition hsts = d.hsts();
        return new TlsSpec(d.certificate() == null ? null : UUID.fromString(d.certificate()),
                Boolean.TRUE.equals(d.acme()), Boolean.TRUE.equals(d.httpsRedirect()),
                hsts == null ? null : new TlsSpec.Hsts(hsts.maxAge(), Boolean.TRUE.equals(hsts.includeSubDomains()),
                        Boolean.TRUE.equals(hsts.preload())));
    }

    private static boolean isUuid(String text) {
        try {
            return UUID.fromString(text).toString().equals(text);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
