package dev.portico.proxy.server.tls;

import dev.portico.testing.Api;
import dev.portico.testing.RawHttp;
import dev.portico.testing.TestPki.Issued;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;

import javax.net.ssl.SSLSocket;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * HTTPS vhosts set up as an operator does it: certificates uploaded through the API, named by a vhost's {@code tls};
 * requests sent over the data plane's real TLS and cleartext listeners. Deletes the certificates after each test.
 */
abstract class HttpsVhostTestSupport extends TlsListenerTestSupport {

    @AfterEach
    void deleteCertificates() {
        Api.deleteAll();
        List<String> ids = Api.given().get("/api/v1/certificates").then().extract().path("id");
        ids.forEach(id -> Api.given().delete("/api/v1/certificates/" + id).then().statusCode(204));
    }

    /** Uploads {@code leaf} with its key; its id. */
    static String upload(Issued leaf) {
        return Api.given().body(new JsonObject().put("certificate", leaf.certificatePem())
                        .put("privateKey", leaf.pkcs8Pem()).encode())
                .post("/api/v1/certificates").then().statusCode(201).extract().path("id");
    }

    /** A vhost serving {@code hostname} from {@code upstream}, presenting {@code certificateId}, with {@code tls}. */
    static JsonObject httpsVhost(String name, String hostname, String upstream, String certificateId,
                                 JsonObject tls) {
        return Api.vhost(name, hostname, upstream).put("tls", tls.copy().put("certificate", certificateId));
    }

    /** Sends {@code GET path} with {@code Host: host} on an open TLS connection and reads the response. */
    static RawHttp.Response get(SSLSocket socket, String host, String path) throws Exception {
        return send(socket.getOutputStream(), socket, "GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\n\r\n");
    }

    /** Sends {@code request} on a new cleartext connection to {@code port} and reads one response. */
    static RawHttp.Response cleartext(int port, String request) throws Exception {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(10_000);
            return send(socket.getOutputStream(), socket, request);
        }
    }

    private static RawHttp.Response send(OutputStream out, Socket socket, String request) throws Exception {
        out.write(request.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
        return RawHttp.readResponse(socket.getInputStream());
    }
}
