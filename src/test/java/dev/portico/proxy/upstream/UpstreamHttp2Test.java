package dev.portico.proxy.upstream;

import dev.portico.testing.Api;
import dev.portico.testing.DataPlaneTestSupport;
import dev.portico.testing.OpensslPki;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient;
import dev.portico.testing.TestVertx;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.PemKeyCertOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static dev.portico.testing.Problems.VHOSTS;
import static dev.portico.testing.Problems.assertInvalid;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Upstreams spoken to over HTTP/2: {@code protocol: h2c} (prior knowledge, no Upgrade) and {@code protocol: h2}
 * (ALPN, with the upstream's CA bundle), reached by an HTTP/1.1 client. The origin answers with what it saw:
 * protocol version, {@code :authority}, whether a connection-specific field came through, {@code te}.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class UpstreamHttp2Test extends DataPlaneTestSupport {

    private static final OpensslPki PKI = OpensslPki.authority("Portico h2 upstream test CA");
    private static final OpensslPki.Issued LOOPBACK = PKI.server("DNS:loopback.test,IP:127.0.0.1");

    private final List<HttpServer> servers = new ArrayList<>();
    private final Set<String> connections = ConcurrentHashMap.newKeySet();

    @AfterEach
    void closeOrigins() {
        servers.forEach(server -> TestVertx.await(server.close()));
    }

    /** An origin answering JSON about each request; with trailers {@code grpc-status: 0} on {@code /trailers}. */
    private int h2Origin(boolean tls) {
        HttpServerOptions options = new HttpServerOptions().setHost("127.0.0.1").setPort(0);
        if (tls) {
            options.setSsl(true).setUseAlpn(true).setKeyCertOptions(new PemKeyCertOptions()
                    .addCertValue(Buffer.buffer(LOOPBACK.certificatePem()))
                    .addKeyValue(Buffer.buffer(LOOPBACK.keyPem())));
        }
        HttpServer server = TestVertx.get().createHttpServer(options).requestHandler(request -> {
            connections.add(request.connection().remoteAddress().toString());
            JsonObject seen = new JsonObject()
                    .put("version", request.version().name())
                    .put("authority", request.authority() == null ? null : request.authority().toString())
                    .put("host", request.headers().get("host"))
                    .put("te", request.getHeader("te"))
                    .put("connection", request.getHeader("connection"))
                    .put("keepAlive", request.getHeader("keep-alive"))
                    .put("requestId", request.getHeader("X-Request-Id"));
            if (request.path().equals("/body")) {
                request.body().onSuccess(body -> request.response().end(body));
            } else if (request.path().equals("/trailers")) {
                request.response().setChunked(true).write(seen.toBuffer());
                request.response().trailers().set("grpc-status", "0").set("grpc-message", "fine");
                request.response().end();
            } else {
                request.response().putHeader("content-type", "application/json").end(seen.toBuffer());
            }
        });
        TestVertx.await(server.listen());
        servers.add(server);
        return server.actualPort();
    }

    private static JsonObject vhost(String name, String url, String protocol, JsonObject tls) {
        JsonObject upstream = new JsonObject().put("url", url);
        if (protocol != null) {
            upstream.put("protocol", protocol);
        }
        if (tls != null) {
            upstream.put("tls", tls);
        }
        return new JsonObject().put("name", name).put("hostnames", new JsonArray().add(name + ".test"))
                .put("upstreams", new JsonArray().add(upstream));
    }

    @Test
    void anH2cUpstreamIsSpokenToWithPriorKnowledge() {
        int port = h2Origin(false);
        vhost(vhost("plain", "http://127.0.0.1:" + port, "h2c", null));
        ProxyClient.Reply reply = client().send(HttpMethod.GET, "plain.test", "/x",
                "Connection", "keep-alive, X-Private", "Keep-Alive", "timeout=5", "TE", "trailers");
        assertEquals(200, reply.status(), reply.text());
        JsonObject seen = reply.json();
        assertEquals("HTTP_2", seen.getString("version"));
        assertEquals("plain.test", seen.getString("authority"), "the Host the vhost sends (preserveHost), as :authority");
        assertNull(seen.getString("host"), "HTTP/2 names the host in :authority only");
        assertNull(seen.getString("connection"));
        assertNull(seen.getString("keepAlive"));
        assertEquals("trailers", seen.getString("te"), "TE: trailers is the one connection field h2 keeps");
        assertEquals(reply.header("X-Request-Id"), seen.getString("requestId"));
    }

    @Test
    void anH2UpstreamNegotiatesHttp2ByAlpnWithItsCaBundle() {
        int port = h2Origin(true);
        vhost(vhost("secure", "https://127.0.0.1:" + port, "h2", new JsonObject().put("caBundle", PKI.caPem())));
        ProxyClient.Reply reply = client().get("secure.test", "/x");
        assertEquals(200, reply.status(), reply.text());
        assertEquals("HTTP_2", reply.json().getString("version"));
        assertNull(reply.json().getString("te"), "no TE unless the client sent TE: trailers");
    }

    @Test
    void theUpstreamsTrailersReachAnHttp11ClientInTheLastChunk() {
        int port = h2Origin(false);
        vhost(vhost("trailing", "http://127.0.0.1:" + port, "h2c", null));
        io.vertx.core.http.HttpClientResponse[] response = new io.vertx.core.http.HttpClientResponse[1];
        Buffer body = TestVertx.await(client().raw().request(new io.vertx.core.http.RequestOptions()
                        .setHost("127.0.0.1").setPort(dataPlane.port()).setURI("/trailers")
                        .putHeader("Host", "trailing.test").putHeader("TE", "trailers"))
                .compose(request -> request.send().compose(r -> {
                    response[0] = r;
                    return r.body();
                })));
        assertEquals(200, response[0].statusCode(), body.toString());
        assertEquals("0", response[0].trailers().get("grpc-status"));
        assertEquals("fine", response[0].trailers().get("grpc-message"));
    }

    @Test
    void aChunkedBodyOfUnknownLengthReachesAnH2cUpstreamWhole() {
        int port = h2Origin(false);
        vhost(vhost("chunked", "http://127.0.0.1:" + port, "h2c", null));
        Buffer echoed = TestVertx.await(client().raw().request(new io.vertx.core.http.RequestOptions()
                        .setMethod(HttpMethod.POST).setHost("127.0.0.1").setPort(dataPlane.port()).setURI("/body")
                        .putHeader("Host", "chunked.test"))
                .compose(request -> {
                    request.setChunked(true);
                    request.write("first,");
                    return request.end("second").compose(sent -> request.response());
                })
                .compose(io.vertx.core.http.HttpClientResponse::body));
        assertEquals("first,second", echoed.toString(), "the body went upstream as DATA frames until END_STREAM");
    }

    @Test
    void concurrentRequestsShareAFewConnections() {
        int port = h2Origin(false);
        vhost(vhost("many", "http://127.0.0.1:" + port, "h2c", null));
        List<io.vertx.core.Future<ProxyClient.Reply>> replies = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            replies.add(client().sendAsync(HttpMethod.GET, "many.test", "/" + i, Map.of(), null));
        }
        for (io.vertx.core.Future<ProxyClient.Reply> reply : replies) {
            assertEquals(200, TestVertx.await(reply).status());
        }
        int loops = Runtime.getRuntime().availableProcessors() * 2;
        assertTrue(connections.size() <= 2 * loops, "connections: " + connections.size());
        assertTrue(connections.size() < 50, "streams multiplex: " + connections.size());
    }

    @Test
    void theApiRefusesAProtocolThatDoesNotFitTheUrl() {
        assertInvalid(Api.given().body(vhost("a", "http://127.0.0.1:1", "h2", null).encode()).post(VHOSTS),
                "upstreams[0].protocol");
        assertInvalid(Api.given().body(vhost("b", "https://127.0.0.1:1", "h2c", null).encode()).post(VHOSTS),
                "upstreams[0].protocol");
        assertInvalid(Api.given().body(vhost("c", "http://127.0.0.1:1", "h3", null).encode()).post(VHOSTS),
                "upstreams[0].protocol");
    }

    @Test
    void theApiShowsTheProtocolWithItsDefault() {
        String id = vhost(vhost("shown", "http://127.0.0.1:1", "H2C", null));
        String plain = vhost(vhost("default", "http://127.0.0.1:1", null, null));
        assertEquals("h2c", Api.given().get(VHOSTS + "/" + id).then().statusCode(200).extract()
                .path("upstreams[0].protocol"));
        assertEquals("http/1.1", Api.given().get(VHOSTS + "/" + plain).then().statusCode(200).extract()
                .path("upstreams[0].protocol"));
    }

    @Test
    void aGrpcRequestToADownUpstreamIsAnsweredUnavailableTheGrpcWay() {
        vhost(vhost("down", "http://127.0.0.1:1", "h2c", null));
        ProxyClient.Reply reply = client().send(HttpMethod.POST, "down.test", "/pkg.Service/Call",
                Map.of("Content-Type", "application/grpc", "TE", "trailers"), Buffer.buffer(new byte[5]));
        assertEquals(200, reply.status(), reply.text());
        assertEquals("application/grpc", reply.header("Content-Type"));
        assertEquals("14", reply.header("grpc-status"));
        String message = reply.header("grpc-message");
        assertTrue(message.startsWith("upstream_connect_failure"), message);
        assertTrue(message.contains(reply.header("X-Request-Id")), message);
        assertEquals(0, reply.body().length());
    }

    @Test
    void aPlainRequestToADownUpstreamStillGetsAProblem() {
        vhost(vhost("downplain", "http://127.0.0.1:1", "h2c", null));
        ProxyClient.Reply reply = client().get("downplain.test", "/");
        assertEquals(502, reply.status());
        assertFalse(reply.headers().contains("grpc-status"));
    }
}
