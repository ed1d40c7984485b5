package dev.portico.control.api.auth;

import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.runtime.configuration.ConfigurationException;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import jakarta.persistence.EntityManager;
import org.jboss.logging.Logger;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;

/**
 * The management API's bearer token. {@code PORTICO_ADMIN_TOKEN} wins (at least {@value #MIN_LENGTH} characters, or
 * Portico does not start); without it, the first instance to start generates one, stores only its SHA-256 in the
 * database and prints the token once. Every replica sharing the database then accepts the same token.
 */
@Singleton
public class AdminToken {

    private static final Logger LOG = Logger.getLogger(AdminToken.class);
    /** Shortest configured token accepted; a generated one has 43 characters (256 random bits). */
    static final int MIN_LENGTH = 16;

    private final AdminSettings config;
    private final EntityManager entityManager;
    private volatile byte[] expectedSha256;

    public AdminToken(AdminSettings config, EntityManager entityManager) {
        this.config = config;
        this.entityManager = entityManager;
    }

    void init(@Observes @Priority(10) StartupEvent event) {
        var configured = config.token().filter(t -> !t.isBlank());
        if (configured.isPresent()) {
            expectedSha256 = sha256(checkedLength(configured.get()));
            return;
        }
        String generated = generate();
        String stored = QuarkusTransaction.requiringNew().call(() -> {
            entityManager.createNativeQuery("insert into admin_token (id, token_sha256) values (1, :hash) "
                            + "on conflict (id) do nothing")
                    .setParameter("hash", HexFormat.of().formatHex(sha256(generated)))
                    .executeUpdate();
            @SuppressWarnings("unchecked")
            List<String> rows = entityManager.createNativeQuery("select token_sha256 from admin_token where id = 1")
                    .getResultList();
            return rows.get(0);
        });
        expectedSha256 = HexFormat.of().parseHex(stored);
        if (MessageDigest.isEqual(expectedSha256, sha256(generated))) {
            LOG.warnf("%n%n    No PORTICO_ADMIN_TOKEN was set, so one was generated. It is shown only this once:%n%n"
                    + "        %s%n%n    Only its hash is stored. Use it as 'Authorization: Bearer <token>' for /api,"
                    + " or set PORTICO_ADMIN_TOKEN to choose your own.%n", generated);
        } else {
            LOG.info("Management API token: using the generated token stored earlier (set PORTICO_ADMIN_TOKEN to "
                    + "choose one)");
        }
    }

    /**
     * The configured token without surrounding spaces.
     *
     * @throws ConfigurationException when it is shorter than {@link #MIN_LENGTH}, which stops the start: the API
     *                                is reachable over the network, and a short token can be guessed by trying
     */
    static String checkedLength(String configured) {
        String token = configured.strip();
        if (token.length() < MIN_LENGTH) {
            throw new ConfigurationException("PORTICO_ADMIN_TOKEN (portico.admin.token) is " + token.length()
                    + " characters long; it must have at least " + MIN_LENGTH + ", because anyone who can reach the "
                    + "API port may try tokens until one works. Generate one with 'openssl rand -hex 16', or unset "
                    + "it and Portico generates and prints one");
        }
        return token;
    }

    /** Constant-time check of a presented token. */
    public boolean matches(String presented) {
        byte[] expected = expectedSha256;
        return expected != null && presented != null && MessageDigest.isEqual(expected, sha256(presented));
    }

    /**
     * The SHA-256 of the token in force, which session keys are bound to (so a new token ends every session); null
     * before the start has decided on a token.
     */
    byte[] sha256() {
        byte[] expected = expectedSha256;
        return expected == null ? null : expected.clone();
    }

    private static String generate() {
        byte[] bytes = new byte[32];
        new SecureRandom().nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static byte[] sha256(String value) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
