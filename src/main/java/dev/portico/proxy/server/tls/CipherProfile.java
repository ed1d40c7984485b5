package dev.portico.proxy.server.tls;

import java.util.List;
import java.util.Set;

/**
 * The protocol versions and TLS 1.2 cipher suites the TLS listener accepts, after Mozilla's server-side TLS
 * guidelines (version 5.7). TLS 1.3's suites are not listed: both engines offer only the three AEAD suites RFC 8446
 * defines, which every profile accepts.
 */
public enum CipherProfile {

    /**
     * Mozilla "intermediate": TLS 1.2 and 1.3, forward-secret AEAD suites only. Mozilla's DHE suites are left out:
     * BoringSSL has none, and both engines should accept the same clients.
     */
    INTERMEDIATE(Set.of("TLSv1.2", "TLSv1.3"), List.of(
            "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
            "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
            "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
            "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
            "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
            "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256",
            // The TLS 1.3 suites, named so the JDK engine keeps them enabled beside the 1.2 list.
            "TLS_AES_128_GCM_SHA256",
            "TLS_AES_256_GCM_SHA384",
            "TLS_CHACHA20_POLY1305_SHA256")),

    /** Mozilla "modern": TLS 1.3 only, for sites whose clients are all recent. */
    MODERN(Set.of("TLSv1.3"), List.of(
            "TLS_AES_128_GCM_SHA256",
            "TLS_AES_256_GCM_SHA384",
            "TLS_CHACHA20_POLY1305_SHA256"));

    private final Set<String> protocols;
    private final List<String> cipherSuites;

    CipherProfile(Set<String> protocols, List<String> cipherSuites) {
        this.protocols = protocols;
        this.cipherSuites = cipherSuites;
    }

    /** The protocol versions accepted, in the JDK's names ({@code TLSv1.3}). */
    public Set<String> protocols() {
        return protocols;
    }

    /** The cipher suites accepted, in the JDK's names, in the server's order of preference. */
    public List<String> cipherSuites() {
        return cipherSuites;
    }
}
