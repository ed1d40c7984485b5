package dev.portico.testing;

import io.vertx.core.http.ClientAuth;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.core.buffer.Buffer;

import javax.net.ssl.SSLPeerUnverifiedException;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.List;

/**
 * An HTTPS origin on loopback. Each request is answered with JSON naming what the TLS layer saw: the SNI name the
 * client indicated ({@code sni}, null for none), the subject of the client certificate ({@code client}, null for
 * none), and the request's {@code host}.
 */
public final class TlsOrigin implements AutoCloseable {

    private final HttpServer server;
    private final java.util.concurrent.atomic.AtomicInteger requests;

    private TlsOrigin(HttpServer server, java.util.concurrent.atomic.AtomicInteger requests) {
        this.server = server;
        this.requests = requests;
    }

    /** Requests answered so far. */
    public int requestCount() {
        return requests.get();
    }

    /** Presents {@code certificate}; asks for no client certificate. */
    public static TlsOrigin start(OpensslPki.Issued certificate) {
        return start(certificate, null);
    }

    /**
     * @param clientCa PEM of the CA whose client certificates are required; null to ask for none
     */
    public static TlsOrigin start(OpensslPki.Issued certificate, String clientCa) {
        HttpServerOptions options = new HttpServerOptions()
                .setHost("127.0.0.1")
                .setPort(0)
                .setSsl(true)
                .setSni(true)
                .setKeyCertOptions(new PemKeyCertOptions()
                        .addCertValue(Buffer.buffer(certificate.certificatePem()))
                        .addKeyValue(Buffer.buffer(certificate.keyPem())));
        if (clientCa != null) {
            options.setClientAuth(ClientAuth.REQUIRED)
                    .setTrustOptions(new PemTrustOptions().addCertValue(Buffer.buffer(clientCa)));
        }
        java.util.concurrent.atomic.AtomicInteger requests = new java.util.concurrent.atomic.AtomicInteger();
        HttpServer server = TestVertx.get().createHttpServer(options).requestHandler(request -> {
            requests.incrementAndGet();
            JsonObject seen = new JsonObject()
                    .put("sni", request.connection().indicatedServerName())
                    .put("client", clientSubject(request.connection()))
                    .put("host", request.getHeader("Host"));
            request.response().putHeader("Content-Type", "application/json").end(seen.encode());
        });
        return new TlsOrigin(TestVertx.await(server.listen()), requests);
    }

    private static String clientSubject(io.vertx.core.http.HttpConnection connection) {
        try {
            List<Certificate> chain = connection.peerCertificates();
            return chain.isEmpty() ? null : ((X509Certificate) chain.get(0)).getSubjectX500Principal().getName();
        } catch (SSLPeerUnverifiedException e) {
            return null;
        }
    }

    public int port() {
        return server.actualPort();
    }

    /** {@code https://127.0.0.1:port}. */
    public String url() {
        return "https://127.0.0.1:" + port();
    }

    @Override
    public void close() {
        TestVertx.await(server.close());
    }
}
