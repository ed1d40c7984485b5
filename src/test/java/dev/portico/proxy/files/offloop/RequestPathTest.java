package dev.portico.proxy.files.offloop;

import dev.portico.proxy.files.HostilePaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The pure half of path safety: what a request target may name under a root, before any disk is asked. */
class RequestPathTest {

    /** Targets that must never name a file: traversal in every spelling, smuggled separators, NUL, bad encodings. */
    static Stream<String> hostile() {
        return HostilePaths.refusedBeforeTheDisk().stream();
    }

    @ParameterizedTest
    @MethodSource("hostile")
    void refusesHostileTargets(String target) {
        assertNull(RequestPath.decode(target, false), target);
        assertNull(RequestPath.decode(target, true), target + " (hidden files served)");
    }

    @ParameterizedTest
    @CsvSource({
            "/,                          /",
            "/index.html,                /index.html",
            "/a/b/c.txt,                 /a/b/c.txt",
            "/docs/,                     /docs/",
            "//a///b//,                  /a/b/",
            "/a/b.txt?x=../../etc,       /a/b.txt",
            "/caf%C3%A9.txt,             /café.txt",
            "/with%20space.txt,          /with space.txt",
            "/%252e%252e/x,              /%2e%2e/x",
            "/a..b/c...,                 /a..b/c...",
            "/.well-known/security.txt,  /.well-known/security.txt",
            "/file+plus.txt,             /file+plus.txt",
            "/%7Euser/,                  /~user/",
    })
    void decodesOnceAndNormalises(String target, String expected) {
        assertEquals(expected, RequestPath.decode(target, false));
    }

    @ParameterizedTest
    @CsvSource({"/.env", "/.git/config", "/a/.htpasswd", "/%2eenv", "/a/.well-known/x", "/.well-known/.secret"})
    void hidesDotfilesUnlessAsked(String target) {
        assertNull(RequestPath.decode(target, false));
        assertEquals(target.replace("%2e", "."), RequestPath.decode(target, true));
    }

    @Test
    void normalisesTryFilesCandidates() {
        assertEquals("/docs/", RequestPath.normalise("/docs//", false));
        assertEquals("/about.html", RequestPath.normalise("/about.html", false));
        assertNull(RequestPath.normalise("/.html", false));
        assertNull(RequestPath.normalise("relative", false));
    }
}
