package dev.portico.http.coding;

import dev.portico.http.DeclaredLength;
import dev.portico.http.negotiation.AcceptEncoding;
import dev.portico.vhost.CompressionSpec;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A vhost's response compression, compiled once per snapshot: decides for each response whether it is compressed
 * and with which coding, rewrites its head to match, and starts the {@link BodyEncoder} its producer streams the
 * body through. Immutable; shared by every event loop.
 *
 * <p>A response is <em>eligible</em> when it has a body that may be transformed: a status other than 204, 206,
 * 304 and 1xx, no {@code Content-Encoding} yet, no {@code Cache-Control: no-transform}, a media type on the list
 * (never {@code text/event-stream}) and no {@code Content-Length} below the minimum. An eligible response varies
 * with {@code Accept-Encoding} whatever this client accepts, so it always gets {@code Vary: Accept-Encoding}. It
 * is then compressed unless the request is a HEAD or HTTP/1.0 (as nginx's {@code gzip_http_version 1.1}) or the
 * client accepts none of the vhost's codings. A compressed response loses {@code Content-Length} (it is streamed)
 * and {@code Accept-Ranges}, and a strong {@code ETag} becomes weak: the bytes differ, the meaning does not.
 */
public final class CompressionPolicy {

    private static final CharSequence ACCEPT_ENCODING = HttpHeaders.createOptimized("Accept-Encoding");
    private static final String EVENT_STREAM = "text/event-stream";

    private final List<AcceptEncoding.Coding> preference;
    private final boolean[] offered = new boolean[AcceptEncoding.Coding.values().length];
    private final MediaTypePatterns types;
    private final long minLength;
    private final int[] levels = new int[AcceptEncoding.Coding.values().length];

    /** Built when a snapshot is compiled, off the event loops: the native codecs are loaded here, not per request. */
    public CompressionPolicy(CompressionSpec spec) {
        List<AcceptEncoding.Coding> order = new ArrayList<>(3);
        for (String token : spec.encodings()) {
            AcceptEncoding.Coding coding = AcceptEncoding.Coding.valueOf(token.toUpperCase(Locale.ROOT));
            if (NativeCodecs.available(coding)) {
                order.add(coding);
                offered[coding.ordinal()] = true;
            }
        }
        this.preference = List.copyOf(order);
        this.types = new MediaTypePatterns(spec.types());
        this.minLength = spec.minLength();
        levels[AcceptEncoding.Coding.GZIP.ordinal()] = spec.gzipLevel();
        levels[AcceptEncoding.Coding.BR.ordinal()] = spec.brotliLevel();
        levels[AcceptEncoding.Coding.ZSTD.ordinal()] = spec.zstdLevel();
    }

    /**
     * Decides for a response whose status and headers are set and whose body is about to be sent: edits the head
     * and returns the encoder to stream the body through, or null to send it as it is.
     *
     * @param acceptEncoding the client's {@code Accept-Encoding} as {@link AcceptEncoding#of} joins it (before any
     *     header rule edited the request), or null
     * @param length the body's length, or -1 when unknown; read from {@code Content-Length} when -1 and present
     */
    public BodyEncoder begin(HttpMethod method, HttpVersion version, String acceptEncoding, int status,
                             MultiMap responseHeaders, long length) {
        Decision decision = decide(method, version, acceptEncoding, status, responseHeaders, length);
        return decision == null ? null : encoder(decision.coding(), decision.length());
    }

    /**
     * As {@link #begin}, without starting the encoder yet: for a producer that streams the body later (the codec's
     * native memory is then taken only when the body really flows).
     *
     * @return the coding and the body's length (-1 unknown) to start the encoder with, or null to send it as it is
     */
    public Decision decide(HttpMethod method, HttpVersion version, String acceptEncoding, int status,
                           MultiMap responseHeaders, long length) {
        long declared = length >= 0 ? length : DeclaredLength.of(responseHeaders);
        if (!prepare(status, responseHeaders, declared)) {
            return null;
        }
        AcceptEncoding.Coding coding = choose(method, version, acceptEncoding);
        if (coding == null) {
            return null;
        }
        compressed(responseHeaders, coding);
        return new Decision(coding, declared);
    }

    /** A response's coding and its body's length before compression (-1 unknown). */
    public record Decision(AcceptEncoding.Coding coding, long length) {
    }

    /**
     * Whether a response may be compressed at all, whoever asks; {@code Vary: Accept-Encoding} is added when it
     * may. For producers that decide before the body exists (a file's conditional request).
     */
    public boolean prepare(int status, MultiMap responseHeaders, long length) {
        if (!eligible(status, responseHeaders, length)) {
            return false;
        }
        addVary(responseHeaders);
        return true;
    }

    /** The coding this request gets for an eligible response, or null for none. */
    public AcceptEncoding.Coding choose(HttpMethod method, HttpVersion version, String acceptEncoding) {
        if (method == HttpMethod.HEAD || version == HttpVersion.HTTP_1_0 || acceptEncoding == null) {
            return null;
        }
        return AcceptEncoding.select(acceptEncoding, offered, preference);
    }

    /**
     * Whether an eligible response went out uncompressed only because the request was HTTP/1.0: a cache must not
     * store it, or HTTP/1.1 clients with the same {@code Accept-Encoding} would be answered uncompressed.
     */
    public boolean withheldFromHttp10(HttpVersion version, MultiMap requestHeaders, MultiMap responseHeaders) {
        return version == HttpVersion.HTTP_1_0 && !responseHeaders.contains(HttpHeaderNames.CONTENT_ENCODING)
                && varies(responseHeaders)
                && choose(HttpMethod.GET, HttpVersion.HTTP_1_1, AcceptEncoding.of(requestHeaders)) != null;
    }

    /** Rewrites the head of a response about to be sent with {@code coding}. */
    public void compressed(MultiMap responseHeaders, AcceptEncoding.Coding coding) {
        responseHeaders.set(HttpHeaderNames.CONTENT_ENCODING, coding.token());
        responseHeaders.remove(HttpHeaderNames.CONTENT_LENGTH);
        responseHeaders.remove(HttpHeaderNames.ACCEPT_RANGES);
        String etag = responseHeaders.get(HttpHeaderNames.ETAG);
        if (etag != null) {
            responseHeaders.set(HttpHeaderNames.ETAG, weakened(etag));
        }
    }

    /** The entity tag of a compressed body: a strong tag made weak, a weak one as it is. */
    public static String weakened(String etag) {
        return etag.startsWith("\"") ? "W/" + etag : etag;
    }

    /** Starts an encoder for a body of {@code length} bytes (-1 unknown). */
    public BodyEncoder encoder(AcceptEncoding.Coding coding, long length) {
        int level = levels[coding.ordinal()];
        return switch (coding) {
            case GZIP -> GzipEncoder.start(level, length);
            case ZSTD -> ZstdEncoder.start(level, length);
            case BR -> BrotliEncoder.start(level, length);
        };
    }

    private boolean eligible(int status, MultiMap headers, long length) {
        if (status < 200 || status == 204 || status == 206 || status == 304) {
            return false;
        }
        if (length >= 0 && length < minLength) {
            return false;
        }
        String encoding = headers.get(HttpHeaderNames.CONTENT_ENCODING);
        if (encoding != null && !encoding.trim().equalsIgnoreCase("identity")) {
            return false;
        }
        String mediaType = MediaTypePatterns.mediaType(headers.get(HttpHeaderNames.CONTENT_TYPE));
        if (mediaType == null || mediaType.equals(EVENT_STREAM) || !types.matches(mediaType)) {
            return false;
        }
        for (String control : headers.getAll(HttpHeaderNames.CACHE_CONTROL)) {
            if (control.toLowerCase(Locale.ROOT).contains("no-transform")) {
                return false;
            }
        }
        return true;
    }

    private static void addVary(MultiMap headers) {
        if (!varies(headers)) {
            headers.add(HttpHeaderNames.VARY, ACCEPT_ENCODING);
        }
    }

    /** Whether {@code Vary} already covers Accept-Encoding (by name or with {@code *}). */
    private static boolean varies(MultiMap headers) {
        for (String vary : headers.getAll(HttpHeaderNames.VARY)) {
            for (String element : vary.split(",")) {
                String name = element.trim();
                if (name.equals("*") || name.equalsIgnoreCase("accept-encoding")) {
                    return true;
                }
            }
        }
        return false;
    }
}
