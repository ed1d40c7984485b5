package dev.portico.testing;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;

import java.util.LinkedHashMap;
import java.util.Map;

/** A real HTTP/1.1 client for the data plane that can send any Host and header, from a chosen local address. */
public final class ProxyClient implements AutoCloseable {

    /** A fully read response. */
    public record Reply(int status, MultiMap headers, Buffer body) {
        public String header(String name) {
            return headers.get(name);
        }

        public JsonObject json() {
            return body.toJsonObject();
        }

        public String text() {
            return body.toString();
        }
    }

    private final HttpClient client;
    private final String serverHost;
    private final int port;

    public ProxyClient(int port) {
        this(port, "127.0.0.1", (String) null);
    }

    /**
     * @param serverHost address of the data plane to connect to ({@code 127.0.0.1} or {@code ::1})
     * @param localAddress address to connect from, or null for the default
     */
    public ProxyClient(int port, String serverHost, String localAddress) {
        this(port, serverHost, localAddress, 32);
    }

    /** @param maxConnections how many requests may be in flight at once (one connection each) */
    public ProxyClient(int port, String serverHost, String localAddress, int maxConnections) {
        this(port, serverHost, options(localAddress, maxConnections));
    }

    private ProxyClient(int port, String serverHost, HttpClientOptions options) {
        this.client = TestVertx.get().createHttpClient(options);
        this.serverHost = serverHost;
        this.port = port;
    }

    /**
     * A client whose sockets have fixed kernel buffers of {@code socketBufferBytes} each way, so that what they can
     * hold does not grow with the kernel's autotuning: for tests that bound the bytes in flight.
     */
    public static ProxyClient withFixedSocketBuffers(int port, int socketBufferBytes) {
        return new ProxyClient(port, "127.0.0.1", options(null, 32).setSendBufferSize(socketBufferBytes)
                .setReceiveBufferSize(socketBufferBytes));
    }

    private static HttpClientOptions options(String localAddress, int maxConnections) {
        HttpClientOptions options = new HttpClientOptions().setKeepAlive(true).setMaxPoolSize(maxConnections);
        if (localAddress != null) {
            options.setLocalAddress(localAddress);
        }
        return options;
    }

    public Reply get(String host, String uri) {
        return send(HttpMethod.GET, host, uri, Map.of(), null);
    }

    /** Without a body, with header name, value pairs. */
    public Reply send(HttpMethod method, String host, String uri, String... headerPairs) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 0; i + 1 < headerPairs.length; i += 2) {
            headers.put(headerPairs[i], headerPairs[i + 1]);
        }
        return send(method, host, uri, headers, null);
    }

    public Reply send(HttpMethod method, String host, String uri, Map<String, String> headers, Buffer body) {
        return TestVertx.await(sendAsync(method, host, uri, headers, body));
    }

    /** Like {@link #send}, without waiting: for many requests in flight at once. */
    public Future<Reply> sendAsync(HttpMethod method, String host, String uri, Map<String, String> headers,
                                   Buffer body) {
        RequestOptions options = new RequestOptions().setHost(serverHost).setPort(port).setMethod(method).setURI(uri)
                .setTimeout(30_000);
        options.putHeader("Host", host);
        headers.forEach(options::putHeader);
        // body() nested inside send()'s callback, so it is attached on the event loop as the head arrives; chained
        // after it from this thread, the response can end first and its body is lost (eclipse-vertx/vert.x#4705).
        return client.request(options)
                .compose(request -> (body == null ? request.send() : request.send(body))
                        .compose(response -> response.body().map(b -> new Reply(response.statusCode(),
                                MultiMap.caseInsensitiveMultiMap().addAll(response.headers()), b))));
    }

    public HttpClient raw() {
        return client;
    }

    @Override
    public void close() {
        client.close();
    }
}
