package dev.portico.proxy.upstream.balance;

import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.Slot;
import dev.portico.vhost.BalanceSpec;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpHeaders;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;

/**
 * Session affinity by cookie (HAProxy's {@code cookie ... insert}, nginx Plus' {@code sticky cookie}, Envoy's
 * stateful session): the first response carries a cookie naming its upstream, and later requests bearing it go to that
 * upstream while it is available. The cookie is {@code base64url(upstream id (8) || expiry (8) || HMAC-SHA256 (16))}:
 * the id is a digest of the upstream's URL, so reordering the list keeps sessions, and the expiry inside the
 * authenticated part stops a client from keeping a cookie past its lifetime. A cookie that is forged, expired, names
 * an upstream no longer listed, or one that is out or already tried, is ignored: the request goes by the smooth
 * weighted round robin and the response re-issues the cookie. A cookie past half its lifetime is renewed.
 */
public final class StickyCookie implements UpstreamSelector<StickyCookie.Signer> {

    /** The upstream a request's valid, fresh cookie named, when the request went there: no new cookie is needed. */
    private static final Slot<Exchange, Integer> HONOURED = Slot.declare(Exchange.class, "sticky-upstream");
    private static final int ID_BYTES = 8;
    private static final int MAC_BYTES = 16;
    private static final int VALUE_BYTES = ID_BYTES + 8 + MAC_BYTES;
    /** 32 bytes in unpadded base64url: 42 characters of 6 bits and one whose last 2 bits are padding. */
    private static final int ENCODED_LENGTH = 43;

    /** A loop's MAC (a {@link Mac} is not thread-safe) and round-robin cursor. */
    public static final class Signer {
        private final Mac mac;
        private final SmoothWeightedRoundRobin.Cursor cursor = new SmoothWeightedRoundRobin.Cursor();
        private final byte[] value = new byte[VALUE_BYTES];

        Signer(byte[] key) {
            try {
                mac = Mac.getInstance("HmacSHA256");
                mac.init(new SecretKeySpec(key, "HmacSHA256"));
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("the JVM has no HmacSHA256", e);
            }
        }

        /** The first {@value #MAC_BYTES} bytes of the MAC of id and expiry, from {@code value}. */
        byte[] tag(byte[] value) {
            mac.update(value, 0, ID_BYTES + 8);
            return Arrays.copyOf(mac.doFinal(), MAC_BYTES);
        }
    }

    private final long[] ids;
    private final byte[] key;
    private final String cookie;
    private final long ttlSeconds;
    private final SmoothWeightedRoundRobin fallback;
    private final Object compatibility;

    /**
     * @param identities each upstream's URL, the cookie's upstream ids are digests of
     * @param key        the vhost's cookie key
     */
    public StickyCookie(List<String> identities, List<String> origins, int[] weights, BalanceSpec.Sticky sticky,
                        byte[] key) {
        this.ids = new long[identities.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = id(identities.get(i));
        }
        this.key = key.clone();
        this.cookie = sticky.cookie();
        this.ttlSeconds = Math.max(1, sticky.ttl().toSeconds());
        this.fallback = new SmoothWeightedRoundRobin(origins, weights);
        this.compatibility = List.of(SmoothWeightedRoundRobin.compatibility("sticky", identities, weights),
                cookie, ttlSeconds, HexFormat.of().formatHex(key));
    }

    @Override
    public Signer newLoopState() {
        return new Signer(key);
    }

    @Override
    public int pick(Signer signer, UpstreamAvailability upstreams, Exchange request, long tried, long nowNanos) {
        if (request != null) {
            String text = RequestCookies.value(request.request().headers(), cookie);
            int named = text == null ? -1 : named(signer, text);
            if (named >= 0 && (tried & (1L << named)) == 0 && upstreams.available(named, nowNanos)) {
                long expires = ByteBuffer.wrap(signer.value, ID_BYTES, 8).getLong();
                if (expires - System.currentTimeMillis() / 1000 > ttlSeconds / 2) {
                    request.put(HONOURED, named);
                }
                return named;
            }
        }
        return fallback.pick(signer.cursor, upstreams, tried, nowNanos);
    }

    /** The upstream a cookie value names, or -1 when it is malformed, forged, expired or names none of these. */
    private int named(Signer signer, String text) {
        byte[] value = signer.value;
        try {
            if (text.length() != ENCODED_LENGTH || !canonicalEnding(text.charAt(ENCODED_LENGTH - 1))
                    || Base64.getUrlDecoder().decode(text.getBytes(), value) != VALUE_BYTES) {
                return -1;
            }
        } catch (IllegalArgumentException malformed) {
            return -1;
        }
        byte[] tag = signer.tag(value);
        if (!MessageDigest.isEqual(tag, Arrays.copyOfRange(value, ID_BYTES + 8, VALUE_BYTES))) {
            return -1;
        }
        ByteBuffer fields = ByteBuffer.wrap(value);
        long id = fields.getLong(0);
        if (fields.getLong(ID_BYTES) <= System.currentTimeMillis() / 1000) {
            return -1;
        }
        for (int i = 0; i < ids.length; i++) {
            if (ids[i] == id) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Whether the cookie's last character leaves its 2 padding bits zero, as the encoder writes it. The JDK's decoder
     * ignores those bits, so without this check four spellings would decode to one cookie: a changed character would
     * still be accepted, and a cookie would not be one string (RFC 4648 section 3.5 lets a decoder reject this).
     */
    private static boolean canonicalEnding(char c) {
        int sextet = c >= 'A' && c <= 'Z' ? c - 'A' : c >= 'a' && c <= 'z' ? c - 'a' + 26
                : c >= '0' && c <= '9' ? c - '0' + 52 : c == '-' ? 62 : c == '_' ? 63 : -1;
        return sextet >= 0 && (sextet & 3) == 0;
    }

    /** Issues the cookie unless the request's own, still fresh, named this upstream. */
    @Override
    public void responding(Signer signer, int index, Exchange request, MultiMap responseHeaders) {
        Integer honoured = request.get(HONOURED);
        if (honoured != null && honoured == index) {
            return;
        }
        byte[] value = signer.value;
        ByteBuffer.wrap(value).putLong(0, ids[index]).putLong(ID_BYTES, System.currentTimeMillis() / 1000 + ttlSeconds);
        System.arraycopy(signer.tag(value), 0, value, ID_BYTES + 8, MAC_BYTES);
        StringBuilder field = new StringBuilder(128).append(cookie).append('=')
                .append(Base64.getUrlEncoder().withoutPadding().encodeToString(value))
                .append("; Path=/; Max-Age=").append(ttlSeconds).append("; HttpOnly; SameSite=Lax");
        if (request.request().isSSL()) {
            field.append("; Secure");
        }
        responseHeaders.add(HttpHeaders.SET_COOKIE, field.toString());
    }

    /** An upstream's id in cookies: the first 8 bytes of the SHA-256 of its URL. */
    static long id(String identity) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(identity.getBytes(
                    java.nio.charset.StandardCharsets.UTF_8));
            return ByteBuffer.wrap(digest).getLong();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JVM has no SHA-256", e);
        }
    }

    @Override
    public Object compatibility() {
        return compatibility;
    }
}
