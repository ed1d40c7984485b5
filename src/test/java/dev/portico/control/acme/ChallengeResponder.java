package dev.portico.control.acme;

import dev.portico.testing.TestVertx;
import io.vertx.core.http.HttpServer;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Stands in for Portico's data plane in the ACME tests: answers {@code GET /.well-known/acme-challenge/<token>} on
 * a fixed loopback port from {@link ChallengeStore} (a worker call, as the data plane's off-loop lookup will be),
 * except for names starting with {@code unanswered.}, which get 404 as an unconfigured site would.
 */
final class ChallengeResponder implements AutoCloseable {

    private static final String PREFIX = "/.well-known/acme-challenge/";

    private final HttpServer server;
    private final AtomicInteger answered = new AtomicInteger();

    ChallengeResponder(int port, ChallengeStore store) {
        server = TestVertx.await(TestVertx.get().createHttpServer().requestHandler(request -> {
            String host = request.host() == null ? "" : request.host();
            if (!request.path().startsWith(PREFIX) || host.startsWith("unanswered.")) {
                request.response().setStatusCode(404).end();
                return;
            }
            String token = request.path().substring(PREFIX.length());
            TestVertx.get().executeBlocking(() -> store.keyAuthorization(token)).onComplete(lookup -> {
                if (lookup.succeeded() && lookup.result().isPresent()) {
                    answered.incrementAndGet();
                    request.response().putHeader("content-type", "text/plain").end(lookup.result().get());
                } else {
                    request.response().setStatusCode(404).end();
                }
            });
        }).listen(port, "127.0.0.1"));
    }

    /** How many challenge requests got a key authorization. */
    int answered() {
        return answered.get();
    }

    @Override
    public void close() {
        TestVertx.await(server.close());
    }
}
