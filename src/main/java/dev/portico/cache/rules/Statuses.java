package dev.portico.cache.rules;

/** What the cache knows about response status codes. */
final class Statuses {

    private Statuses() {
    }

    /**
     * The statuses RFC 9110 section 15.1 calls heuristically cacheable: storable without explicit freshness, with a
     * heuristic lifetime. 206 is one of them, but Portico stores only complete responses.
     */
    static boolean heuristicallyCacheable(int status) {
        return switch (status) {
            case 200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501 -> true;
            default -> false;
        };
    }

    /** Statuses never stored whatever the directives say: interim, partial, not-modified and out-of-range ones. */
    static boolean neverStored(int status) {
        return status < 200 || status > 599 || status == 206 || status == 304;
    }

    /**
     * The statuses whose caching requirements Portico understands, for {@code must-understand} (RFC 9111 section
     * 5.2.2.3): the final statuses RFC 9110 defines, without the ones never stored and the deprecated 305 and
     * unused 306 and 418. Anything else, such as 299 or an unregistered 5xx, may carry semantics a cache would
     * get wrong, which is exactly what the directive guards against.
     */
    static boolean understood(int status) {
        if (neverStored(status)) {
            return false;
        }
        return switch (status) {
            case 200, 201, 202, 203, 204, 205,
                 300, 301, 302, 303, 307, 308,
                 400, 401, 402, 403, 404, 405, 406, 407, 408, 409, 410, 411, 412, 413, 414, 415, 416, 417,
                 421, 422, 426,
                 500, 501, 502, 503, 504, 505 -> true;
            default -> false;
        };
    }
}
