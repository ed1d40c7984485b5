package dev.portico.testing;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.ServerWebSocket;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A WebSocket origin on loopback (Vert.x's server, on the tests' own Vert.x): it echoes every text and binary
 * message, whole, and answers plain HTTP requests on the same port with a 200 naming the origin. It keeps its open
 * sockets (a test can close one from the origin's side, or push a message) and counts the close frames it received
 * from its peers.
 */
public final class WebSocketOrigin implements AutoCloseable {

    /** Large enough for the tests' biggest message, which arrives in 64 KiB frames. */
    public static final int MAX_MESSAGE = 32 * 1024 * 1024;

    private final HttpServer server;
    private final List<ServerWebSocket> open = new CopyOnWriteArrayList<>();
    private final AtomicInteger accepted = new AtomicInteger();
    private final AtomicInteger closedByPeer = new AtomicInteger();
    private final List<String> handshakeHeads = new CopyOnWriteArrayList<>();

    private WebSocketOrigin(HttpServer server) {
        this.server = server;
    }

    public static WebSocketOrigin start(String name) {
        Vertx vertx = TestVertx.get();
        WebSocketOrigin[] self = new WebSocketOrigin[1];
        HttpServer server = vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(0)
                        .setMaxWebSocketMessageSize(MAX_MESSAGE))
                .webSocketHandler(ws -> self[0].accept(ws))
                .requestHandler(request -> request.response().putHeader("Content-Type", "text/plain")
                        .end("plain " + name + " " + request.path()));
        self[0] = new WebSocketOrigin(server);
        TestVertx.await(server.listen());
        return self[0];
    }

    private void accept(ServerWebSocket ws) {
        accepted.incrementAndGet();
        handshakeHeads.add(ws.uri() + " " + ws.headers().entries());
        open.add(ws);
        ws.textMessageHandler(ws::writeTextMessage);
        ws.binaryMessageHandler(ws::writeBinaryMessage);
        ws.closeHandler(v -> {
            open.remove(ws);
            if (ws.closeStatusCode() != null) {
                closedByPeer.incrementAndGet();
            }
        });
        ws.exceptionHandler(e -> { });
    }

    public String url() {
        return "http://127.0.0.1:" + server.actualPort();
    }

    /** Handshakes the origin accepted. */
    public int accepted() {
        return accepted.get();
    }

    /** Sockets open now, from the origin's side. */
    public int openSockets() {
        return open.size();
    }

    /** Sockets whose peer (Portico, relaying its client) sent a close frame. */
    public int closedByPeer() {
        return closedByPeer.get();
    }

    /** The target and fields of each handshake, in order. */
    public List<String> handshakeHeads() {
        return handshakeHeads;
    }

    /** Closes every open socket from the origin's side, with a close frame (1000). */
    public void closeAllSockets() {
        for (ServerWebSocket ws : open) {
            ws.close((short) 1000, "origin done");
        }
    }

    /** Sends a text message on every open socket. */
    public void push(String text) {
        for (ServerWebSocket ws : open) {
            ws.writeTextMessage(text);
        }
    }

    @Override
    public void close() {
        TestVertx.await(server.close());
    }
}
