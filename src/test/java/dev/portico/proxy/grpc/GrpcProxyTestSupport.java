package dev.portico.proxy.grpc;

import dev.portico.testing.Api;
import dev.portico.testing.DataPlaneTestSupport;
import dev.portico.testing.GrpcClient;
import dev.portico.testing.OpensslPki;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;

import java.util.ArrayList;
import java.util.List;

/**
 * gRPC clients reaching vhosts through Portico's TLS listener, where ALPN offers h2 (the cleartext listener speaks
 * HTTP/1.1 only, and gRPC needs HTTP/2): each vhost gets a certificate from a throw-away CA the clients trust, and
 * the certificates are deleted after each test.
 */
abstract class GrpcProxyTestSupport extends DataPlaneTestSupport {

    private static final OpensslPki PKI = OpensslPki.authority("Portico gRPC test CA");

    private final List<GrpcClient> clients = new ArrayList<>();

    @AfterEach
    void closeClientsAndDeleteCertificates() throws Exception {
        for (GrpcClient client : clients) {
            client.close();
        }
        clients.clear();
        Api.deleteAll();
        List<String> ids = Api.given().get("/api/v1/certificates").then().statusCode(200).extract().path("id");
        ids.forEach(id -> Api.given().delete("/api/v1/certificates/" + id).then().statusCode(204));
    }

    /**
     * A vhost for {@code hostname} whose one upstream is spoken to with HTTP/2 prior knowledge, presenting a new
     * certificate for {@code hostname}.
     */
    static JsonObject grpcVhost(String name, String hostname, String upstreamUrl) {
        OpensslPki.Issued leaf = PKI.server("DNS:" + hostname);
        String certificate = Api.given().body(new JsonObject().put("certificate", leaf.certificatePem())
                        .put("privateKey", leaf.keyPem()).encode())
                .post("/api/v1/certificates").then().statusCode(201).extract().path("id");
        return new JsonObject().put("name", name).put("hostnames", new JsonArray().add(hostname))
                .put("upstreams", new JsonArray().add(new JsonObject().put("url", upstreamUrl).put("protocol", "h2c")))
                .put("tls", new JsonObject().put("certificate", certificate));
    }

    /** A client speaking HTTP/2 over TLS to the data plane's TLS listener as {@code hostname}; closed after the test. */
    GrpcClient client(String hostname) {
        GrpcClient client = GrpcClient.tls(dataPlane.tlsPort(), hostname, PKI.caPem());
        clients.add(client);
        return client;
    }

    /** The CA that issues the upstream certificates as well, for {@code protocol: h2} upstreams. */
    static OpensslPki pki() {
        return PKI;
    }
}
