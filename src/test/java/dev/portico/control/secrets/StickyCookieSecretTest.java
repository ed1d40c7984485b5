package dev.portico.control.secrets;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** The sticky-cookie secret is the same wherever the secret key is, and says nothing of that key. */
class StickyCookieSecretTest {

    @Test
    void replicasWithTheSameSecretKeyDeriveTheSameSecret() {
        byte[] key = SecretBox.generateKey();
        byte[] one = new SecretBox(key).derive("portico:sticky-cookies");
        byte[] other = new SecretBox(key.clone()).derive("portico:sticky-cookies");
        assertArrayEquals(one, other);
        assertEquals(32, one.length);
        assertFalse(java.util.Arrays.equals(one, new SecretBox(key).derive("another purpose")));
        assertFalse(java.util.Arrays.equals(one, new SecretBox(SecretBox.generateKey())
                .derive("portico:sticky-cookies")));
    }
}
