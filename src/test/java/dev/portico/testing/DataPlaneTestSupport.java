package dev.portico.testing;

import dev.portico.proxy.server.DataPlaneServer;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;

import java.util.ArrayList;
import java.util.List;

/** Shared set-up of data-plane tests: real origins, a real client, and a clean configuration after each test. */
public abstract class DataPlaneTestSupport {

    @Inject
    protected DataPlaneServer dataPlane;

    private final List<AutoCloseable> closeables = new ArrayList<>();

    @AfterEach
    void cleanUp() throws Exception {
        Api.deleteAll();
        for (AutoCloseable closeable : closeables) {
            closeable.close();
        }
        closeables.clear();
    }

    protected OriginServer origin(String name) {
        OriginServer origin = OriginServer.start(name);
        closeables.add(origin);
        return origin;
    }

    protected ProxyClient client() {
        ProxyClient client = new ProxyClient(dataPlane.port());
        closeables.add(client);
        return client;
    }

    /** An origin and a client whose own sockets cannot grow: see {@link SocketBuffers}. */
    protected OriginServer originWithFixedSocketBuffers(String name) {
        OriginServer origin = OriginServer.withFixedSocketBuffers(name, SocketBuffers.FIXED);
        closeables.add(origin);
        return origin;
    }

    protected ProxyClient clientWithFixedSocketBuffers() {
        ProxyClient client = ProxyClient.withFixedSocketBuffers(dataPlane.port(), SocketBuffers.FIXED);
        closeables.add(client);
        return client;
    }

    protected ProxyClient client(String serverHost, String localAddress) {
        ProxyClient client = new ProxyClient(dataPlane.port(), serverHost, localAddress);
        closeables.add(client);
        return client;
    }

    /** Creates a vhost serving {@code hostname} from {@code origins}. */
    protected static String vhost(String name, String hostname, OriginServer... origins) {
        String[] urls = new String[origins.length];
        for (int i = 0; i < origins.length; i++) {
            urls[i] = origins[i].url();
        }
        return Api.create(Api.vhost(name, hostname, urls));
    }

    protected static String vhost(JsonObject definition) {
        return Api.create(definition);
    }
}
