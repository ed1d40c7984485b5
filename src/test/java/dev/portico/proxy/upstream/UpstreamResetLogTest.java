package dev.portico.proxy.upstream;

import dev.portico.testing.Api;
import dev.portico.testing.DataPlaneTestSupport;
import dev.portico.testing.LogCapture;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient;
import dev.portico.testing.RawOrigin;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.net.Socket;
import java.util.List;
import java.util.logging.Level;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 18: an origin that resets connections (before its answer, mid-body, and while a kept-alive connection
 * sits idle in the pool) costs the clients their 502s and nothing at ERROR in the log: the failure is expected,
 * already answered and counted, and the WARN line about it names the vhost, the upstream and the reason, once
 * per burst, not per connection.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class UpstreamResetLogTest extends DataPlaneTestSupport {

    private static void reset(Socket socket) throws java.io.IOException {
        socket.setSoLinger(true, 0);
        socket.close();
    }

    @Test
    void anOriginResettingConnectionsLeavesNoErrorLineAndOneWarningWithItsContext() throws Exception {
        try (RawOrigin origin = RawOrigin.start(request -> {
            switch (request.path()) {
                case "/reset-now" -> reset(request.socket());
                case "/reset-mid" -> {
                    request.write("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n" + "x".repeat(100));
                    Thread.sleep(50);
                    reset(request.socket());
                }
                default -> {
                    // Answered and kept alive, then reset while the connection is idle in Portico's pool.
                    request.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
                    Thread.sleep(100);
                    reset(request.socket());
                }
            }
        }); LogCapture log = LogCapture.start()) {
            vhost(Api.vhost("resets", "resets.test", origin.url()));
            ProxyClient client = client();
            for (int i = 0; i < 5; i++) {
                assertEquals(502, client.get("resets.test", "/reset-now").status());
                try {
                    client.get("resets.test", "/reset-mid");
                } catch (IllegalStateException clientConnectionReset) {
                    // the head was out: the client's connection is reset in turn, as it must be
                }
                assertEquals(200, client.get("resets.test", "/idle-reset").status());
                Thread.sleep(300);
            }

            List<LogCapture.Line> errors = log.atLeast(Level.SEVERE);
            assertEquals(List.of(), errors, "nothing at ERROR for an origin's resets");
            List<LogCapture.Line> unnamed = log.lines(line -> line.level().intValue() >= Level.WARNING.intValue()
                    && !(line.message() != null && line.message().contains("resets") && line.message().contains(origin.url())));
            assertEquals(List.of(), unnamed, "every warning names the vhost and the upstream");
            List<LogCapture.Line> warnings = log.atLeast(Level.WARNING);
            assertTrue(warnings.size() <= 2, "rate-limited, not one line per reset: " + warnings);
            assertTrue(warnings.stream().allMatch(line -> line.thrown() == null), "no stack trace: " + warnings);
        }
    }
}
