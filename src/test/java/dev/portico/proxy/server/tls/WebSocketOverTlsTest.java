package dev.portico.proxy.server.tls;

import dev.portico.proxy.route.TlsTable;
import dev.portico.testing.Api;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.RawHttp;
import dev.portico.testing.WebSocketOrigin;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import javax.net.ssl.SSLSocket;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import static dev.portico.proxy.server.tls.TlsClients.handshake;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A WebSocket over the TLS listener (wss://): the switch happens under TLS the same way, and frames cross the
 * tunnel encrypted on the client side, in clear to a cleartext origin. The client side speaks RFC 6455 frames by
 * hand, on a plain {@link SSLSocket}, so the server name the vhost's certificate needs is sent.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class WebSocketOverTlsTest extends TlsListenerTestSupport {

    private static final String HOST = "wss.test";

    private static TlsTable certificates;
    private WebSocketOrigin origin;

    @BeforeAll
    static void makeCertificates() throws Exception {
        certificates = TlsTable.of(Map.of(HOST, TestCertificates.ecdsa(HOST)), null);
    }

    @AfterEach
    void stopOrigin() {
        if (origin != null) {
            origin.close();
        }
    }

    @ParameterizedTest
    @EnumSource(value = TlsEngine.class, names = {"OPENSSL", "JDK"})
    void aWebSocketOverTlsEchoesThroughTheTunnel(TlsEngine engine) throws Exception {
        origin = WebSocketOrigin.start("wss");
        vhost(Api.vhost("wss", HOST, origin.url()));
        try (SSLSocket socket = handshake(listen(engine, certificates), HOST)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET /tls HTTP/1.1\r\nHost: " + HOST + "\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
                    + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            String head = RawHttp.readUntil(socket.getInputStream(), "\r\n\r\n");
            assertEquals(101, RawHttp.status(head), head);
            // RFC 6455 section 1.3's example key and its accept value: the origin's answer reached the client.
            assertTrue(head.contains("s3pPLMBiTxaQ9kYGzzhZRbK+xOo="), head);

            DataInputStream in = new DataInputStream(socket.getInputStream());
            for (String text : new String[]{"over tls", "twice"}) {
                writeMaskedText(out, text);
                assertEquals(0x81, in.readUnsignedByte(), "a final text frame");
                byte[] payload = new byte[in.readUnsignedByte()];
                in.readFully(payload);
                assertEquals(text, new String(payload, StandardCharsets.UTF_8));
            }
        }
    }

    /** A client's text frame (RFC 6455 section 5.2): final, masked, shorter than 126 bytes. */
    private static void writeMaskedText(OutputStream out, String text) throws IOException {
        byte[] payload = text.getBytes(StandardCharsets.UTF_8);
        byte[] mask = {1, 2, 3, 4};
        byte[] frame = new byte[2 + 4 + payload.length];
        frame[0] = (byte) 0x81;
        frame[1] = (byte) (0x80 | payload.length);
        System.arraycopy(mask, 0, frame, 2, 4);
        for (int i = 0; i < payload.length; i++) {
            frame[6 + i] = (byte) (payload[i] ^ mask[i % 4]);
        }
        out.write(frame);
        out.flush();
    }
}
