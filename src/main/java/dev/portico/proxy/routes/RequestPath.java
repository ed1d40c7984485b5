package dev.portico.proxy.routes;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A request path in the form routes are matched against, so that no spelling of a path can reach a route's target
 * without passing its checks: percent-decoding applied once ({@code %2e%2e}, {@code %2F} and {@code %61dmin} are
 * {@code ..}, {@code /} and {@code admin}), {@code ;parameters} dropped from each segment (Tomcat and Jetty ignore
 * them: {@code /admin;x} is {@code /admin}), a backslash read as a slash (IIS does), empty segments merged
 * ({@code //admin}) and dot segments resolved (RFC 3986 section 5.2.4). The forms an origin might read more widely
 * are all folded into the one a guard sees. A path that climbs above the root, holds an encoded NUL or a malformed
 * escape is {@linkplain Invalid refused}: it has no safe reading.
 *
 * <p>Matching reads this form only; what goes upstream is the client's target as received, unless a route rewrites
 * it: then it is built from the client's own segment bytes ({@link #suffix}), never from decoded text.
 */
public final class RequestPath {

    /** A path with no safe reading: answered 400, never routed. */
    public static final class Invalid extends Exception {
        Invalid(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * One segment of the client's path and the decoded segments it stands for (several when it held an encoded
     * slash; fewer once a {@code ..} took some). {@code raw} is null when it no longer stands for them whole.
     */
    private record Part(String raw, List<String> pieces) {
    }

    private final String matchForm;
    private final List<String> segments;
    private final List<Part> parts;
    private final boolean trailingSlash;
    private final String query;
    private String lowerCase;

    private RequestPath(String matchForm, List<String> segments, List<Part> parts, boolean trailingSlash,
                        String query) {
        this.matchForm = matchForm;
        this.segments = segments;
        this.parts = parts;
        this.trailingSlash = trailingSlash;
        this.query = query;
    }

    /**
     * @param pathAndQuery the request's origin-form target ({@code /a/b?q})
     * @return null for a target that is not a path ({@code *}), which no route takes
     */
    public static RequestPath parse(String pathAndQuery) throws Invalid {
        int q = pathAndQuery.indexOf('?');
        String raw = q < 0 ? pathAndQuery : pathAndQuery.substring(0, q);
        String query = q < 0 ? null : pathAndQuery.substring(q + 1);
        if (raw.isEmpty() || raw.charAt(0) != '/') {
            return null;
        }
        List<Part> parts = new ArrayList<>();
        boolean trailingSlash = raw.length() > 1 && raw.endsWith("/");
        int start = 1;
        while (start <= raw.length()) {
            int end = raw.indexOf('/', start);
            if (end < 0) {
                end = raw.length();
            }
            String rawSegment = raw.substring(start, end);
            // An encoded slash (or a backslash) separates segments when matching, as an origin may read it.
            String[] pieces = withoutParameters(decode(rawSegment)).replace('\\', '/').split("/", -1);
            List<String> kept = new ArrayList<>(1);
            for (String piece : pieces) {
                step(piece, kept, parts);
            }
            if (!kept.isEmpty()) {
                parts.add(new Part(rawSegment, kept));
            }
            if (end == raw.length()) {
                String last = pieces[pieces.length - 1];
                if (last.equals(".") || last.equals("..")) {
                    trailingSlash = true;
                }
                break;
            }
            start = end + 1;
        }
        List<String> segments = new ArrayList<>();
        parts.forEach(part -> segments.addAll(part.pieces()));
        String form = "/" + String.join("/", segments) + (trailingSlash && !segments.isEmpty() ? "/" : "");
        return new RequestPath(form, List.copyOf(segments), parts, trailingSlash, query);
    }

    /**
     * Applies one decoded piece: skips empty and {@code .}; {@code ..} takes the last piece, of this segment's
     * ({@code kept}) or else of the parts before.
     */
    private static void step(String piece, List<String> kept, List<Part> parts) throws Invalid {
        if (piece.isEmpty() || piece.equals(".")) {
            return;
        }
        if (!piece.equals("..")) {
            kept.add(piece);
            return;
        }
        if (!kept.isEmpty()) {
            kept.remove(kept.size() - 1);
            return;
        }
        if (parts.isEmpty()) {
            throw new Invalid("the path climbs above the root");
        }
        Part last = parts.remove(parts.size() - 1);
        if (last.pieces().size() > 1) {
            parts.add(new Part(null, last.pieces().subList(0, last.pieces().size() - 1)));
        }
    }

    private static String withoutParameters(String segment) {
        int semicolon = segment.indexOf(';');
        return semicolon < 0 ? segment : segment.substring(0, semicolon);
    }

    /** Percent-decodes once, as UTF-8 (invalid sequences become U+FFFD, which matches no pattern). */
    private static String decode(String segment) throws Invalid {
        if (segment.indexOf('%') < 0) {
            return segment;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(segment.length());
        for (int i = 0; i < segment.length(); i++) {
            char c = segment.charAt(i);
            if (c != '%') {
                if (c < 0x80) {
                    out.write(c);
                } else {
                    // The target was read as UTF-8 (StrictRequestDecoder): these are the client's bytes again.
                    byte[] bytes = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                    out.write(bytes, 0, bytes.length);
                }
                continue;
            }
            int hi = i + 2 < segment.length() ? Character.digit(segment.charAt(i + 1), 16) : -1;
            int lo = hi >= 0 ? Character.digit(segment.charAt(i + 2), 16) : -1;
            if (lo < 0) {
                throw new Invalid("the path has a malformed percent escape");
            }
            int b = (hi << 4) | lo;
            if (b < 0x20 || b == 0x7f) {
                throw new Invalid("the path encodes a control character");
            }
            out.write(b);
            i += 2;
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /** The normalised, decoded path: {@code /} followed by the segments, with a trailing slash when there was one. */
    public String matchForm() {
        return matchForm;
    }

    /** The match form in lower case (for routes that ignore case). */
    public String lowerCase() {
        if (lowerCase == null) {
            lowerCase = matchForm.toLowerCase(java.util.Locale.ROOT);
        }
        return lowerCase;
    }

    /** The decoded segments, dot segments resolved. */
    public List<String> segments() {
        return segments;
    }

    /**
     * The path from decoded segment {@code from} on, as the client wrote it: its own bytes for each segment it sent
     * whole (dot segments resolved), text decoded for matching percent-encoded again otherwise; null when segment
     * {@code from} begins inside one client segment (an encoded slash split it), which has no single reading.
     */
    public String suffix(int from) {
        int index = 0;
        StringBuilder out = new StringBuilder();
        for (Part part : parts) {
            if (index >= from) {
                out.append('/').append(part.raw() != null ? part.raw()
                        : PathText.encode(String.join("/", part.pieces())));
            } else if (index + part.pieces().size() > from) {
                return null;
            }
            index += part.pieces().size();
        }
        if (out.isEmpty()) {
            return "/";
        }
        return trailingSlash ? out.append('/').toString() : out.toString();
    }

    /** The query as received, without {@code ?}; null when the target had none. */
    public String query() {
        return query;
    }
}
