package dev.portico.proxy.upstream;

import dev.portico.proxy.upstream.balance.UpstreamTls;
import dev.portico.testing.Api;
import dev.portico.testing.DataPlaneTestSupport;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient;
import dev.portico.testing.OpensslPki;
import dev.portico.testing.TlsOrigin;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Per-upstream TLS settings against real HTTPS origins on loopback, each with a certificate from a CA made for the
 * test (so the JVM's trust store does not trust it): {@code tls.caBundle}, {@code tls.verify: false} and its warning,
 * {@code tls.serverName} in SNI and in the certificate check, and one pool per TLS setting. Each scenario has its own
 * origin: passive health is kept per origin, and a failed handshake counts against it.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class UpstreamTlsTest extends DataPlaneTestSupport {

    private static final OpensslPki PKI = OpensslPki.authority("Portico upstream test CA");
    private static final OpensslPki.Issued LOOPBACK = PKI.server("DNS:loopback.test,IP:127.0.0.1");
    private static final OpensslPki.Issued NAMED_ONLY = PKI.server("DNS:origin.internal");

    private final List<TlsOrigin> origins = new ArrayList<>();

    @AfterEach
    void closeOrigins() {
        origins.forEach(TlsOrigin::close);
        origins.clear();
    }

    private TlsOrigin tlsOrigin(OpensslPki.Issued certificate) {
        TlsOrigin origin = TlsOrigin.start(certificate);
        origins.add(origin);
        return origin;
    }

    private static JsonObject vhostWithTls(String name, String url, JsonObject tls) {
        JsonObject upstream = new JsonObject().put("url", url);
        if (tls != null) {
            upstream.put("tls", tls);
        }
        return new JsonObject().put("name", name).put("hostnames", new JsonArray().add(name + ".test"))
                .put("upstreams", new JsonArray().add(upstream));
    }

    private static void assertTlsError(ProxyClient.Reply reply) {
        assertEquals(502, reply.status(), reply.text());
        assertEquals("application/problem+json", reply.header("Content-Type"));
        assertEquals("upstream_tls_error", reply.json().getString("reason"));
        assertEquals(reply.header("X-Request-Id"), reply.json().getString("requestId"));
        assertTrue(reply.json().getString("requestId").length() > 0);
    }

    @Test
    void theOriginsOwnCaInCaBundleIsTrusted() {
        TlsOrigin origin = tlsOrigin(LOOPBACK);
        vhost(vhostWithTls("bundle", origin.url(), new JsonObject().put("caBundle", PKI.caPem())));

        ProxyClient.Reply reply = client().get("bundle.test", "/");

        assertEquals(200, reply.status(), reply.text());
        assertEquals("bundle.test", reply.json().getString("host"));
    }

    @Test
    void oneVhostsFailingTlsSettingsDoNotMarkTheOriginDownForAnotherVhost() {
        TlsOrigin shared = tlsOrigin(LOOPBACK);
        TlsOrigin spare = tlsOrigin(LOOPBACK);
        JsonObject trusting = new JsonObject().put("caBundle", PKI.caPem());
        vhost(vhostWithTls("wrong-ca", shared.url(), null));
        JsonObject two = vhostWithTls("two-upstreams", shared.url(), trusting);
        two.getJsonArray("upstreams").add(new JsonObject().put("url", spare.url()).put("tls", trusting));
        vhost(two);

        assertTlsError(client().get("wrong-ca.test", "/"));
        for (int i = 0; i < 4; i++) {
            assertEquals(200, client().get("two-upstreams.test", "/").status());
        }

        assertEquals(2, shared.requestCount(), "the shared origin stays in the other vhost's rotation");
        assertEquals(2, spare.requestCount());
    }

    @Test
    void withoutCaBundleAnUnknownCaFailsTheHandshakeWith502() {
        TlsOrigin origin = tlsOrigin(LOOPBACK);
        vhost(vhostWithTls("no-bundle", origin.url(), null));

        assertTlsError(client().get("no-bundle.test", "/"));
    }

    @Test
    void aCaBundleReplacesTheDefaultTrustSoAnotherCaIsRefused() {
        TlsOrigin origin = tlsOrigin(LOOPBACK);
        String otherCa = OpensslPki.authority("Some other CA").caPem();
        vhost(vhostWithTls("other-ca", origin.url(), new JsonObject().put("caBundle", otherCa)));

        assertTlsError(client().get("other-ca.test", "/"));
    }

    @Test
    void verifyFalseAcceptsAnyCertificateAndWarnsOnEveryCompile() {
        TlsOrigin origin = tlsOrigin(NAMED_ONLY);
        List<String> warnings = new ArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                    synchronized (warnings) {
                        warnings.add(String.format(record.getMessage(), record.getParameters()));
                    }
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger logger = Logger.getLogger(UpstreamTls.class.getName());
        logger.addHandler(capture);
        try {
            vhost(vhostWithTls("insecure", origin.url(), new JsonObject().put("verify", false)));

            ProxyClient.Reply reply = client().get("insecure.test", "/");

            assertEquals(200, reply.status(), reply.text());
            assertEquals(1, countNaming(warnings, "insecure", origin.url()), warnings.toString());
            // Another snapshot (a change to another vhost) compiles the unverified upstream again: warned again.
            vhost(vhostWithTls("bystander", "http://127.0.0.1:9", null));
            assertEquals(2, countNaming(warnings, "insecure", origin.url()), warnings.toString());
            // And not per request.
            client().get("insecure.test", "/");
            assertEquals(2, countNaming(warnings, "insecure", origin.url()), warnings.toString());
        } finally {
            logger.removeHandler(capture);
        }
    }

    private static long countNaming(List<String> warnings, String vhost, String url) {
        synchronized (warnings) {
            return warnings.stream()
                    .filter(w -> w.contains("'" + vhost + "'") && w.contains(url) && w.contains("tls.verify"))
                    .count();
        }
    }

    @Test
    void serverNameIsSentInSniAndTheCertificateIsCheckedAgainstIt() {
        TlsOrigin origin = tlsOrigin(NAMED_ONLY);
        vhost(vhostWithTls("sni", origin.url(),
                new JsonObject().put("caBundle", PKI.caPem()).put("serverName", "Origin.Internal")));

        ProxyClient.Reply reply = client().get("sni.test", "/");

        assertEquals(200, reply.status(), reply.text());
        assertEquals("origin.internal", reply.json().getString("sni"));
        // SNI only: the Host header is still the client's.
        assertEquals("sni.test", reply.json().getString("host"));
    }

    @Test
    void aCertificateThatDoesNotNameTheServerNameIsRefused() {
        TlsOrigin origin = tlsOrigin(NAMED_ONLY);
        vhost(vhostWithTls("wrong-name", origin.url(),
                new JsonObject().put("caBundle", PKI.caPem()).put("serverName", "elsewhere.internal")));

        assertTlsError(client().get("wrong-name.test", "/"));
    }

    @Test
    void withoutServerNameTheUrlsHostIsCheckedAndNoSniIsSentForAnAddress() {
        TlsOrigin named = tlsOrigin(NAMED_ONLY);
        TlsOrigin loopback = tlsOrigin(LOOPBACK);
        vhost(vhostWithTls("by-address", named.url(), new JsonObject().put("caBundle", PKI.caPem())));
        vhost(vhostWithTls("by-address-ok", loopback.url(), new JsonObject().put("caBundle", PKI.caPem())));

        assertTlsError(client().get("by-address.test", "/"));
        ProxyClient.Reply reply = client().get("by-address-ok.test", "/");
        assertEquals(200, reply.status(), reply.text());
        assertNull(reply.json().getString("sni"));
    }

    @Test
    void upstreamsOfOneOriginWithDifferentTlsSettingsDoNotShareConnections() {
        TlsOrigin origin = tlsOrigin(LOOPBACK);
        vhost(vhostWithTls("trusting", origin.url(), new JsonObject().put("caBundle", PKI.caPem())));
        vhost(vhostWithTls("default-trust", origin.url(), null));
        // One connection to Portico: both requests are served by the same event loop and its pools.
        ProxyClient client = new ProxyClient(dataPlane.port(), "127.0.0.1", null, 1);
        try {
            assertEquals(200, client.get("trusting.test", "/").status());
            // A pool shared by origin alone would hand over the connection verified with the bundle.
            assertTlsError(client.get("default-trust.test", "/"));
        } finally {
            client.close();
        }
    }

    @Test
    void anUnverifiedUpstreamDoesNotLendItsConnectionsToAVerifiedOne() {
        TlsOrigin origin = tlsOrigin(LOOPBACK);
        vhost(vhostWithTls("lax", origin.url(), new JsonObject().put("verify", false)));
        vhost(vhostWithTls("strict", origin.url(), null));
        ProxyClient client = new ProxyClient(dataPlane.port(), "127.0.0.1", null, 1);
        try {
            assertEquals(200, client.get("lax.test", "/").status());
            assertTlsError(client.get("strict.test", "/"));
        } finally {
            client.close();
        }
    }

    @Test
    void changingTheCaBundleTakesEffectOnTheNextRequest() {
        TlsOrigin origin = tlsOrigin(LOOPBACK);
        String id = vhost(vhostWithTls("rotate", origin.url(), new JsonObject().put("caBundle", PKI.caPem())));
        ProxyClient client = new ProxyClient(dataPlane.port(), "127.0.0.1", null, 1);
        try {
            assertEquals(200, client.get("rotate.test", "/").status());
            String otherCa = OpensslPki.authority("Rotated-to CA").caPem();
            Api.given().body(vhostWithTls("rotate", origin.url(), new JsonObject().put("caBundle", otherCa)).encode())
                    .put("/api/v1/vhosts/" + id).then().statusCode(200);
            assertTlsError(client.get("rotate.test", "/"));
        } finally {
            client.close();
        }
    }
}
