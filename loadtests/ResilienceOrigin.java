import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An origin for loadtests/resilience.sh, started as {@code java ResilienceOrigin.java PORT NAME}: answers every GET
 * with a 1 KiB body naming itself, counts what it served, and can be made slow while running.
 *
 * <ul>
 *   <li>{@code /__slow?ms=N}: every later answer (but {@code /healthz}'s) waits N ms first; {@code ms=0} undoes it</li>
 *   <li>{@code /__count}: requests served so far (control requests excluded)</li>
 *   <li>{@code /healthz}: 200 at once, for active health checks</li>
 * </ul>
 *
 * A thread per waiting request (a pool of 256) so that a slow origin is slow, not stuck.
 */
public final class ResilienceOrigin {

    private static final byte[] BODY = new byte[1024];

    public static void main(String[] args) throws IOException {
        int port = Integer.parseInt(args[0]);
        String name = args[1];
        AtomicLong delayMillis = new AtomicLong();
        AtomicLong served = new AtomicLong();
        java.util.Arrays.fill(BODY, (byte) 'x');
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 1024);
        server.setExecutor(Executors.newFixedThreadPool(256));
        server.createContext("/", exchange -> {
            String path = exchange.getRequestURI().getPath();
            try {
                if (path.equals("/__slow")) {
                    String query = exchange.getRequestURI().getQuery();
                    delayMillis.set(Long.parseLong(query.substring(query.indexOf('=') + 1)));
                    answer(exchange, name, ("slow " + delayMillis.get() + " ms\n").getBytes(StandardCharsets.UTF_8));
                } else if (path.equals("/__count")) {
                    answer(exchange, name, (served.get() + "\n").getBytes(StandardCharsets.UTF_8));
                } else if (path.equals("/healthz")) {
                    answer(exchange, name, "ok\n".getBytes(StandardCharsets.UTF_8));
                } else {
                    long delay = delayMillis.get();
                    if (delay > 0) {
                        Thread.sleep(delay);
                    }
                    served.incrementAndGet();
                    answer(exchange, name, BODY);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                exchange.close();
            }
        });
        server.start();
        System.out.println("origin " + name + " listening on 127.0.0.1:" + port);
    }

    private static void answer(HttpExchange exchange, String name, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("X-Origin", name);
        exchange.getResponseHeaders().set("Content-Type", "text/plain");
        exchange.sendResponseHeaders(200, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }
}
