package dev.portico.proxy.server.tls;

import dev.portico.proxy.route.TlsTable;
import dev.portico.proxy.server.TlsListenerInstance;
import dev.portico.testing.Api;
import dev.portico.testing.Eventually;
import dev.portico.testing.OriginServer;
import dev.portico.testing.PostgresResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A draining data plane tells its HTTP/2 clients with GOAWAY (NO_ERROR) at once, idle connections included, and
 * lets the streams in flight finish: RFC 9113 section 6.8's graceful shutdown.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class Http2DrainTest extends TlsListenerTestSupport {

    private TlsListenerInstance instance;

    @AfterEach
    void stop() throws Exception {
        if (instance != null) {
            instance.close();
        }
        Api.deleteAll();
    }

    @Test
    void drainingSendsGoAwayAndLetsStreamsFinish() throws Exception {
        OriginServer origin = origin("drain");
        Api.create(Api.vhost("drain", "drain.test", origin.url()));
        TlsTable certificates = TlsTable.of(Map.of("drain.test", TestCertificates.ecdsa("drain.test")), null);
        instance = TlsListenerInstance.startWithHttp2(vertx, settings, snapshots, stats,
                dev.portico.proxy.server.tls.TlsTermination.fixed(certificates,
                        TlsEngine.OPENSSL.resolve(), CipherProfile.INTERMEDIATE, Duration.ofSeconds(10)));

        try (RawH2 busy = new RawH2(instance.port(), "drain.test", 0);
             RawH2 idle = new RawH2(instance.port(), "drain.test", 0)) {
            busy.frame(RawH2.HEADERS, RawH2.END_HEADERS | RawH2.END_STREAM, 1, RawH2.get("drain.test", "/slow/1500"));
            busy.flush();
            Eventually.within(Duration.ofSeconds(5), () -> assertEquals(1, origin.requestCount()));
            // The idle connection is up once the server acknowledged its SETTINGS (Vert.x hands it over then).
            RawH2.Frame settings = idle.next();
            while (settings != null && !(settings.type() == RawH2.SETTINGS && (settings.flags() & 0x1) != 0)) {
                settings = idle.next();
            }
            assertNotNull(settings, "the idle connection's SETTINGS acknowledged");

            instance.drain();

            assertEquals(0, idle.awaitGoAway(), "an idle connection is told at once: GOAWAY NO_ERROR");
            RawH2.Frame goAway = busy.await(RawH2.GOAWAY, -1);
            assertNotNull(goAway, "the busy connection is told too");
            assertEquals(0, goAway.errorCode());
            RawH2.Frame head = busy.await(RawH2.HEADERS, 1);
            assertNotNull(head, "the stream in flight is answered after the GOAWAY");
            RawH2.Frame last = busy.next();
            while (last != null && (last.stream() != 1 || (last.flags() & RawH2.END_STREAM) == 0)) {
                last = busy.next();
            }
            assertNotNull(last, "and runs to its end");
            assertTrue(last.type() == RawH2.DATA || last.type() == RawH2.HEADERS, "ended by " + last);
        }
    }
}
