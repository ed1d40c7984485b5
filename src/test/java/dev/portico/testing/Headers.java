package dev.portico.testing;

import io.vertx.core.MultiMap;

/** Header maps for tests of the pure HTTP rules. */
public final class Headers {

    private Headers() {
    }

    /** A case-insensitive map of the given name, value pairs, in order (a name may repeat). */
    public static MultiMap of(String... namesAndValues) {
        MultiMap headers = MultiMap.caseInsensitiveMultiMap();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            headers.add(namesAndValues[i], namesAndValues[i + 1]);
        }
        return headers;
    }
}
