package dev.portico.control.secrets;

/** A stored secret that the configured key cannot open; the message says why, never what the secret is. */
public class SecretUnreadableException extends RuntimeException {

    public SecretUnreadableException(String message) {
        super(message);
    }
}
