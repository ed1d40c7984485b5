package dev.portico.proxy.upstream.pool;

import dev.portico.proxy.core.outcome.LocalReason;
import dev.portico.proxy.core.outcome.ProxyError;
import dev.portico.proxy.upstream.balance.UpstreamHealth;
import dev.portico.proxy.upstream.balance.UpstreamTarget;
import dev.portico.proxy.upstream.balance.UpstreamTls;
import dev.portico.testing.OpensslPki;
import dev.portico.testing.TestVertx;
import dev.portico.testing.TlsOrigin;
import dev.portico.vhost.UpstreamSpec;
import dev.portico.vhost.UpstreamTlsSpec;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Mutual TLS, the pool's side (the API names certificates once the certificate store exists): a compiled upstream
 * with a client certificate presents it to an origin that requires one, and gets its own pool. Against a real HTTPS
 * origin on loopback that requires a certificate from its client CA.
 */
class UpstreamClientCertificateTest {

    private static final OpensslPki SERVER_PKI = OpensslPki.authority("Origin CA");
    private static final OpensslPki CLIENT_PKI = OpensslPki.authority("Client CA");
    private static final OpensslPki.Issued SERVER = SERVER_PKI.server("IP:127.0.0.1");
    private static final OpensslPki.Issued CLIENT = CLIENT_PKI.client("portico.client.test");

    private TlsOrigin origin;
    private static final PoolLimits LIMITS = new PoolLimits(5_000, 64, 5_000);

    private Context loop;
    private UpstreamClients clients;

    @BeforeEach
    void start() {
        origin = TlsOrigin.start(SERVER, CLIENT_PKI.caPem());
        loop = TestVertx.get().getOrCreateContext();
        clients = new UpstreamClients(loop, new UpstreamClients.Settings(4, 10));
    }

    @AfterEach
    void stop() {
        loop.runOnContext(v -> clients.closeAll());
        origin.close();
    }

    private UpstreamTarget target(UpstreamTls.ClientCertificate certificate) {
        UpstreamSpec spec = new UpstreamSpec(origin.url(), true, "127.0.0.1", origin.port(), "", 1,
                new UpstreamTlsSpec(SERVER_PKI.caPem(), true, null, null));
        return UpstreamTarget.of(0, spec, 5_000, 64, new UpstreamHealth(1, 10_000_000_000L), certificate);
    }

    private Future<JsonObject> get(UpstreamTarget target) {
        UpstreamClients.PooledClient pool = clients.acquire(target, LIMITS);
        RequestOptions options = new RequestOptions().setServer(target.server()).setURI("/");
        return pool.request(options, false, LIMITS.queueTimeoutMillis())
                .compose(request -> request.vertx().send())
                .compose(HttpClientResponse::body)
                .map(body -> body.toJsonObject())
                .andThen(done -> pool.release());
    }

    @Test
    void theClientCertificateIsPresentedToAnOriginThatRequiresOne() {
        UpstreamTls.ClientCertificate certificate = new UpstreamTls.ClientCertificate("client-1", CLIENT.chain(),
                CLIENT.privateKey());

        JsonObject seen = TestVertx.onContext(loop, () -> get(target(certificate)));

        assertTrue(seen.getString("client").contains("CN=portico.client.test"), seen.encode());
    }

    @Test
    void withoutAClientCertificateTheOriginRefusesTheHandshakeAndItIsATlsError() {
        UpstreamTarget target = target(null);
        // Which step fails depends on the TLS version: under 1.2 the handshake (connecting), under 1.3 the client is
        // done with its handshake before the origin checks its certificate, so the request gets the alert.
        ProxyError refused = TestVertx.onContext(loop, () -> {
            UpstreamClients.PooledClient pool = clients.acquire(target, LIMITS);
            return pool.request(new RequestOptions().setServer(target.server()).setURI("/"), false,
                            LIMITS.queueTimeoutMillis())
                    .transform(connected -> connected.failed()
                            ? Future.succeededFuture(ProxyError.connecting(connected.cause()))
                            : connected.result().vertx().send().compose(HttpClientResponse::body)
                                    .transform(sent -> Future.succeededFuture(sent.failed()
                                            ? ProxyError.awaitingResponse(sent.cause()) : null)))
                    .andThen(done -> pool.release());
        });

        assertTrue(refused != null, "the origin answered a client without a certificate");
        assertEquals(LocalReason.UPSTREAM_TLS_ERROR, refused.reason(), refused.toString());
    }

    @Test
    void aClientCertificateGetsAPoolOfItsOwn() {
        UpstreamTls.ClientCertificate certificate = new UpstreamTls.ClientCertificate("client-1", CLIENT.chain(),
                CLIENT.privateKey());
        UpstreamTls.ClientCertificate renewed = new UpstreamTls.ClientCertificate("client-2", CLIENT.chain(),
                CLIENT.privateKey());

        assertNotEquals(target(null).poolKey(), target(certificate).poolKey());
        assertNotEquals(target(certificate).poolKey(), target(renewed).poolKey());
        assertEquals(target(certificate).poolKey(), target(certificate).poolKey());
    }

    @Test
    void defaultTlsSettingsKeepThePoolKeyOfTheOrigin() {
        UpstreamSpec plain = new UpstreamSpec(origin.url(), true, "127.0.0.1", origin.port(), "", 1, null);

        UpstreamTarget target = UpstreamTarget.of(0, plain, 5_000, 64, new UpstreamHealth(1, 1L), null);

        assertEquals("http/1.1|" + plain.origin() + "|5000|64", target.poolKey(),
                "protocol, origin, connect timeout, queue size");
        assertNull(target.tls().serverName());
    }

}
