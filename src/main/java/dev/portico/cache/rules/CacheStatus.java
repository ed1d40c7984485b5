package dev.portico.cache.rules;

/**
 * One {@code Cache-Status} field member for Portico (RFC 9211), built immutably:
 * {@code CacheStatus.hit().ttl(42).value()} is {@code Portico; hit; ttl=42} and
 * {@code CacheStatus.forward(Fwd.STALE).fwdStatus(304).stored().value()} is
 * {@code Portico; fwd=stale; fwd-status=304; stored}. Parameters always appear in the order hit or fwd,
 * fwd-status, ttl, stored, collapsed, detail. Callers add the value to any {@code Cache-Status} field already
 * present, since the member closest to the origin comes first (section 2).
 */
public final class CacheStatus {

    /** The cache name every member carries. */
    public static final String NAME = "Portico";

    /** Why the request went forward to the origin (RFC 9211 section 2.2). */
    public enum Fwd {
        /** Configuration made the cache not even look. */
        BYPASS("bypass"),
        /** The request method is not cacheable. */
        METHOD("method"),
        /** Nothing stored for the URI. */
        URI_MISS("uri-miss"),
        /** Something stored for the URI, but no variant matching the request's {@code Vary} fields. */
        VARY_MISS("vary-miss"),
        /** Not found, when the cache cannot tell which of the above applies. */
        MISS("miss"),
        /** The request asked for it, say with {@code no-cache}. */
        REQUEST("request"),
        /** A stored response needed revalidation. */
        STALE("stale"),
        /** Only part of the response was stored. */
        PARTIAL("partial");

        private final String token;

        Fwd(String token) {
            this.token = token;
        }

        /** The parameter value as it appears on the wire. */
        public String token() {
            return token;
        }
    }

    private static final CacheStatus HIT = new CacheStatus(null, -1, false, 0, false, false, null);

    private final Fwd fwd;
    private final int fwdStatus;
    private final boolean hasTtl;
    private final long ttl;
    private final boolean stored;
    private final boolean collapsed;
    private final String detail;

    private CacheStatus(Fwd fwd, int fwdStatus, boolean hasTtl, long ttl, boolean stored, boolean collapsed,
                        String detail) {
        this.fwd = fwd;
        this.fwdStatus = fwdStatus;
        this.hasTtl = hasTtl;
        this.ttl = ttl;
        this.stored = stored;
        this.collapsed = collapsed;
        this.detail = detail;
    }

    /** Served from the cache without going to the origin. */
    public static CacheStatus hit() {
        return HIT;
    }

    /** Went to the origin, for the given reason. */
    public static CacheStatus forward(Fwd fwd) {
        if (fwd == null) {
            throw new IllegalArgumentException("fwd must not be null; use hit() for a hit");
        }
        return new CacheStatus(fwd, -1, false, 0, false, false, null);
    }

    /** The status the origin answered the forwarded request with (a 304 after revalidation, say). */
    public CacheStatus fwdStatus(int status) {
        return new CacheStatus(fwd, status, hasTtl, ttl, stored, collapsed, detail);
    }

    /** Remaining freshness in whole seconds; negative once stale. */
    public CacheStatus ttl(long seconds) {
        return new CacheStatus(fwd, fwdStatus, true, seconds, stored, collapsed, detail);
    }

    /**
     * Remaining freshness from milliseconds ({@code lifetime - currentAge}), rounded down: a fresh response never
     * shows a negative ttl and a stale one never shows a positive one.
     */
    public CacheStatus ttlMillis(long millis) {
        return ttl(Math.floorDiv(millis, 1000L));
    }

    /** The forwarded response was stored. */
    public CacheStatus stored() {
        return new CacheStatus(fwd, fwdStatus, hasTtl, ttl, true, collapsed, detail);
    }

    /** The request was satisfied by another request's response (request collapsing). */
    public CacheStatus collapsed() {
        return new CacheStatus(fwd, fwdStatus, hasTtl, ttl, stored, true, detail);
    }

    /**
     * Implementation detail: written as an sf-token when it is one (a letter or {@code *} followed by token
     * characters, {@code :} or {@code /}), which all of Portico's reasons are; otherwise as an sf-string, with
     * characters outside printable ASCII replaced by {@code ?}.
     */
    public CacheStatus detail(String detail) {
        return new CacheStatus(fwd, fwdStatus, hasTtl, ttl, stored, collapsed, detail);
    }

    /** The field member, such as {@code Portico; fwd=miss; stored}. */
    public String value() {
        StringBuilder out = new StringBuilder(48).append(NAME);
        if (fwd == null) {
            out.append("; hit");
        } else {
            out.append("; fwd=").append(fwd.token);
        }
        if (fwdStatus >= 0) {
            out.append("; fwd-status=").append(fwdStatus);
        }
        if (hasTtl) {
            out.append("; ttl=").append(ttl);
        }
        if (stored) {
            out.append("; stored");
        }
        if (collapsed) {
            out.append("; collapsed");
        }
        if (detail != null) {
            out.append("; detail=");
            if (isToken(detail)) {
                out.append(detail);
            } else {
                appendString(out, detail);
            }
        }
        return out.toString();
    }

    @Override
    public String toString() {
        return value();
    }

    /** RFC 8941 section 3.3.4: {@code ( ALPHA / "*" ) *( tchar / ":" / "/" )}. */
    static boolean isToken(String s) {
        if (s.isEmpty()) {
            return false;
        }
        char first = s.charAt(0);
        if (!isAlpha(first) && first != '*') {
            return false;
        }
        for (int i = 1; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!isTchar(c) && c != ':' && c != '/') {
                return false;
            }
        }
        return true;
    }

    private static void appendString(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20 || c > 0x7e) {
                out.append('?');
            } else {
                out.append(c);
            }
        }
        out.append('"');
    }

    private static boolean isAlpha(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z';
    }

    private static boolean isTchar(char c) {
        if (isAlpha(c) || c >= '0' && c <= '9') {
            return true;
        }
        return switch (c) {
            case '!', '#', '$', '%', '&', '\'', '*', '+', '-', '.', '^', '_', '`', '|', '~' -> true;
            default -> false;
        };
    }
}
