package dev.portico.proxy.forwardauth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The auth service's recent "yes" answers, reused for {@code cacheFor} when the same auth request comes again: keyed
 * by a SHA-256 of every field sent to the service (the credentials, method, URI, host and client), so a decision is
 * reused only for a request the service would have seen identically, and no cookie or token is kept in memory as
 * text. Only allowing answers are kept: a refusal or an error is always asked again. Bounded: when full, expired
 * entries are dropped, and if none had expired the new decision is simply not kept. Shared by every event loop.
 */
final class DecisionCache {

    static final int MAX_ENTRIES = 10_000;

    /** An allowing decision: the fields to copy onto the upstream request, as the service gave them. */
    record Allowed(List<Map.Entry<String, String>> copied, long expiresNanos) {
    }

    private final long ttlNanos;
    private final ConcurrentHashMap<String, Allowed> entries = new ConcurrentHashMap<>();

    DecisionCache(long ttlNanos) {
        this.ttlNanos = ttlNanos;
    }

    boolean enabled() {
        return ttlNanos > 0;
    }

    /** The key of an auth request whose fields are {@code sent}, in the order they are sent. */
    static String key(List<Map.Entry<String, String>> sent) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            for (Map.Entry<String, String> field : sent) {
                // Separators that cannot occur in a field name or value keep "a: bc" apart from "ab: c".
                digest.update(field.getKey().getBytes(StandardCharsets.UTF_8));
                digest.update((byte) 0);
                digest.update(field.getValue().getBytes(StandardCharsets.UTF_8));
                digest.update((byte) '\n');
            }
            return Base64.getEncoder().encodeToString(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    /** The live decision for {@code key}, or null. */
    Allowed find(String key, long nowNanos) {
        Allowed allowed = entries.get(key);
        if (allowed == null) {
            return null;
        }
        if (allowed.expiresNanos() - nowNanos <= 0) {
            entries.remove(key, allowed);
            return null;
        }
        return allowed;
    }

    void keep(String key, List<Map.Entry<String, String>> copied, long nowNanos) {
        if (entries.size() >= MAX_ENTRIES) {
            entries.values().removeIf(a -> a.expiresNanos() - nowNanos <= 0);
            if (entries.size() >= MAX_ENTRIES) {
                return;
            }
        }
        entries.put(key, new Allowed(List.copyOf(copied), nowNanos + ttlNanos));
    }

    int size() {
        return entries.size();
    }
}
