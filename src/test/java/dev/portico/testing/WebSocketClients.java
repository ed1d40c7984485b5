package dev.portico.testing;

import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.http.WebSocketConnectOptions;

/** WebSocket clients of Portico's data plane (Vert.x's, on the tests' own Vert.x), naming a vhost in Host. */
public final class WebSocketClients implements AutoCloseable {

    private final int port;
    private final WebSocketClient client;

    public WebSocketClients(int port) {
        this.port = port;
        this.client = TestVertx.get().createWebSocketClient(new WebSocketClientOptions()
                .setMaxMessageSize(WebSocketOrigin.MAX_MESSAGE)
                .setMaxConnections(1000));
    }

    /** Opens a WebSocket to {@code path} of {@code host} through Portico; fails unless the handshake succeeds. */
    public WebSocket open(String host, String path) {
        return TestVertx.await(client.connect(options(host, path)));
    }

    public WebSocketConnectOptions options(String host, String path) {
        // Connects to the data plane's address and names the vhost in Host (Netty's handshake keeps a Host given).
        return new WebSocketConnectOptions()
                .setHost("127.0.0.1")
                .setPort(port)
                .setURI(path)
                .putHeader("Host", host);
    }

    public WebSocketClient client() {
        return client;
    }

    @Override
    public void close() {
        TestVertx.await(client.close());
    }
}
