package dev.portico.proxy.files;

import java.util.List;

/** Request targets an attacker sends to a static file server, shared by the pure and the end-to-end tests. */
public final class HostilePaths {

    private HostilePaths() {
    }

    /** Refused by the path rules alone, whatever the disk holds. */
    public static List<String> refusedBeforeTheDisk() {
        return List.of(
                "/../secret/secret.txt",
                "/..",
                "/a/../../secret/secret.txt",
                "/%2e%2e/secret/secret.txt",
                "/%2E%2E/secret/secret.txt",
                "/.%2e/secret/secret.txt",
                "/%2e./secret/secret.txt",
                "/..%2fsecret%2fsecret.txt",
                "/%2e%2e%2fsecret%2fsecret.txt",
                "/docs%2f..%2f..%2fsecret%2fsecret.txt",
                "/..\\secret\\secret.txt",
                "/%5c..%5csecret%5csecret.txt",
                "/..%5csecret%5csecret.txt",
                "/hello.txt%00.html",
                "/%00",
                "/docs/%2e",
                "/./hello.txt",
                "/%2e/hello.txt",
                "/%c0%ae%c0%ae/secret/secret.txt",
                "/%e0%80%ae%e0%80%ae/secret/secret.txt",
                "/%ff",
                "/%zz",
                "/%2",
                "/hello.txt%",
                "/a%0d%0aSet-Cookie:x=1",
                "/%09hello.txt",
                "relative/path",
                "*");
    }
}
