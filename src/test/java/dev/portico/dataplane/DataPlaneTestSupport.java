package dev.portico.dataplane;

import dev.portico.testing.Api;
import dev.portico.testing.OriginServer;
import dev.portico.testing.ProxyClient;
import dev.portico.testing.SocketBuffers;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;

import java.util.ArrayList;
import java.util.List;

/** Shared set-up of data-plane tests: real origins, a real client, and a clean configuration after each test. */
abstract class DataPlaneTestSupport {

    @Inject
    DataPlaneServer dataPlane;

    private final List<AutoCloseable> closeables = new ArrayList<>();

    @AfterEach
    void cleanUp() throws Exception {
        Api.deleteAll();
        for (AutoCloseable closeable : closeables) {
            closeable.close();
        }
        closeables.clear();
    }

    OriginServer origin(String name) {
        OriginServer origin = OriginServer.start(name);
        closeables.add(origin);
        return origin;
    }

    ProxyClient client() {
        ProxyClient client = new ProxyClient(dataPlane.port());
        closeables.add(client);
        return client;
    }

    /** An origin and a client whose own sockets cannot grow: see {@link SocketBuffers}. */
    OriginServer originWithFixedSocketBuffers(String name) {
        OriginServer origin = OriginServer.withFixedSocketBuffers(name, SocketBuffers.FIXED);
        closeables.add(origin);
        return origin;
    }

    ProxyClient clientWithFixedSocketBuffers() {
        ProxyClient client = ProxyClient.withFixedSocketBuffers(dataPlane.port(), SocketBuffers.FIXED);
        closeables.add(client);
        return client;
    }

    ProxyClient client(String serverHost, String localAddress) {
        ProxyClient client = new ProxyClient(dataPlane.port(), serverHost, localAddress);
        closeables.add(client);
        return client;
    }

    /** Creates a vhost serving {@code hostname} from {@code origins}. */
    static String vhost(String name, String hostname, OriginServer... origins) {
        String[] urls = new String[origins.length];
        for (int i = 0; i < origins.length; i++) {
            urls[i] = origins[i].url();
        }
        return Api.create(Api.vhost(name, hostname, urls));
    }

    static String vhost(JsonObject definition) {
        return Api.create(definition);
    }
}
