package dev.portico.proxy.server.tls;

import dev.portico.testing.Api;
import dev.portico.testing.Curl;
import dev.portico.testing.OriginServer;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.RawOrigin;
import dev.portico.testing.TestPki;
import dev.portico.testing.TextOrigin;
import dev.portico.testing.TestPki.Issued;
import dev.portico.testing.TestPki.Kind;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * HTTP/2 clients on the TLS listener (ALPN offers h2, then http/1.1): curl and the Vert.x HTTP/2 client, through the
 * same pipeline as HTTP/1.1 clients (routing by {@code :authority}, forwarding headers, request ids, local replies),
 * with what HTTP/2 changes at the boundary: bodies without {@code Content-Length}, split cookies, no
 * connection-specific fields in responses, many streams on one connection.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class Http2OverTlsTest extends HttpsVhostTestSupport {

    private static final Issued ROOT = TestPki.ca("HTTP/2 Root");

    private String httpsVhost(String name, String host, OriginServer origin) {
        Issued leaf = TestPki.leaf(ROOT, TestPki.keys(Kind.EC_P256), Instant.now().minus(Duration.ofHours(1)),
                Instant.now().plus(Duration.ofDays(30)), host);
        return Api.create(httpsVhost(name, host, origin.url(), upload(leaf), new JsonObject()));
    }

    /** Runs curl against the TLS listener as {@code host}; its output (the body, then what {@code -w} writes). */
    private String curl(String host, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("-k",
                "--resolve", host + ":" + dataPlane.tlsPort() + ":127.0.0.1"));
        command.addAll(List.of(args));
        return Curl.run(command);
    }

    private String url(String host, String path) {
        return "https://" + host + ":" + dataPlane.tlsPort() + path;
    }

    @Test
    void anH2ClientIsProxiedLikeAnHttp11One() throws Exception {
        OriginServer origin = origin("h2-plain");
        httpsVhost("h2-plain", "h2.test", origin);

        String out = curl("h2.test", "--http2", "-D", "-", "-w", "\n%{http_version}", url("h2.test", "/echo/a?b=1"));

        assertTrue(out.endsWith("\n2"), "negotiated HTTP/2: " + out);
        assertTrue(out.startsWith("HTTP/2 200"), out);
        assertTrue(out.toLowerCase().contains("x-request-id: "), out);
        assertTrue(out.toLowerCase().contains("x-origin: h2-plain"), out);
        OriginServer.Seen seen = origin.nextSeen();
        assertEquals("/echo/a?b=1", seen.uri());
        assertEquals("h2.test:" + dataPlane.tlsPort(), seen.headers().get("Host"));
        assertEquals("https", seen.headers().get("X-Forwarded-Proto"));
        assertTrue(seen.headers().get("Via").startsWith("2 "), seen.headers().get("Via"));
        assertNull(seen.headers().get("Transfer-Encoding"), "a GET has no body: not chunked upstream");
        assertNull(seen.headers().get("Content-Length"));
    }

    @Test
    void anHttp11ClientStillGetsHttp11() throws Exception {
        OriginServer origin = origin("h2-fallback");
        httpsVhost("h2-fallback", "h1.test", origin);

        String out = curl("h1.test", "--http1.1", "-o", "/dev/null", "-w", "%{http_version} %{http_code}",
                url("h1.test", "/echo"));

        assertEquals("1.1 200", out);
    }

    @Test
    void aBodyWithoutContentLengthIsChunkedToAnHttp11Upstream() throws Exception {
        OriginServer origin = origin("h2-upload");
        httpsVhost("h2-upload", "upload.test", origin);
        byte[] body = new byte[300_000];
        for (int i = 0; i < body.length; i++) {
            body[i] = OriginServer.pattern(i);
        }
        HttpClient client = h2Client("upload.test");
        try {
            // The Vert.x HTTP/2 client sends a body it writes in pieces without Content-Length.
            HttpClientResponse[] response = new HttpClientResponse[1];
            Buffer answer = await(client.request(options("upload.test", HttpMethod.PUT, "/echo"))
                    .compose(request -> {
                        request.setChunked(true);
                        request.write(Buffer.buffer(body).slice(0, 100_000));
                        request.write(Buffer.buffer(body).slice(100_000, 200_000));
                        request.end(Buffer.buffer(body).slice(200_000, 300_000));
                        return request.response();
                    }).compose(r -> {
                        response[0] = r;
                        return r.body();
                    }));
            JsonObject echoed = new JsonObject(answer);
            assertEquals(HttpVersion.HTTP_2, response[0].version());
            assertEquals(200, response[0].statusCode());
            assertEquals(300_000, echoed.getLong("bodyLength"), echoed.encode());
            OriginServer.Seen seen = origin.nextSeen();
            assertEquals("chunked", seen.headers().get("Transfer-Encoding"));
        } finally {
            client.close();
        }
    }

    @Test
    void splitCookiesAreJoinedForAnHttp11Upstream() throws Exception {
        OriginServer origin = origin("h2-cookies");
        httpsVhost("h2-cookies", "cookies.test", origin);
        HttpClient client = h2Client("cookies.test");
        try {
            RequestOptions get = options("cookies.test", HttpMethod.GET, "/echo");
            get.addHeader("cookie", "a=1").addHeader("cookie", "b=2");
            int status = await(client.request(get).compose(r -> r.send())
                    .compose(r -> r.body().map(b -> r.statusCode())));
            assertEquals(200, status);
            OriginServer.Seen seen = origin.nextSeen();
            assertEquals(List.of("a=1; b=2"), seen.headers().getAll("Cookie"));
        } finally {
            client.close();
        }
    }

    @Test
    void manyStreamsShareOneConnection() throws Exception {
        OriginServer origin = origin("h2-streams");
        httpsVhost("h2-streams", "streams.test", origin);
        HttpClient client = h2Client("streams.test");
        try {
            List<Future<Buffer>> responses = new ArrayList<>();
            for (int i = 0; i < 64; i++) {
                responses.add(client.request(options("streams.test", HttpMethod.GET, "/slow/200?i=" + i))
                        .compose(r -> r.send()).compose(r -> {
                            assertEquals(200, r.statusCode());
                            return r.body();
                        }));
            }
            await(Future.all(responses));
            assertEquals(64, origin.requestCount());
        } finally {
            client.close();
        }
    }

    @Test
    void localRepliesCarryNoConnectionSpecificField() throws Exception {
        OriginServer origin = origin("h2-local");
        Issued local = TestPki.leaf(ROOT, TestPki.keys(Kind.EC_P256), Instant.now().minus(Duration.ofHours(1)),
                Instant.now().plus(Duration.ofDays(30)), "local.test");
        Api.create(httpsVhost("h2-local", "local.test", origin.url(), upload(local), new JsonObject())
                .put("maxRequestBody", "1KiB"));
        Path big = Files.createTempFile("h2-body", ".bin");
        Files.write(big, new byte[200_000]);
        Issued leaf = TestPki.leaf(ROOT, TestPki.keys(Kind.EC_P256), Instant.now().minus(Duration.ofHours(1)),
                Instant.now().plus(Duration.ofDays(30)), "down.test");
        Api.create(Api.vhost("h2-down", "down.test", "http://127.0.0.1:9")
                .put("tls", new JsonObject().put("certificate", upload(leaf))));

        // curl refuses a response with a connection-specific field over HTTP/2 (RFC 9113 section 8.2.2).
        String notFound = curl("down.test", "--http2", "-D", "-", "-w", "\n%{http_version}",
                url("down.test", "/"));
        // Refused by its Content-Length before it is read: the rest of the stream is read and dropped, and the
        // connection serves the next request.
        String tooLarge = curl("local.test", "--http2", "-D", "-", "--data-binary", "@" + big,
                url("local.test", "/echo"), "--next", "-k", "--http2", "--resolve",
                "local.test:" + dataPlane.tlsPort() + ":127.0.0.1", "-o", "/dev/null", "-w", "%{http_code}",
                url("local.test", "/echo"));

        assertTrue(notFound.startsWith("HTTP/2 502"), notFound);
        assertTrue(notFound.contains("upstream_connect_failure"), notFound);
        assertFalse(notFound.toLowerCase().contains("connection:"), notFound);
        assertTrue(tooLarge.startsWith("HTTP/2 413"), tooLarge);
        assertTrue(tooLarge.endsWith("200"), tooLarge);
        assertFalse(tooLarge.toLowerCase().contains("connection:"), tooLarge);
    }

    @Test
    void aStreamForAHostTheConnectionsServerNameDidNotChooseIsMisdirected() throws Exception {
        OriginServer origin = origin("h2-sni");
        httpsVhost("h2-sni-a", "a.sni.test", origin);
        httpsVhost("h2-sni-b", "b.sni.test", origin);

        // SNI a.sni.test, :authority b.sni.test (curl turns the Host field into :authority over HTTP/2).
        String out = curl("a.sni.test", "--http2", "-o", "/dev/null", "-w", "%{http_version} %{http_code}",
                "-H", "Host: b.sni.test:" + dataPlane.tlsPort(), url("a.sni.test", "/echo"));

        assertEquals("2 421", out);
        assertEquals(0, origin.requestCount());
    }

    private String certificateFor(String host) {
        return upload(TestPki.leaf(ROOT, TestPki.keys(Kind.EC_P256), Instant.now().minus(Duration.ofHours(1)),
                Instant.now().plus(Duration.ofDays(30)), host));
    }

    @Test
    void cacheAndCompressionWorkTheSameOverHttp2() throws Exception {
        TextOrigin text = TextOrigin.start();
        try {
            Api.create(Api.vhost("h2-cached", "cached.test", text.url())
                    .put("tls", new JsonObject().put("certificate", certificateFor("cached.test")))
                    .put("cache", Api.enabled()).put("compression", Api.enabled()));
            Path body = Files.createTempFile("h2-page", ".html");

            String first = curl("cached.test", "--http2", "-D", "-", "--compressed", "-o", body.toString(),
                    url("cached.test", "/page"));
            String second = curl("cached.test", "--http2", "-D", "-", "--compressed", "-o", body.toString(),
                    url("cached.test", "/page"));

            assertTrue(first.startsWith("HTTP/2 200"), first);
            assertTrue(first.toLowerCase().contains("content-encoding: br"), first);
            assertTrue(second.toLowerCase().contains("cache-status: portico; hit"), second);
            assertTrue(second.toLowerCase().contains("content-encoding: br"), second);
            assertArrayEquals(TextOrigin.PAGE, Files.readAllBytes(body), "decoded body as the origin sent it");
            assertEquals(1, text.requests(), "the second answer came from the cache");
        } finally {
            text.close();
        }
    }

    @Test
    void staticFilesAreServedOverHttp2ThroughFlowControl() throws Exception {
        Path root = Files.createTempDirectory("h2-static");
        byte[] large = new byte[700_000];
        for (int i = 0; i < large.length; i++) {
            large[i] = OriginServer.pattern(i);
        }
        Files.write(root.resolve("large.bin"), large);
        Api.create(new JsonObject().put("name", "h2-static").put("hostnames", new io.vertx.core.json.JsonArray()
                        .add("static.test")).put("upstreams", new io.vertx.core.json.JsonArray())
                .put("static", new JsonObject().put("root", root.toString()))
                .put("tls", new JsonObject().put("certificate", certificateFor("static.test"))));
        Path body = Files.createTempFile("h2-static", ".bin");

        // Ten times the initial stream window: the file is sent as the client's WINDOW_UPDATEs allow.
        String out = curl("static.test", "--http2", "-o", body.toString(), "-w", "%{http_version} %{http_code}",
                url("static.test", "/large.bin"));

        assertEquals("2 200", out);
        assertArrayEquals(large, Files.readAllBytes(body));
    }

    @Test
    void earlyHintsReachAnHttp2ClientAheadOfTheResponse() throws Exception {
        String hints = "HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload; as=style\r\n"
                + "Connection: X-Hint-Secret\r\nX-Hint-Secret: for-the-proxy-only\r\n\r\n";
        String processing = "HTTP/1.1 102 Processing\r\n\r\n";
        String done = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 4\r\n\r\ndone";
        try (RawOrigin origin = RawOrigin.start(request -> request.write(processing + hints + done))) {
            Api.create(Api.vhost("h2-hints", "hints.test", origin.url())
                    .put("tls", new JsonObject().put("certificate", certificateFor("hints.test"))));
            HttpClient client = h2Client("hints.test");
            try {
                List<io.vertx.core.MultiMap> received = new java.util.concurrent.CopyOnWriteArrayList<>();
                String body = await(client.request(options("hints.test", HttpMethod.GET, "/page")).compose(r -> {
                    r.earlyHintsHandler(received::add);
                    return r.send();
                }).compose(r -> {
                    assertEquals(200, r.statusCode());
                    return r.body();
                })).toString();

                assertEquals("done", body);
                assertEquals(1, received.size(), "one 103, and no 102, reached the client: " + received);
                io.vertx.core.MultiMap early = received.get(0);
                assertEquals("</style.css>; rel=preload; as=style", early.get("link"));
                assertTrue(early.get("via").startsWith("1.1 "), early.get("via"));
                assertNull(early.get("x-hint-secret"), "hop-by-hop fields stay behind");
            } finally {
                client.close();
            }
        }
    }

    private HttpClient h2Client(String serverName) {
        return vertx.createHttpClient(new HttpClientOptions().setProtocolVersion(HttpVersion.HTTP_2).setSsl(true)
                .setUseAlpn(true).setTrustAll(true).setVerifyHost(false).setForceSni(true)
                .setHttp2MultiplexingLimit(100).setHttp2MaxPoolSize(1));
    }

    private RequestOptions options(String host, HttpMethod method, String path) {
        return new RequestOptions().setHost(host).setPort(dataPlane.tlsPort()).setMethod(method).setURI(path)
                .setServer(io.vertx.core.net.SocketAddress.inetSocketAddress(dataPlane.tlsPort(), "127.0.0.1"));
    }

    private static <T> T await(Future<T> future) throws Exception {
        return future.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
}
