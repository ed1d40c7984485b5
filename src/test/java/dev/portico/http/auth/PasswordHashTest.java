package dev.portico.http.auth;

import org.bouncycastle.crypto.generators.Argon2BytesGenerator;
import org.bouncycastle.crypto.generators.OpenBSDBCrypt;
import org.bouncycastle.crypto.params.Argon2Parameters;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PasswordHashTest {

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void everyBcryptVersionChecksTheRightPasswordOnly() {
        byte[] salt = new byte[16];
        for (String version : new String[]{"2a", "2b", "2y"}) {
            String text = OpenBSDBCrypt.generate(version, utf8("s3cret-é"), salt, 4);
            assertTrue(text.startsWith("$" + version + "$04$"), text);
            PasswordHash hash = PasswordHash.parse(text);
            assertTrue(hash.matches(utf8("s3cret-é")), version);
            assertFalse(hash.matches(utf8("s3cret-e")), version);
            assertFalse(hash.matches(new byte[0]), version);
        }
    }

    @Test
    void aPlainPasswordBecomesABcryptHashOfCost10WithARandomSalt() {
        String first = PasswordHash.bcrypt("plain");
        String second = PasswordHash.bcrypt("plain");
        assertTrue(first.startsWith("$2y$10$"), first);
        assertFalse(first.equals(second), "each hash has its own salt");
        assertTrue(PasswordHash.parse(first).matches(utf8("plain")));
        assertFalse(PasswordHash.parse(first).matches(utf8("plain ")));
        assertThrows(IllegalArgumentException.class, () -> PasswordHash.bcrypt("x".repeat(73)));
    }

    @Test
    void anArgon2idPhcHashChecksTheRightPasswordOnly() {
        byte[] salt = utf8("somesaltsomesalt");
        Argon2Parameters parameters = new Argon2Parameters.Builder(Argon2Parameters.ARGON2_id)
                .withVersion(Argon2Parameters.ARGON2_VERSION_13).withMemoryAsKB(1024).withIterations(2)
                .withParallelism(1).withSalt(salt).build();
        Argon2BytesGenerator generator = new Argon2BytesGenerator();
        generator.init(parameters);
        byte[] out = new byte[32];
        generator.generateBytes(utf8("hunter2"), out);
        Base64.Encoder b64 = Base64.getEncoder().withoutPadding();
        String text = "$argon2id$v=19$m=1024,t=2,p=1$" + b64.encodeToString(salt) + "$" + b64.encodeToString(out);

        PasswordHash hash = PasswordHash.parse(text);
        assertTrue(hash.matches(utf8("hunter2")));
        assertFalse(hash.matches(utf8("hunter3")));
        assertEquals(text, hash.text());
    }

    @Test
    void anArgon2idHashFromTheReferenceLibraryVerifies() {
        // libargon2's argon2id_hash_encoded(t=3, m=4096, p=2, "correct horse", salt "portico-salt-16b", 32 bytes)
        PasswordHash hash = PasswordHash.parse("$argon2id$v=19$m=4096,t=3,p=2$cG9ydGljby1zYWx0LTE2Yg"
                + "$bjj5QhkqdITJicSAA1iPyqcRYblWB1iWOE2ikhnlAc0");
        assertTrue(hash.matches(utf8("correct horse")));
        assertFalse(hash.matches(utf8("correct horsE")));
    }

    @Test
    void badHashesAreRefusedWithAReasonThatDoesNotEchoThem() {
        String tooCostly = OpenBSDBCrypt.generate("2y", utf8("x"), new byte[16], 4).replace("$04$", "$15$");
        IllegalArgumentException cost = assertThrows(IllegalArgumentException.class,
                () -> PasswordHash.parse(tooCostly));
        assertTrue(cost.getMessage().contains("4 to 14"), cost.getMessage());
        assertThrows(IllegalArgumentException.class, () -> PasswordHash.parse("$2y$10$short"));
        assertThrows(IllegalArgumentException.class, () -> PasswordHash.parse("plain-text"));
        assertThrows(IllegalArgumentException.class, () -> PasswordHash.parse(""));
        assertThrows(IllegalArgumentException.class,
                () -> PasswordHash.parse("$argon2id$v=19$m=1048576,t=2,p=1$c29tZXNhbHQ$RdescudvJCsgt3ub+b+dWRWJTmaaJObG"));
        assertThrows(IllegalArgumentException.class,
                () -> PasswordHash.parse("$argon2id$v=16$m=1024,t=2,p=1$c29tZXNhbHQ$RdescudvJCsgt3ub+b+dWRWJTmaaJObG"));
        assertThrows(IllegalArgumentException.class,
                () -> PasswordHash.parse("$argon2i$v=19$m=1024,t=2,p=1$c29tZXNhbHQ$RdescudvJCsgt3ub+b+dWRWJTmaaJObG"));
        IllegalArgumentException shortSalt = assertThrows(IllegalArgumentException.class,
                () -> PasswordHash.parse("$argon2id$v=19$m=1024,t=2,p=1$c2FsdA$RdescudvJCsgt3ub+b+dWRWJTmaaJObG"));
        assertFalse(shortSalt.getMessage().contains("c2FsdA"), shortSalt.getMessage());
    }
}
