package dev.portico.proxy.basicauth;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Credentials that passed a password check lately, so the next requests with them cost an HMAC instead of a bcrypt.
 * An entry is keyed by HMAC-SHA256 of {@code user:password} under a key drawn at random when the process starts and
 * kept nowhere else: the cache never holds a password, nor anything a stolen heap dump could test guesses against
 * offline faster than the stored bcrypt hash itself once the process is gone. Entries live {@link #TTL_NANOS}; only
 * good credentials go in, so a flood of wrong ones cannot grow it or make anyone's next check cheap. One cache per
 * vhost (or route) and user list: changing a user's hash, or removing a user, starts an empty one.
 */
final class CredentialCache {

    static final long TTL_NANOS = 60_000_000_000L;
    /** Good credentials are few (a user has one password); past this, expired entries go, then all. */
    static final int MAX_ENTRIES = 10_000;

    private static final byte[] PROCESS_KEY = new byte[32];
    private static final ThreadLocal<Mac> MACS = ThreadLocal.withInitial(CredentialCache::newMac);

    static {
        new SecureRandom().nextBytes(PROCESS_KEY);
    }

    private record Entry(String user, long expiresAtNanos) {
    }

    private final ConcurrentHashMap<ByteBuffer, Entry> entries = new ConcurrentHashMap<>();

    /** The key of a credential: its HMAC. */
    static ByteBuffer digest(byte[] credential) {
        return ByteBuffer.wrap(MACS.get().doFinal(credential));
    }

    /** The user a credential was verified for within the last minute, or null. */
    String verifiedUser(ByteBuffer digest, long nowNanos) {
        Entry entry = entries.get(digest);
        if (entry == null) {
            return null;
        }
        if (nowNanos - entry.expiresAtNanos() >= 0) {
            entries.remove(digest, entry);
            return null;
        }
        return entry.user();
    }

    /** Remembers a credential that just passed its check. */
    void verified(ByteBuffer digest, String user, long nowNanos) {
        if (entries.size() >= MAX_ENTRIES) {
            entries.values().removeIf(entry -> nowNanos - entry.expiresAtNanos() >= 0);
            if (entries.size() >= MAX_ENTRIES) {
                entries.clear();
            }
        }
        entries.put(digest, new Entry(user, nowNanos + TTL_NANOS));
    }

    private static Mac newMac() {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(PROCESS_KEY, "HmacSHA256"));
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }
}
