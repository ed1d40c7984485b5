package dev.portico.http.auth;

import org.bouncycastle.crypto.generators.Argon2BytesGenerator;
import org.bouncycastle.crypto.generators.OpenBSDBCrypt;
import org.bouncycastle.crypto.params.Argon2Parameters;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A stored password hash a basic-auth user is checked against: bcrypt ({@code $2a$}, {@code $2b$}, {@code $2y$}, as
 * htpasswd -B and Caddy write it) or argon2id in the PHC string form ({@code $argon2id$v=19$m=..,t=..,p=..$salt$hash},
 * as the argon2 CLI and libsodium write it). Parsed once when a snapshot is compiled; {@link #matches} costs what the
 * hash's parameters say (tens of milliseconds by design), so it never runs on an event loop.
 */
public abstract sealed class PasswordHash {

    /** bcrypt's cost bounds: below 4 BouncyCastle refuses; above 14 one check takes over a second. */
    public static final int MIN_BCRYPT_COST = 4;
    public static final int MAX_BCRYPT_COST = 14;
    /** The cost of the hashes Portico makes from plain passwords (htpasswd's and Caddy's default). */
    public static final int BCRYPT_COST = 10;
    /** bcrypt reads at most 72 bytes of a password; a longer one would be checked by its first 72 alone. */
    public static final int MAX_BCRYPT_PASSWORD_BYTES = 72;
    /** argon2id's memory bound per check, in KiB: a few workers check at once, each holding this much. */
    static final int MAX_ARGON2_MEMORY_KIB = 65_536;
    static final int MAX_ARGON2_ITERATIONS = 10;
    static final int MAX_ARGON2_PARALLELISM = 8;

    private static final Pattern BCRYPT = Pattern.compile("\\$2[aby]\\$(\\d\\d)\\$[./A-Za-z0-9]{53}");
    private static final Pattern ARGON2ID = Pattern.compile(
            "\\$argon2id\\$v=(\\d+)\\$m=(\\d{1,9}),t=(\\d{1,9}),p=(\\d{1,9})\\$([A-Za-z0-9+/]+)\\$([A-Za-z0-9+/]+)");
    private static final SecureRandom RANDOM = new SecureRandom();

    private final String text;

    private PasswordHash(String text) {
        this.text = text;
    }

    /** @throws IllegalArgumentException saying what is wrong, without echoing the text */
    public static PasswordHash parse(String text) {
        if (text == null || text.isEmpty()) {
            throw new IllegalArgumentException("must not be empty");
        }
        Matcher bcrypt = BCRYPT.matcher(text);
        if (bcrypt.matches()) {
            int cost = Integer.parseInt(bcrypt.group(1));
            if (cost < MIN_BCRYPT_COST || cost > MAX_BCRYPT_COST) {
                throw new IllegalArgumentException("bcrypt cost must be " + MIN_BCRYPT_COST + " to "
                        + MAX_BCRYPT_COST + " (is " + cost + ")");
            }
            return new Bcrypt(text);
        }
        Matcher argon = ARGON2ID.matcher(text);
        if (argon.matches()) {
            return Argon2id.of(text, argon);
        }
        if (text.startsWith("$2")) {
            throw new IllegalArgumentException("is not a bcrypt hash ($2a$, $2b$ or $2y$, a two-digit cost and 53 "
                    + "characters of salt and hash)");
        }
        throw new IllegalArgumentException("must be a bcrypt hash ($2y$10$...) or an argon2id hash in PHC form "
                + "($argon2id$v=19$m=...,t=...,p=...$salt$hash)");
    }

    /** A new bcrypt hash of {@code password} with a random salt, at {@link #BCRYPT_COST}. */
    public static String bcrypt(String password) {
        byte[] bytes = password.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > MAX_BCRYPT_PASSWORD_BYTES) {
            throw new IllegalArgumentException("must be at most " + MAX_BCRYPT_PASSWORD_BYTES + " bytes in UTF-8 "
                    + "(bcrypt reads no more)");
        }
        byte[] salt = new byte[16];
        RANDOM.nextBytes(salt);
        return OpenBSDBCrypt.generate("2y", bytes, salt, BCRYPT_COST);
    }

    /** Whether {@code password} (UTF-8) is the one hashed; slow by design: call on a worker thread. */
    public abstract boolean matches(byte[] password);

    /** The hash as stored. */
    public String text() {
        return text;
    }

    @Override
    public String toString() {
        return getClass().getSimpleName();
    }

    private static final class Bcrypt extends PasswordHash {

        Bcrypt(String text) {
            super(text);
        }

        @Override
        public boolean matches(byte[] password) {
            if (password.length > MAX_BCRYPT_PASSWORD_BYTES) {
                // BouncyCastle refuses these; htpasswd would have cut them, so one never matches.
                return false;
            }
            return OpenBSDBCrypt.checkPassword(text(), password);
        }
    }

    private static final class Argon2id extends PasswordHash {

        private final Argon2Parameters parameters;
        private final byte[] hash;

        private Argon2id(String text, Argon2Parameters parameters, byte[] hash) {
            super(text);
            this.parameters = parameters;
            this.hash = hash;
        }

        static Argon2id of(String text, Matcher m) {
            if (!"19".equals(m.group(1))) {
                throw new IllegalArgumentException("argon2id version must be v=19");
            }
            int memory = Integer.parseInt(m.group(2));
            int iterations = Integer.parseInt(m.group(3));
            int parallelism = Integer.parseInt(m.group(4));
            if (parallelism < 1 || parallelism > MAX_ARGON2_PARALLELISM) {
                throw new IllegalArgumentException("argon2id p must be 1 to " + MAX_ARGON2_PARALLELISM);
            }
            if (memory < 8 * parallelism || memory > MAX_ARGON2_MEMORY_KIB) {
                throw new IllegalArgumentException("argon2id m must be 8*p to " + MAX_ARGON2_MEMORY_KIB + " KiB");
            }
            if (iterations < 1 || iterations > MAX_ARGON2_ITERATIONS) {
                throw new IllegalArgumentException("argon2id t must be 1 to " + MAX_ARGON2_ITERATIONS);
            }
            byte[] salt = decode(m.group(5));
            byte[] hash = decode(m.group(6));
            if (salt == null || salt.length < 8 || salt.length > 64) {
                throw new IllegalArgumentException("argon2id salt must be 8 to 64 bytes in unpadded base64");
            }
            if (hash == null || hash.length < 16 || hash.length > 64) {
                throw new IllegalArgumentException("argon2id hash must be 16 to 64 bytes in unpadded base64");
            }
            Argon2Parameters parameters = new Argon2Parameters.Builder(Argon2Parameters.ARGON2_id)
                    .withVersion(Argon2Parameters.ARGON2_VERSION_13).withMemoryAsKB(memory)
                    .withIterations(iterations).withParallelism(parallelism).withSalt(salt).build();
            return new Argon2id(text, parameters, hash);
        }

        private static byte[] decode(String base64) {
            try {
                return Base64.getDecoder().decode(base64);
            } catch (IllegalArgumentException e) {
                return null;
            }
        }

        @Override
        public boolean matches(byte[] password) {
            Argon2BytesGenerator generator = new Argon2BytesGenerator();
            generator.init(parameters);
            byte[] computed = new byte[hash.length];
            generator.generateBytes(password, computed);
            return MessageDigest.isEqual(computed, hash);
        }
    }
}
