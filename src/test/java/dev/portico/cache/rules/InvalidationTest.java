package dev.portico.cache.rules;

import io.vertx.core.MultiMap;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class InvalidationTest {

    private static List<String> targets(String location, String contentLocation) {
        return targets("http", "example.com", "/a/x?q=1", location, contentLocation);
    }

    private static List<String> targets(String scheme, String authority, String path, String location,
                                        String contentLocation) {
        MultiMap headers = MultiMap.caseInsensitiveMultiMap();
        if (location != null) {
            headers.add("Location", location);
        }
        if (contentLocation != null) {
            headers.add("Content-Location", contentLocation);
        }
        return Invalidation.targets(scheme, authority, path, headers);
    }

    @Test
    void alwaysInvalidatesTheRequestUri() {
        assertEquals(List.of("/a/x?q=1"), targets(null, null));
    }

    @Test
    void addsSameOriginAbsoluteReferences() {
        assertEquals(List.of("/a/x?q=1", "/new"), targets("http://example.com/new", null));
        assertEquals(List.of("/a/x?q=1", "/new", "/other?k=v"), targets("http://example.com/new",
                "http://example.com/other?k=v"));
        assertEquals(List.of("/a/x?q=1", "/new"), targets("HTTP://Example.COM/new", null));
        assertEquals(List.of("/a/x?q=1", "/"), targets("http://example.com", null));
        assertEquals(List.of("/a/x?q=1", "/Case"), targets(null, "http://example.com/Case#fragment"));
    }

    @Test
    void defaultPortsAreTheSameOrigin() {
        assertEquals(List.of("/a/x?q=1", "/p"), targets("http://example.com:80/p", null));
        assertEquals(List.of("/p", "/q"), targets("http", "example.com:80", "/p", "http://example.com/q", null));
        assertEquals(List.of("/p", "/q"), targets("https", "example.com", "/p", "https://example.com:443/q", null));
        assertEquals(List.of("/p", "/q"), targets("http", "example.com:", "/p", "http://example.com/q", null));
        assertEquals(List.of("/p", "/q"), targets("http", "[::1]:8080", "/p", "http://[::1]:8080/q", null));
    }

    @Test
    void ignoresOtherOrigins() {
        assertEquals(List.of("/a/x?q=1"), targets("http://evil.example/new", null));
        assertEquals(List.of("/a/x?q=1"), targets("https://example.com/new", null));
        assertEquals(List.of("/a/x?q=1"), targets("http://example.com:8080/new", null));
        assertEquals(List.of("/a/x?q=1"), targets("//evil.example/new", "mailto:someone@example.com"));
        assertEquals(List.of("/p"), targets("http", "[::1]:8080", "/p", "http://[::1]:8081/q", null));
    }

    @Test
    void resolvesRelativeReferencesAgainstTheRequestUri() {
        assertEquals(List.of("/a/x?q=1", "/a/b"), targets(null, "b"));
        assertEquals(List.of("/a/x?q=1", "/c"), targets(null, "../c"));
        assertEquals(List.of("/a/x?q=1", "/d?e=f"), targets("/d?e=f", null));
        assertEquals(List.of("/a/x?q=1", "/a/x?y=2"), targets("?y=2", null));
        assertEquals(List.of("/a/x?q=1", "/z"), targets("//example.com/z", null));
    }

    @Test
    void listsEachUriOnce() {
        assertEquals(List.of("/a/x?q=1"), targets("/a/x?q=1", "http://example.com/a/x?q=1"));
        assertEquals(List.of("/a/x?q=1", "/n"), targets("/n", "/n"));
    }

    @Test
    void ignoresValuesThatAreNotUriReferences() {
        assertEquals(List.of("/a/x?q=1"), targets("http://exa mple.com/", "/a b"));
        assertEquals(List.of("/a/x?q=1"), targets("  ", ""));
        assertEquals(List.of("/a|b"), targets("http", "example.com", "/a|b", "/c", null));
        assertEquals(List.of("/p"), targets("http", "", "/p", "/c", null));
    }
}
