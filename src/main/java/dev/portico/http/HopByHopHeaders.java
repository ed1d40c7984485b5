package dev.portico.http;

import io.netty.util.AsciiString;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpHeaders;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The connection-specific headers a proxy must not forward (RFC 9110 section 7.6.1): the fixed list, plus every
 * field the message's own {@code Connection} header nominates.
 */
public final class HopByHopHeaders {

    private static final HopByHopHeaders FIXED_ONLY = new HopByHopHeaders(List.of());

    private final List<String> nominated;

    private HopByHopHeaders(List<String> nominated) {
        this.nominated = nominated;
    }

    /** Reads the {@code Connection} header(s) of a message; allocates only when they nominate extra fields. */
    public static HopByHopHeaders of(MultiMap headers) {
        if (headers.get(HttpHeaders.CONNECTION) == null) {
            return FIXED_ONLY;
        }
        List<String> nominated = null;
        for (String value : headers.getAll(HttpHeaders.CONNECTION)) {
            if (value.indexOf(',') < 0) {
                // The usual "keep-alive" or "close": no split.
                nominated = nominate(nominated, value);
            } else {
                for (String token : value.split(",")) {
                    nominated = nominate(nominated, token);
                }
            }
        }
        return nominated == null ? FIXED_ONLY : new HopByHopHeaders(nominated);
    }

    private static List<String> nominate(List<String> nominated, String token) {
        String name = token.trim();
        if (name.isEmpty() || isFixed(name) || frames(name)) {
            return nominated;
        }
        List<String> names = nominated == null ? new ArrayList<>(2) : nominated;
        names.add(name.toLowerCase(Locale.ROOT));
        return names;
    }

    /**
     * Fields a {@code Connection} header may never remove: without them the message could not be delimited (the
     * head would go out without framing while its body follows) or routed. Requests naming them are refused before
     * they get here; a response naming them keeps them.
     */
    private static boolean frames(String name) {
        return name.equalsIgnoreCase("content-length") || name.equalsIgnoreCase("host");
    }

    /** Whether a header of this name is connection-specific in this message. */
    public boolean excludes(CharSequence name) {
        if (isFixed(name)) {
            return true;
        }
        for (int i = 0, n = nominated.size(); i < n; i++) {
            if (AsciiString.contentEqualsIgnoreCase(nominated.get(i), name)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Copies every end-to-end header of {@code from} into {@code to}, also skipping {@code skip1} and {@code skip2}
     * (either may be null): headers the caller writes itself. Headers the server decoded (Netty's, as Vert.x's
     * server and {@code MultiMap.caseInsensitiveMultiMap()} make them) are copied without converting to
     * {@code String}; for the HTTP client's headers pass {@code proxy.upstream.pool.HeaderEntries.of(from)} to the
     * overload, which can reach them without conversion too.
     */
    public void copyEndToEnd(MultiMap from, MultiMap to, String skip1, String skip2) {
        if (from instanceof io.netty.handler.codec.http.HttpHeaders netty) {
            copyEndToEnd(netty.iteratorCharSequence(), to, skip1, skip2);
        } else {
            copyEndToEnd(from.iterator(), to, skip1, skip2);
        }
    }

    /** As {@link #copyEndToEnd(MultiMap, MultiMap, String, String)}, from a message's entries. */
    public void copyEndToEnd(Iterator<? extends Map.Entry<? extends CharSequence, ? extends CharSequence>> from,
            MultiMap to, String skip1, String skip2) {
        while (from.hasNext()) {
            Map.Entry<? extends CharSequence, ? extends CharSequence> header = from.next();
            copy(header.getKey(), header.getValue(), to, skip1, skip2);
        }
    }

    private void copy(CharSequence name, CharSequence value, MultiMap to, String skip1, String skip2) {
        if (!excludes(name) && (skip1 == null || !AsciiString.contentEqualsIgnoreCase(skip1, name))
                && (skip2 == null || !AsciiString.contentEqualsIgnoreCase(skip2, name))) {
            to.add(name, value);
        }
    }

    /** The fixed list of RFC 9110 section 7.6.1, case-insensitive, without allocating. */
    public static boolean isFixed(CharSequence name) {
        // Almost every header fails on the first character; only then compare whole names.
        char first = name.length() == 0 ? 0 : (char) (name.charAt(0) | 0x20);
        if (first != 't' && first != 'u' && first != 'c' && first != 'k' && first != 'p') {
            return false;
        }
        switch (name.length()) {
            case 2:
                return AsciiString.contentEqualsIgnoreCase(name, "te");
            case 7:
                return AsciiString.contentEqualsIgnoreCase(name, "upgrade");
            case 10:
                return AsciiString.contentEqualsIgnoreCase(name, "connection")
                        || AsciiString.contentEqualsIgnoreCase(name, "keep-alive");
            case 16:
                return AsciiString.contentEqualsIgnoreCase(name, "proxy-connection");
            case 17:
                return AsciiString.contentEqualsIgnoreCase(name, "transfer-encoding");
            default:
                return false;
        }
    }
}
