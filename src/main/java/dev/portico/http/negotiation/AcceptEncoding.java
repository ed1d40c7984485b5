package dev.portico.http.negotiation;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.vertx.core.MultiMap;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Chooses the content coding for a request's {@code Accept-Encoding} (RFC 9110 section 12.5.3): which precompressed
 * sibling of a file to serve, or which coding to compress a response with. Pure.
 *
 * <p>A coding is acceptable when it is listed, or covered by {@code *}, with a q-value above 0 ({@code x-gzip}
 * counts as {@code gzip}). Among the acceptable codings that are available the highest q-value wins, ties going
 * to the server's preference: by default the smaller formats first, br, then zstd, then gzip. Identity is only preferred when the client gives it
 * explicitly a higher q-value than every such coding. No {@code Accept-Encoding} at all gets identity, as in nginx
 * and Caddy: RFC 9110 would allow any coding, but a client that sends nothing usually cannot decode anything.
 * Elements that do not parse (a bad q-value) are ignored. When nothing acceptable exists the file itself is sent
 * even if the client refused identity: RFC 9110 lets a server do that rather than answer 415, and nginx does.
 */
public final class AcceptEncoding {

    /** The codings Portico serves siblings for, in order of preference, with the file extension of each. */
    public enum Coding {
        BR("br", ".br"),
        ZSTD("zstd", ".zst"),
        GZIP("gzip", ".gz");

        private final String token;
        private final String extension;

        Coding(String token, String extension) {
            this.token = token;
            this.extension = extension;
        }

        /** The content-coding name, for {@code Content-Encoding}. */
        public String token() {
            return token;
        }

        /** The sibling's suffix: {@code app.js.br}. */
        public String extension() {
            return extension;
        }
    }

    private static final Coding[] CODINGS = Coding.values();
    /** br, then zstd, then gzip. */
    public static final List<Coding> DEFAULT_PREFERENCE = List.of(CODINGS);
    private static final int UNSET = -1;

    private AcceptEncoding() {
    }

    /**
     * @param acceptEncoding the request's field value(s), joined with commas; null when absent
     * @param available whether a sibling exists, indexed by {@link Coding#ordinal()}
     * @return the coding to serve, or null for the identity (the file itself)
     */
    public static Coding select(String acceptEncoding, boolean[] available) {
        return select(acceptEncoding, available, DEFAULT_PREFERENCE);
    }

    /**
     * @param acceptEncoding the request's field value(s), joined with commas; null when absent
     * @param available whether a coding can be served, indexed by {@link Coding#ordinal()}
     * @param preference the codings to consider, most preferred first; ties in q-value go to the earlier one
     * @return the coding to serve, or null for the identity
     */
    public static Coding select(String acceptEncoding, boolean[] available, List<Coding> preference) {
        if (acceptEncoding == null) {
            return null;
        }
        int[] q = new int[CODINGS.length];
        Arrays.fill(q, UNSET);
        // q-values of *, then identity, after the codings
        int[] other = {UNSET, UNSET};
        WeightedElements.forEach(acceptEncoding, (token, weight) -> {
            if (token.equals("*")) {
                other[0] = weight;
            } else if (token.equalsIgnoreCase("identity")) {
                other[1] = weight;
            } else {
                Coding coding = coding(token);
                if (coding != null) {
                    q[coding.ordinal()] = weight;
                }
            }
        });
        int star = other[0];
        int identity = other[1];
        Coding best = null;
        int bestQ = 0;
        for (int p = 0, count = preference.size(); p < count; p++) {
            Coding coding = preference.get(p);
            int weight = q[coding.ordinal()] != UNSET ? q[coding.ordinal()] : star != UNSET ? star : 0;
            if (available[coding.ordinal()] && weight > bestQ) {
                best = coding;
                bestQ = weight;
            }
        }
        return best != null && identity > bestQ ? null : best;
    }

    /** A request's {@code Accept-Encoding} lines joined into one value, or null without any. */
    public static String of(MultiMap requestHeaders) {
        List<String> lines = requestHeaders.getAll(HttpHeaderNames.ACCEPT_ENCODING);
        if (lines.isEmpty()) {
            return null;
        }
        return lines.size() == 1 ? lines.get(0) : String.join(",", lines);
    }

    /**
     * {@code Accept-Encoding} in a canonical form, for a cache's secondary key: two values with the same meaning
     * under RFC 9110 (element order, case, whitespace, {@code x-gzip}, {@code q=1}, a bad element being ignored)
     * give the same string, so browsers that send their codings in different orders share one stored variant.
     *
     * @param acceptEncoding the request's field value(s), joined with commas
     */
    public static String canonical(String acceptEncoding) {
        List<String> elements = new ArrayList<>(6);
        WeightedElements.forEach(acceptEncoding, (token, weight) -> {
            String name = token.toLowerCase(Locale.ROOT);
            if (name.equals("x-gzip")) {
                name = "gzip";
            }
            elements.add(weight == 1000 ? name : name + ";q=" + weight);
        });
        elements.sort(null);
        return String.join(",", elements);
    }

    private static Coding coding(String token) {
        if (token.equalsIgnoreCase("br")) {
            return Coding.BR;
        }
        if (token.equalsIgnoreCase("zstd")) {
            return Coding.ZSTD;
        }
        if (token.equalsIgnoreCase("gzip") || token.equalsIgnoreCase("x-gzip")) {
            return Coding.GZIP;
        }
        return null;
    }
}
