package dev.portico.proxy.route;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * OCSP responses to staple in handshakes (RFC 6066 section 8), by certificate alias: DER {@code OCSPResponse}s
 * fetched from each certificate's responder, so clients need not ask the CA themselves. Immutable; replaced whole
 * when a response is refreshed.
 */
public final class OcspStaples {

    /** No responses: nothing is stapled. */
    public static final OcspStaples NONE = new OcspStaples(Map.of());

    private final Map<String, byte[]> byAlias;

    private OcspStaples(Map<String, byte[]> byAlias) {
        this.byAlias = byAlias;
    }

    /** @param byAlias DER responses by the alias of the certificate they are about (copied) */
    public static OcspStaples of(Map<String, byte[]> byAlias) {
        Map<String, byte[]> copy = new HashMap<>();
        byAlias.forEach((alias, response) -> copy.put(alias, response.clone()));
        return copy.isEmpty() ? NONE : new OcspStaples(Map.copyOf(copy));
    }

    /** The response to staple for the certificate with {@code alias}, or null; not to be modified. */
    public byte[] forAlias(String alias) {
        return byAlias.get(alias);
    }

    public boolean isEmpty() {
        return byAlias.isEmpty();
    }

    @Override
    public boolean equals(Object other) {
        if (!(other instanceof OcspStaples)) {
            return false;
        }
        Map<String, byte[]> theirs = ((OcspStaples) other).byAlias;
        if (theirs.size() != byAlias.size()) {
            return false;
        }
        for (Map.Entry<String, byte[]> mine : byAlias.entrySet()) {
            if (!Arrays.equals(mine.getValue(), theirs.get(mine.getKey()))) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        return byAlias.keySet().hashCode();
    }
}
