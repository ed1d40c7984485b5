package dev.portico.control.definition;

import javax.crypto.spec.SecretKeySpec;
import java.security.Key;
import java.security.KeyFactory;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import java.util.List;

/**
 * A {@code jwt.key} as operators paste it: a PEM {@code PUBLIC KEY} (RSA, EC, Ed25519 or Ed448), or an HMAC secret in
 * base64 (standard or URL alphabet). Errors never repeat the text: it may be a secret.
 */
final class JwtKeyText {

    static final int MIN_SECRET_BYTES = 32;
    private static final List<String> KEY_TYPES = List.of("RSA", "EC", "Ed25519", "Ed448");

    private JwtKeyText() {
    }

    /** @throws IllegalArgumentException with a reason fit for an API error */
    static Key parse(String text) {
        String t = text.trim();
        if (t.startsWith("-----BEGIN")) {
            if (!t.startsWith("-----BEGIN PUBLIC KEY-----") || !t.contains("-----END PUBLIC KEY-----")) {
                throw new IllegalArgumentException("must be a PEM PUBLIC KEY (not a certificate or a private key)");
            }
            String body = t.substring("-----BEGIN PUBLIC KEY-----".length(), t.indexOf("-----END PUBLIC KEY-----"))
                    .replaceAll("\\s", "");
            byte[] der;
            try {
                der = Base64.getDecoder().decode(body);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("is not valid PEM (bad base64)");
            }
            for (String type : KEY_TYPES) {
                try {
                    return KeyFactory.getInstance(type).generatePublic(new X509EncodedKeySpec(der));
                } catch (Exception notThisType) {
                    // try the next
                }
            }
            throw new IllegalArgumentException("is not an RSA, EC, Ed25519 or Ed448 public key");
        }
        byte[] secret;
        try {
            secret = t.contains("-") || t.contains("_") ? Base64.getUrlDecoder().decode(t)
                    : Base64.getDecoder().decode(t);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("must be a PEM public key or a base64 HMAC secret");
        }
        if (secret.length < MIN_SECRET_BYTES) {
            throw new IllegalArgumentException("an HMAC secret must be at least " + MIN_SECRET_BYTES
                    + " bytes (256 bits) once decoded");
        }
        return new SecretKeySpec(secret, "HmacSHA256");
    }
}
