package dev.portico.control.api.auth;

import dev.portico.control.secrets.SecretBox;
import dev.portico.control.secrets.SecretKeySource;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.runtime.configuration.ConfigurationException;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;

/**
 * Issues and checks the {@value #NAME} cookie: a stateless value, {@code base64url(version(1) || id(16) ||
 * expiresAt(8, epoch seconds) || HMAC-SHA256(32))}, so any replica checks it with no database round trip, also during
 * a database outage. The MAC key is derived from the secret key ({@code PORTICO_SECRET_KEY}, shared by every replica)
 * and bound to the admin token's hash: a new admin token ends every session. A signed-out session stays refused
 * through {@link SessionRevocations}.
 * <p>
 * The CSRF token is an HMAC of the session id under a second derived key: bound to the session, never stored, and
 * readable by the page only from the sign-in answer, never from the cookie (which scripts cannot read).
 */
@Singleton
public class SessionCookies {

    public static final String NAME = "portico_session";
    /** After the secret key (SecretKeySource) and the admin token are known. */
    static final int STARTUP_PRIORITY = SecretKeySource.STARTUP_PRIORITY + 5;

    private static final Logger LOG = Logger.getLogger(SessionCookies.class);
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final byte VERSION = 1;
    private static final int ID_BYTES = 16;
    private static final int SIGNED_BYTES = 1 + ID_BYTES + Long.BYTES;
    private static final int MAC_BYTES = 32;
    private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

    /** The two keys: one signs cookies, the other makes CSRF tokens, so neither value can stand in for the other. */
    private record Keys(SecretKeySpec cookie, SecretKeySpec csrf) {
    }

    private final SecretKeySource secrets;
    private final AdminToken token;
    private final DashboardSettings settings;
    private final SessionRevocations revocations;
    private volatile Keys keys;

    public SessionCookies(SecretKeySource secrets, AdminToken token, DashboardSettings settings,
                          SessionRevocations revocations) {
        this.secrets = secrets;
        this.token = token;
        this.settings = settings;
        this.revocations = revocations;
    }

    void init(@Observes @Priority(STARTUP_PRIORITY) StartupEvent event) {
        if (settings.sessionLifetime().isNegative() || settings.sessionLifetime().isZero()) {
            throw new ConfigurationException(
                    "portico.dashboard.session-lifetime must be positive, not " + settings.sessionLifetime());
        }
        if (settings.maxSignInFailures() < 1) {
            throw new ConfigurationException("portico.dashboard.max-sign-in-failures must be at least 1, not "
                    + settings.maxSignInFailures() + " (sign-in would be refused to everyone)");
        }
        settings.publicOrigin().filter(origin -> ApiAuthFilter.normalised(origin) == null).ifPresent(origin -> {
            throw new ConfigurationException("portico.dashboard.public-origin must be scheme://host[:port], such as "
                    + "https://portico.example.com, not '" + origin + "'");
        });
        byte[] base = secrets.box().map(box -> box.derive("portico:dashboard-sessions")).orElseGet(() -> {
            LOG.warn("No secret key: dashboard sessions are signed with a key of this process only, so a restart "
                    + "signs everyone out and another replica does not accept them");
            return SecretBox.generateKey();
        });
        byte[] bound = hmac(new SecretKeySpec(base, "HmacSHA256"), token.sha256());
        keys = new Keys(new SecretKeySpec(hmac(bound, "cookie"), "HmacSHA256"),
                new SecretKeySpec(hmac(bound, "csrf"), "HmacSHA256"));
    }

    /** A new session that ends one lifetime after {@code now}. */
    public DashboardSession issue(Instant now) {
        byte[] id = new byte[ID_BYTES];
        RANDOM.nextBytes(id);
        return new DashboardSession(id, now.plus(settings.sessionLifetime()).truncatedTo(ChronoUnit.SECONDS));
    }

    /** The cookie value carrying {@code session}. */
    public String value(DashboardSession session) {
        ByteBuffer signed = ByteBuffer.allocate(SIGNED_BYTES + MAC_BYTES);
        signed.put(VERSION).put(session.id()).putLong(session.expiresAt().getEpochSecond());
        byte[] mac = hmac(ready().cookie(), Arrays.copyOf(signed.array(), SIGNED_BYTES));
        signed.put(mac);
        return BASE64URL.encodeToString(signed.array());
    }

    /**
     * The session a cookie value carries, when it is well-formed, signed with this deployment's key under the current
     * admin token, not expired at {@code now} and not signed out; empty otherwise (before the start has made the keys
     * too).
     */
    public Optional<DashboardSession> verify(String value, Instant now) {
        Keys current = keys;
        if (current == null || value == null) {
            return Optional.empty();
        }
        byte[] bytes;
        try {
            bytes = Base64.getUrlDecoder().decode(value.strip());
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        if (bytes.length != SIGNED_BYTES + MAC_BYTES || bytes[0] != VERSION) {
            return Optional.empty();
        }
        byte[] expected = hmac(current.cookie(), Arrays.copyOf(bytes, SIGNED_BYTES));
        if (!MessageDigest.isEqual(expected, Arrays.copyOfRange(bytes, SIGNED_BYTES, bytes.length))) {
            return Optional.empty();
        }
        ByteBuffer read = ByteBuffer.wrap(bytes, 1, SIGNED_BYTES - 1);
        byte[] id = new byte[ID_BYTES];
        read.get(id);
        Instant expiresAt = Instant.ofEpochSecond(read.getLong());
        if (!now.isBefore(expiresAt) || revocations.isRevoked(id)) {
            return Optional.empty();
        }
        return Optional.of(new DashboardSession(id, expiresAt));
    }

    /** The CSRF token of {@code session}: what state-changing calls made with its cookie send in a header. */
    public String csrfToken(DashboardSession session) {
        return BASE64URL.encodeToString(hmac(ready().csrf(), session.id()));
    }

    /** Whether {@code presented} is the CSRF token of {@code session}, compared in constant time. */
    public boolean csrfMatches(DashboardSession session, String presented) {
        return presented != null && MessageDigest.isEqual(csrfToken(session).getBytes(StandardCharsets.US_ASCII),
                presented.strip().getBytes(StandardCharsets.US_ASCII));
    }

    /**
     * The {@code Set-Cookie} value that stores {@code session} for its remaining lifetime. {@code SameSite=Strict}:
     * a browser sends it only on requests a page of the same site started; {@code HttpOnly}: scripts never see it.
     */
    public String setCookie(DashboardSession session, boolean overTls, Instant now) {
        long maxAge = Math.max(0, session.expiresAt().getEpochSecond() - now.getEpochSecond());
        return attributes(value(session), maxAge, overTls);
    }

    /** The {@code Set-Cookie} value that makes a browser forget the cookie. */
    public String clearCookie(boolean overTls) {
        return attributes("", 0, overTls);
    }

    private String attributes(String value, long maxAge, boolean overTls) {
        boolean secure = overTls || settings.secureCookie() == DashboardSettings.SecureCookie.ALWAYS;
        return NAME + "=" + value + "; Path=/; HttpOnly; SameSite=Strict; Max-Age=" + maxAge
                + (secure ? "; Secure" : "");
    }

    private Keys ready() {
        Keys current = keys;
        if (current == null) {
            throw new IllegalStateException("dashboard session keys are made at start; this ran before");
        }
        return current;
    }

    private static byte[] hmac(byte[] key, String label) {
        return hmac(new SecretKeySpec(key, "HmacSHA256"), label.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] hmac(SecretKeySpec key, byte[] data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            return mac.doFinal(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA256 is part of every JDK", e);
        }
    }
}
