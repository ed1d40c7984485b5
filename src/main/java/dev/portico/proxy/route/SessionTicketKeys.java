package dev.portico.proxy.route;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The keys a TLS listener encrypts and decrypts session tickets with, shared by every replica so that a ticket one
 * replica issued resumes on another. The first key encrypts new tickets; every key decrypts (a ticket under a key
 * other than the first is accepted and renewed under the first: netty-tcnative's ticket callback). Immutable.
 * Empty: the engine keeps its own random keys, so sessions resume only on the process that issued them.
 */
public final class SessionTicketKeys {

    /** Bytes of one key: a 16-byte name (which key a ticket was made with), 16 of HMAC key, 16 of AES key. */
    public static final int KEY_BYTES = 48;

    /** No shared keys. */
    public static final SessionTicketKeys NONE = new SessionTicketKeys(List.of(), List.of());

    private final List<byte[]> keys;
    private final List<Long> periods;

    private SessionTicketKeys(List<byte[]> keys, List<Long> periods) {
        this.keys = keys;
        this.periods = periods;
    }

    /**
     * Keys in the order the listener uses them: the one that encrypts first.
     *
     * @param periods the rotation period each key belongs to, in the same order (for logs and tests)
     * @param keys    {@value #KEY_BYTES} bytes each
     */
    public static SessionTicketKeys of(List<Long> periods, List<byte[]> keys) {
        if (periods.size() != keys.size()) {
            throw new IllegalArgumentException(periods.size() + " periods for " + keys.size() + " keys");
        }
        List<byte[]> copies = new ArrayList<>(keys.size());
        for (byte[] key : keys) {
            if (key.length != KEY_BYTES) {
                throw new IllegalArgumentException("A session ticket key has " + KEY_BYTES + " bytes, not "
                        + key.length);
            }
            copies.add(key.clone());
        }
        return new SessionTicketKeys(List.copyOf(copies), List.copyOf(periods));
    }

    public boolean isEmpty() {
        return keys.isEmpty();
    }

    public int size() {
        return keys.size();
    }

    /** Key {@code index} (0 encrypts): a copy. */
    public byte[] key(int index) {
        return keys.get(index).clone();
    }

    /** The rotation period of each key, in order. */
    public List<Long> periods() {
        return periods;
    }

    @Override
    public boolean equals(Object other) {
        if (!(other instanceof SessionTicketKeys)) {
            return false;
        }
        SessionTicketKeys that = (SessionTicketKeys) other;
        if (keys.size() != that.keys.size() || !periods.equals(that.periods)) {
            return false;
        }
        for (int i = 0; i < keys.size(); i++) {
            if (!Arrays.equals(keys.get(i), that.keys.get(i))) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        return periods.hashCode();
    }

    /** The periods only: never the key material. */
    @Override
    public String toString() {
        return "SessionTicketKeys" + periods;
    }
}
