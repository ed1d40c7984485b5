package dev.portico.testing;

import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.RequestOptions;

import java.net.URL;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A server-sent event stream of the management API, read by a real streaming client into a queue of events. */
public final class SseEvents {

    /** One parsed event; comment lines are events named ":". */
    public record Event(String id, String name, String data) {
    }

    private SseEvents() {
    }

    /** Opens {@code path} (with its query) on the API at {@code api} with {@code client}; events arrive as parsed. */
    public static BlockingQueue<Event> open(HttpClient client, URL api, String path) {
        return open(client, api, path, Map.of("Authorization", "Bearer " + Api.TOKEN));
    }

    /** As {@link #open(HttpClient, URL, String)}, authenticated by {@code headers} (a session cookie, say). */
    public static BlockingQueue<Event> open(HttpClient client, URL api, String path, Map<String, String> headers) {
        BlockingQueue<Event> events = new LinkedBlockingQueue<>();
        RequestOptions options = new RequestOptions().setHost(api.getHost()).setPort(api.getPort())
                .setURI(path).putHeader("Accept", "text/event-stream");
        headers.forEach(options::putHeader);
        HttpClientResponse response = TestVertx.await(client.request(options).compose(HttpClientRequest::send));
        assertEquals(200, response.statusCode());
        assertTrue(response.getHeader("Content-Type").startsWith("text/event-stream"));
        StringBuilder pending = new StringBuilder();
        String[] current = new String[3];
        response.handler(chunk -> {
            pending.append(chunk.toString());
            int newline;
            while ((newline = pending.indexOf("\n")) >= 0) {
                String line = pending.substring(0, newline);
                pending.delete(0, newline + 1);
                if (line.isEmpty()) {
                    if (current[2] != null) {
                        events.add(new Event(current[0], current[1], current[2]));
                    }
                    current[0] = current[1] = current[2] = null;
                } else if (line.startsWith(":")) {
                    events.add(new Event(null, ":", line));
                } else if (line.startsWith("id:")) {
                    current[0] = line.substring(3).trim();
                } else if (line.startsWith("event:")) {
                    current[1] = line.substring(6).trim();
                } else if (line.startsWith("data:")) {
                    current[2] = (current[2] == null ? "" : current[2]) + line.substring(5).trim();
                }
            }
        });
        return events;
    }
}
