package dev.portico.proxy.cache;

import dev.portico.cache.StoredResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpHeaders;

/** The conditional request a cache sends to revalidate what it stores (RFC 9111 section 4.3.1). */
final class Validators {

    private Validators() {
    }

    /**
     * Replaces the client's validators and range in {@code headers} with the stored response's {@code ETag} and
     * {@code Last-Modified}: the origin is asked about the whole stored response, not about the client's copy. An
     * invalid {@code Last-Modified} counts as absent (RFC 9110 section 5.6.7 dates, parsed strictly), so it is
     * not sent back as an {@code If-Modified-Since} the origin would have to ignore.
     */
    static void askAbout(StoredResponse entry, MultiMap headers) {
        headers.remove(HttpHeaders.IF_MODIFIED_SINCE);
        headers.remove(HttpHeaders.IF_NONE_MATCH);
        headers.remove(HttpHeaderNames.RANGE);
        headers.remove(HttpHeaderNames.IF_RANGE);
        if (entry.etag() != null) {
            headers.set(HttpHeaders.IF_NONE_MATCH, entry.etag());
        }
        String lastModified = entry.header("Last-Modified");
        if (lastModified != null && entry.lastModifiedMillis() >= 0) {
            headers.set(HttpHeaders.IF_MODIFIED_SINCE, lastModified);
        }
    }
}
