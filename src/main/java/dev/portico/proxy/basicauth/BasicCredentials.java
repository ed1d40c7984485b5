package dev.portico.proxy.basicauth;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;

/**
 * The user and password of an {@code Authorization: Basic} header (RFC 7617: base64 of {@code user:password} in
 * UTF-8; the user ends at the first colon). {@link #bytes} is the decoded {@code user:password}, what the credential
 * cache keys by.
 */
final class BasicCredentials {

    /** A Basic header whose payload is not base64 of {@code user:password}. */
    static final BasicCredentials MALFORMED = new BasicCredentials(new byte[0], -1);

    private static final String SCHEME = "basic";

    private final byte[] bytes;
    private final int colon;

    private BasicCredentials(byte[] bytes, int colon) {
        this.bytes = bytes;
        this.colon = colon;
    }

    /** The credentials of the header, {@link #MALFORMED}, or null when it is absent or of another scheme. */
    static BasicCredentials of(String authorization) {
        if (authorization == null || authorization.length() <= SCHEME.length()
                || !authorization.regionMatches(true, 0, SCHEME, 0, SCHEME.length())
                || authorization.charAt(SCHEME.length()) != ' ') {
            return null;
        }
        byte[] decoded;
        try {
            decoded = Base64.getDecoder().decode(authorization.substring(SCHEME.length() + 1).trim());
        } catch (IllegalArgumentException e) {
            return MALFORMED;
        }
        for (int i = 0; i < decoded.length; i++) {
            if (decoded[i] == ':') {
                return new BasicCredentials(decoded, i);
            }
        }
        return MALFORMED;
    }

    /** The decoded {@code user:password}. */
    byte[] bytes() {
        return bytes;
    }

    String user() {
        return new String(bytes, 0, colon, StandardCharsets.UTF_8);
    }

    /** A copy of the password's bytes, for the check to wipe. */
    byte[] password() {
        return Arrays.copyOfRange(bytes, colon + 1, bytes.length);
    }
}
