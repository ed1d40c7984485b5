package dev.portico.control.secrets;

import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;

/**
 * Encrypts secrets (private keys) before they go into PostgreSQL, so a database dump alone does not leak them:
 * AES-256-GCM with a random 96-bit IV per secret. Each secret is bound to the row it belongs to by the associated
 * data ({@code "portico:certificate:<id>"}): a ciphertext copied into another row does not open. Stored bytes are
 * {@code version(1) || keyId(8) || iv(12) || ciphertext+tag(16)}; the key id says which key sealed a row, so a wrong
 * key is reported as such rather than as corrupt data.
 */
public final class SecretBox {

    /** Bytes of a key: AES-256. */
    public static final int KEY_BYTES = 32;
    private static final byte FORMAT_VERSION = 1;
    private static final int KEY_ID_BYTES = 8;
    private static final int IV_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final int HEADER_BYTES = 1 + KEY_ID_BYTES + IV_BYTES;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final SecretKeySpec key;
    private final byte[] keyId;

    public SecretBox(byte[] keyBytes) {
        if (keyBytes.length != KEY_BYTES) {
            throw new IllegalArgumentException("A secret key has " + KEY_BYTES + " bytes, not " + keyBytes.length);
        }
        this.key = new SecretKeySpec(keyBytes.clone(), "AES");
        this.keyId = keyId(keyBytes);
    }

    /**
     * Reads a key as an operator writes it: hex (64 digits) or base64 of {@value #KEY_BYTES} bytes.
     *
     * @throws IllegalArgumentException naming what is wrong, never echoing the text
     */
    public static SecretBox parse(String text) {
        String trimmed = text.strip();
        byte[] bytes = null;
        if (trimmed.length() == 2 * KEY_BYTES && trimmed.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
            bytes = HexFormat.of().parseHex(trimmed);
        } else {
            String standard = trimmed.replace('-', '+').replace('_', '/');
            try {
                bytes = Base64.getDecoder().decode(standard);
            } catch (IllegalArgumentException e) {
                // not base64 either: reported below
            }
        }
        if (bytes == null || bytes.length != KEY_BYTES) {
            throw new IllegalArgumentException("it must be " + KEY_BYTES + " random bytes written as base64 or as "
                    + (2 * KEY_BYTES) + " hex digits (make one with 'openssl rand -base64 32')");
        }
        return new SecretBox(bytes);
    }

    /** A new random key. */
    public static byte[] generateKey() {
        byte[] bytes = new byte[KEY_BYTES];
        RANDOM.nextBytes(bytes);
        return bytes;
    }

    /** Names this key without revealing it: 16 hex digits of an HMAC of a fixed label, as stored to check keys. */
    public String keyId() {
        return HexFormat.of().formatHex(keyId);
    }

    /** {@code plain} encrypted and bound to {@code context} (which row it belongs to). */
    public byte[] seal(byte[] plain, String context) {
        byte[] iv = new byte[IV_BYTES];
        RANDOM.nextBytes(iv);
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, iv));
            cipher.updateAAD(context.getBytes(StandardCharsets.UTF_8));
            byte[] sealed = cipher.doFinal(plain);
            byte[] out = new byte[HEADER_BYTES + sealed.length];
            out[0] = FORMAT_VERSION;
            System.arraycopy(keyId, 0, out, 1, KEY_ID_BYTES);
            System.arraycopy(iv, 0, out, 1 + KEY_ID_BYTES, IV_BYTES);
            System.arraycopy(sealed, 0, out, HEADER_BYTES, sealed.length);
            return out;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is part of every JDK", e);
        }
    }

    /**
     * The plain bytes sealed for {@code context}.
     *
     * @throws SecretUnreadableException when another key sealed them, they belong to another row, or they were altered
     */
    public byte[] open(byte[] sealed, String context) {
        if (sealed.length < HEADER_BYTES + TAG_BITS / 8 || sealed[0] != FORMAT_VERSION) {
            throw new SecretUnreadableException("the stored secret of " + context + " is not in Portico's format");
        }
        byte[] sealedBy = Arrays.copyOfRange(sealed, 1, 1 + KEY_ID_BYTES);
        if (!MessageDigest.isEqual(sealedBy, keyId)) {
            throw new SecretUnreadableException("the stored secret of " + context + " was encrypted with key id "
                    + HexFormat.of().formatHex(sealedBy) + ", not with the configured key (id " + keyId() + ")");
        }
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key,
                    new GCMParameterSpec(TAG_BITS, sealed, 1 + KEY_ID_BYTES, IV_BYTES));
            cipher.updateAAD(context.getBytes(StandardCharsets.UTF_8));
            return cipher.doFinal(sealed, HEADER_BYTES, sealed.length - HEADER_BYTES);
        } catch (javax.crypto.AEADBadTagException e) {
            throw new SecretUnreadableException("the stored secret of " + context + " does not open: it was altered "
                    + "or belongs to another row");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is part of every JDK", e);
        }
    }

    /**
     * A key for another purpose, derived from this one (HMAC-SHA256 of {@code label}): the same on every replica and
     * after every restart, and telling nothing of this key.
     */
    public byte[] derive(String label) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key.getEncoded(), "HmacSHA256"));
            return mac.doFinal(label.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA256 is part of every JDK", e);
        }
    }

    private static byte[] keyId(byte[] keyBytes) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(keyBytes, "HmacSHA256"));
            return Arrays.copyOf(mac.doFinal("portico-key-id".getBytes(StandardCharsets.US_ASCII)), KEY_ID_BYTES);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA256 is part of every JDK", e);
        }
    }
}
