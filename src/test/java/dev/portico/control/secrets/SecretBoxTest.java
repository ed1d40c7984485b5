package dev.portico.control.secrets;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SecretBoxTest {

    private static final byte[] PLAIN = "-----BEGIN PRIVATE KEY----- secret".getBytes(StandardCharsets.US_ASCII);

    @Test
    void aSealedSecretOpensOnlyWithItsKeyAndForItsRow() {
        SecretBox box = new SecretBox(SecretBox.generateKey());
        byte[] sealed = box.seal(PLAIN, "portico:certificate:a");

        assertArrayEquals(PLAIN, box.open(sealed, "portico:certificate:a"));
        assertFalse(new String(sealed, StandardCharsets.ISO_8859_1).contains("PRIVATE KEY"));
        SecretUnreadableException otherRow = assertThrows(SecretUnreadableException.class,
                () -> box.open(sealed, "portico:certificate:b"));
        assertTrue(otherRow.getMessage().contains("another row"), otherRow.getMessage());
        SecretBox otherKey = new SecretBox(SecretBox.generateKey());
        SecretUnreadableException wrongKey = assertThrows(SecretUnreadableException.class,
                () -> otherKey.open(sealed, "portico:certificate:a"));
        assertTrue(wrongKey.getMessage().contains(box.keyId()), wrongKey.getMessage());
    }

    @Test
    void everySealUsesAFreshIvAndAlteredBytesDoNotOpen() {
        SecretBox box = new SecretBox(SecretBox.generateKey());
        byte[] first = box.seal(PLAIN, "c");
        assertNotEquals(HexFormat.of().formatHex(first), HexFormat.of().formatHex(box.seal(PLAIN, "c")));
        first[first.length - 1] ^= 1;
        assertThrows(SecretUnreadableException.class, () -> box.open(first, "c"));
    }

    @Test
    void keysAreReadAsHexOrBase64OfThirtyTwoBytesAndNothingElse() {
        byte[] key = SecretBox.generateKey();
        String id = new SecretBox(key).keyId();
        assertEquals(16, id.length());
        assertEquals(id, SecretBox.parse(HexFormat.of().formatHex(key)).keyId());
        assertEquals(id, SecretBox.parse(Base64.getEncoder().encodeToString(key)).keyId());
        assertEquals(id, SecretBox.parse(" " + Base64.getUrlEncoder().withoutPadding().encodeToString(key) + "\n").keyId());
        assertThrows(IllegalArgumentException.class, () -> SecretBox.parse("short"));
        assertThrows(IllegalArgumentException.class, () -> SecretBox.parse(Base64.getEncoder().encodeToString(new byte[16])));
    }
}
