package dev.portico.proxy.jwt;

import dev.portico.proxy.core.LazyHttpClient;
import dev.portico.proxy.core.RuntimeKey;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import org.jboss.logging.Logger;
import org.jose4j.jwk.JsonWebKey;
import org.jose4j.jwk.JsonWebKeySet;
import org.jose4j.keys.resolvers.JwksVerificationKeyResolver;
import org.jose4j.lang.JoseException;

import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A JWKS URL's key set, fetched off the request path and kept across routing snapshots (claimed per vhost or route
 * with the URL as its compatibility). Requests verify with whatever set is loaded; one that finds it older than the
 * refresh interval starts a fetch in the background and goes on with the old set (refresh-ahead, so the keys stay
 * fresh while traffic flows and an idle vhost costs nothing: no timer outlives a dropped runtime). Only two things
 * wait, asynchronously, on a fetch: a request when no set has loaded yet, and a request whose {@code kid} is
 * unknown (a new signing key), which fetches at once but at most every {@link #UNKNOWN_KID_INTERVAL_NANOS}, so
 * tokens with made-up kids cannot make Portico hammer the identity provider. Fetches never overlap; a failed fetch
 * keeps the set loaded before, and while none is loaded, requests within {@link #RETRY_AFTER_FAILURE_NANOS} of a
 * failure fail at once instead of queueing another.
 */
final class JwksKeys {

    static final RuntimeKey<JwksKeys> KEY = RuntimeKey.create("jwks", JwksKeys.class);
    static final long UNKNOWN_KID_INTERVAL_NANOS = 30_000_000_000L;
    static final long RETRY_AFTER_FAILURE_NANOS = 5_000_000_000L;
    private static final long FETCH_TIMEOUT_MILLIS = 5_000;
    private static final int MAX_BODY = 1024 * 1024;
    private static final Logger LOG = Logger.getLogger(JwksKeys.class);

    /** One fetched set and its resolver; replaced whole, never changed. */
    record Loaded(List<JsonWebKey> keys, JwksVerificationKeyResolver resolver, long fetchedNanos) {
    }

    private final String url;
    private final long refreshNanos;
    private final LazyHttpClient client;
    private volatile Loaded loaded;
    private final AtomicReference<Future<Loaded>> inFlight = new AtomicReference<>();
    private volatile long lastFailureNanos;
    private volatile boolean failedOnce;
    private volatile long lastUnknownKidFetchNanos;
    private volatile boolean unknownKidFetched;

    JwksKeys(String url, long refreshNanos) {
        this.url = url;
        this.refreshNanos = refreshNanos;
        this.client = new LazyHttpClient(new HttpClientOptions().setKeepAlive(true).setMaxPoolSize(2)
                .setConnectTimeout((int) FETCH_TIMEOUT_MILLIS).setKeepAliveTimeout(30).setVerifyHost(true));
    }

    /** The set loaded now, or null; starts a background fetch when it is due. */
    Loaded current(Vertx vertx) {
        Loaded now = loaded;
        if (now != null && System.nanoTime() - now.fetchedNanos() > refreshNanos) {
            fetch(vertx);
        }
        return now;
    }

    /** The set loaded now, or null, without fetching. */
    Loaded loaded() {
        return loaded;
    }

    /** The first set: a fetch to wait for, or a failed future right after a failure. */
    Future<Loaded> first(Vertx vertx) {
        if (failedOnce && System.nanoTime() - lastFailureNanos < RETRY_AFTER_FAILURE_NANOS) {
            return Future.failedFuture("the key set could not be fetched");
        }
        return fetch(vertx);
    }

    /** A fetch for a kid the loaded set lacks, or null when one was made too recently. */
    Future<Loaded> forUnknownKid(Vertx vertx) {
        long now = System.nanoTime();
        if (unknownKidFetched && now - lastUnknownKidFetchNanos < UNKNOWN_KID_INTERVAL_NANOS) {
            return null;
        }
        unknownKidFetched = true;
        lastUnknownKidFetchNanos = now;
        return fetch(vertx);
    }

    private Future<Loaded> fetch(Vertx vertx) {
        Future<Loaded> running = inFlight.get();
        if (running != null) {
            return running;
        }
        Promise<Loaded> done = Promise.promise();
        if (!inFlight.compareAndSet(null, done.future())) {
            return inFlight.get();
        }
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.GET).setAbsoluteURI(url)
                .setIdleTimeout(FETCH_TIMEOUT_MILLIS).putHeader("Accept", "application/json");
        client.get(vertx).request(options)
                .compose(request -> request.send().compose(response -> {
                    if (response.statusCode() != 200) {
                        response.request().reset();
                        return Future.failedFuture("the key set's URL answered " + response.statusCode());
                    }
                    return boundedBody(response);
                }))
                .map(this::parse)
                .onComplete(outcome -> {
                    inFlight.set(null);
                    if (outcome.succeeded()) {
                        loaded = outcome.result();
                        done.complete(outcome.result());
                    } else {
                        failedOnce = true;
                        lastFailureNanos = System.nanoTime();
                        LOG.warnf("JWKS %s could not be fetched: %s", url, outcome.cause().getMessage());
                        done.fail(outcome.cause());
                    }
                });
        return done.future();
    }

    /** The body, or a failure (and the connection dropped) as soon as it passes {@link #MAX_BODY}. */
    private static Future<Buffer> boundedBody(HttpClientResponse response) {
        Promise<Buffer> done = Promise.promise();
        Buffer body = Buffer.buffer();
        response.handler(chunk -> {
            if (body.length() + chunk.length() > MAX_BODY) {
                response.request().reset();
                done.tryFail("the key set is over " + MAX_BODY + " bytes");
            } else {
                body.appendBuffer(chunk);
            }
        });
        response.exceptionHandler(done::tryFail);
        response.endHandler(v -> done.tryComplete(body));
        return done.future();
    }

    private Loaded parse(Buffer body) {
        try {
            List<JsonWebKey> keys = new JsonWebKeySet(body.toString()).getJsonWebKeys().stream()
                    .filter(key -> key.getUse() == null || key.getUse().equals("sig")).toList();
            if (keys.isEmpty()) {
                throw new IllegalStateException("the key set has no signing key");
            }
            return new Loaded(keys, new JwksVerificationKeyResolver(keys), System.nanoTime());
        } catch (JoseException e) {
            throw new IllegalStateException("the key set is not a JWK Set: " + e.getMessage());
        }
    }
}
