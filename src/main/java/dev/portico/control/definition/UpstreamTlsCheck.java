package dev.portico.control.definition;

import dev.portico.control.api.error.FieldError;
import dev.portico.control.definition.VhostDefinition.UpstreamDefinition.UpstreamTlsDefinition;
import dev.portico.vhost.UpstreamTlsSpec;

import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * Checks and normalises an upstream's {@code tls} object, and turns the stored form into an {@link UpstreamTlsSpec}.
 * Settings that would be silently ignored are refused: {@code tls} on an {@code http://} upstream, and a
 * {@code caBundle} next to {@code verify: false}.
 */
final class UpstreamTlsCheck {

    private UpstreamTlsCheck() {
    }

    /**
     * @param field  the {@code tls} object's path, such as {@code upstreams[0].tls}
     * @param https  whether the upstream's URL is {@code https://}
     * @return the normalised settings ({@code verify} filled in, the server name lower case), or null when none
     */
    static UpstreamTlsDefinition normalise(String field, UpstreamTlsDefinition in, boolean https,
                                           List<FieldError> errors) {
        if (in == null) {
            return null;
        }
        if (!https) {
            int before = errors.size();
            refusedOnCleartext(field + ".caBundle", in.caBundle(), errors);
            refusedOnCleartext(field + ".verify", in.verify(), errors);
            refusedOnCleartext(field + ".serverName", in.serverName(), errors);
            refusedOnCleartext(field + ".clientCertificate", in.clientCertificate(), errors);
            if (errors.size() == before) {
                errors.add(new FieldError(field, "is only for https:// upstreams"));
            }
            return in;
        }
        boolean verify = in.verify() == null || in.verify();
        String caBundle = in.caBundle();
        if (caBundle != null) {
            if (!verify) {
                errors.add(new FieldError(field + ".caBundle",
                        "has no effect with verify: false, which trusts any certificate: remove one of them"));
            } else {
                try {
                    CaBundleText.check(caBundle);
                } catch (IllegalArgumentException e) {
                    errors.add(new FieldError(field + ".caBundle", e.getMessage()));
                }
            }
        }
        return new UpstreamTlsDefinition(caBundle, verify, serverName(field + ".serverName", in.serverName(), errors),
                clientCertificate(field + ".clientCertificate", in.clientCertificate(), errors));
    }

    /** The settings of a stored, normalised upstream; the defaults when it has none. */
    static UpstreamTlsSpec toSpec(UpstreamTlsDefinition d) {
        if (d == null) {
            return UpstreamTlsSpec.DEFAULT;
        }
        return new UpstreamTlsSpec(d.caBundle(), d.verify() == null || d.verify(), d.serverName(),
                d.clientCertificate() == null ? null : UUID.fromString(d.clientCertificate()));
    }

    /** A certificate id (whether it is stored is the vhost service's check), lower case. */
    private static String clientCertificate(String field, String raw, List<FieldError> errors) {
        if (raw == null) {
            return null;
        }
        String id = raw.strip().toLowerCase(Locale.ROOT);
        try {
            if (UUID.fromString(id).toString().equals(id)) {
                return id;
            }
        } catch (IllegalArgumentException e) {
            // reported below
        }
        errors.add(new FieldError(field, "must be the id of an uploaded certificate (a UUID)"));
        return raw;
    }

    private static void refusedOnCleartext(String field, Object value, List<FieldError> errors) {
        if (value != null) {
            errors.add(new FieldError(field, "is only for https:// upstreams"));
        }
    }

    /** A DNS name: RFC 6066 section 3 allows no IP literal in SNI, and a certificate is checked for one name. */
    private static String serverName(String field, String raw, List<FieldError> errors) {
        if (raw == null) {
            return null;
        }
        String name = raw.trim().toLowerCase(Locale.ROOT);
        if (name.endsWith(".")) {
            name = name.substring(0, name.length() - 1);
        }
        String problem = name.isEmpty() ? "must not be empty" : VhostValidator.hostnameProblem(name);
        if (problem == null && (name.startsWith("*") || name.startsWith("["))) {
            problem = "must be one host name, not a wildcard or an address";
        }
        if (problem == null && (io.netty.util.NetUtil.isValidIpV4Address(name)
                || io.netty.util.NetUtil.isValidIpV6Address(name))) {
            problem = "must be a host name: SNI carries no IP address (RFC 6066 section 3)";
        }
        if (problem != null) {
            errors.add(new FieldError(field, problem));
            return raw;
        }
        return name;
    }
}
