package dev.portico.control.secrets;

import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.runtime.configuration.ConfigurationException;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import jakarta.persistence.EntityManager;
import org.jboss.logging.Logger;

import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * Decides at start which key seals secrets, and checks it against the database: only the key's id is stored
 * ({@code secret_key_check}), never the key. Unlike the admin token, whose hash is enough to compare, sealed
 * secrets must be opened again by every replica and after every restart, so the key itself must be configured
 * ({@code PORTICO_SECRET_KEY}) wherever Portico runs.
 * <ul>
 *   <li>Configured and matching the stored id, or nothing stored yet: used.</li>
 *   <li>Configured but another key sealed the stored secrets: Portico refuses to start, naming both ids, rather
 *       than run with certificates it cannot serve. With no sealed secrets yet the new key simply replaces the
 *       id.</li>
 *   <li>Not configured on a fresh database: generated, its id stored, and printed once, like the admin token.</li>
 *   <li>Not configured, with a key id stored but nothing sealed under it yet: a new key is generated and printed,
 *       as on a fresh database.</li>
 *   <li>Not configured, with secrets sealed under the stored key id: there is no key. Portico still starts (plain
 *       HTTP keeps working), serves no stored certificate, refuses uploads, and says why in the log and
 *       {@code /api/v1/status}.</li>
 * </ul>
 */
@Singleton
public class SecretKeySource {

    /** After the admin token (10), before the first snapshot (100) which decrypts certificates. */
    public static final int STARTUP_PRIORITY = 20;

    /** Tables whose rows hold sealed secrets: with any row in them, the key can no longer change. */
    static final List<String> SEALED_TABLES = List.of("certificate", "acme_account");

    private static final Logger LOG = Logger.getLogger(SecretKeySource.class);

    private final SecretSettings settings;
    private final EntityManager entityManager;
    private volatile SecretBox box;
    private volatile String unavailable = "not started";

    public SecretKeySource(SecretSettings settings, EntityManager entityManager) {
        this.settings = settings;
        this.entityManager = entityManager;
    }

    void init(@Observes @Priority(STARTUP_PRIORITY) StartupEvent event) {
        Optional<String> configured = settings.key().filter(text -> !text.isBlank());
        if (configured.isPresent()) {
            useConfigured(parse(configured.get()));
        } else {
            useGenerated();
        }
    }

    /** The key, when there is one. */
    public Optional<SecretBox> box() {
        return Optional.ofNullable(box);
    }

    /** The key, or an exception saying why there is none (for callers that cannot go on without it). */
    public SecretBox require() {
        SecretBox current = box;
        if (current == null) {
            throw new SecretUnreadableException(unavailable);
        }
        return current;
    }

    /** Why there is no key, or null when there is one. */
    public String unavailableReason() {
        return box == null ? unavailable : null;
    }

    private static SecretBox parse(String text) {
        try {
            return SecretBox.parse(text);
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException("PORTICO_SECRET_KEY (portico.secret.key) is not usable: " + e.getMessage());
        }
    }

    private void useConfigured(SecretBox configured) {
        String stored = claim(configured.keyId());
        if (!stored.equals(configured.keyId())) {
            boolean replaced = QuarkusTransaction.requiringNew().call(() -> {
                if (sealedRowsExist()) {
                    return false;
                }
                entityManager.createNativeQuery("update secret_key_check set key_id = :id, created_at = now() "
                        + "where id = 1").setParameter("id", configured.keyId()).executeUpdate();
                return true;
            });
            if (!replaced) {
                throw new ConfigurationException("PORTICO_SECRET_KEY (key id " + configured.keyId() + ") is not the "
                        + "key the stored private keys were encrypted with (key id " + stored + "). Set "
                        + "PORTICO_SECRET_KEY to that key (every replica needs the same one); Portico does not start "
                        + "with certificates it cannot decrypt");
            }
            LOG.infof("Secret key changed to key id %s (no secrets were stored under the previous key %s)",
                    configured.keyId(), stored);
        }
        box = configured;
        unavailable = null;
    }

    private void useGenerated() {
        byte[] generatedKey = SecretBox.generateKey();
        SecretBox generated = new SecretBox(generatedKey);
        String stored = claim(generated.keyId());
        if (!stored.equals(generated.keyId()) && replaceUnlessSealed(generated.keyId())) {
            stored = generated.keyId();
        }
        if (stored.equals(generated.keyId())) {
            box = generated;
            unavailable = null;
            LOG.warnf("%n%n    No PORTICO_SECRET_KEY was set, so one was generated. It encrypts private keys in the "
                            + "database and is shown only this once:%n%n        %s%n%n    Set PORTICO_SECRET_KEY to it "
                            + "for every later start and every replica, or they cannot use the stored "
                            + "certificates.%n",
                    Base64.getEncoder().encodeToString(generatedKey));
            return;
        }
        unavailable = "PORTICO_SECRET_KEY is not set, and the stored secrets were encrypted with key id " + stored
                + ": set PORTICO_SECRET_KEY to the key the first instance printed. Until then no stored certificate "
                + "is served and none can be uploaded";
        LOG.error(unavailable);
    }

    /**
     * Makes {@code keyId} the stored id when no secret is sealed under the stored one (an earlier start printed a key
     * nobody used): the later start prints its own instead of running without. Answers whether it is stored now.
     */
    private boolean replaceUnlessSealed(String keyId) {
        return QuarkusTransaction.requiringNew().call(() -> {
            if (sealedRowsExist()) {
                return false;
            }
            entityManager.createNativeQuery("update secret_key_check set key_id = :id, created_at = now() where id = 1")
                    .setParameter("id", keyId).executeUpdate();
            return true;
        });
    }

    /** Stores {@code keyId} unless an id is stored already; answers the stored one. */
    private String claim(String keyId) {
        return QuarkusTransaction.requiringNew().call(() -> {
            entityManager.createNativeQuery("insert into secret_key_check (id, key_id) values (1, :id) "
                    + "on conflict (id) do nothing").setParameter("id", keyId).executeUpdate();
            return (String) entityManager.createNativeQuery("select key_id from secret_key_check where id = 1")
                    .getSingleResult();
        });
    }

    private boolean sealedRowsExist() {
        for (String table : SEALED_TABLES) {
            if (!entityManager.createNativeQuery("select 1 from " + table + " limit 1").getResultList().isEmpty()) {
                return true;
            }
        }
        return false;
    }
}
