package dev.portico.proxy.upstream;

import dev.portico.proxy.core.LoopState;
import dev.portico.proxy.core.ReadDeadlines;
import dev.portico.proxy.core.SubResponse;
import dev.portico.proxy.upstream.balance.AttemptOutcome;
import dev.portico.proxy.upstream.balance.UpstreamTarget;
import dev.portico.proxy.upstream.pool.PoolRejection;
import dev.portico.proxy.upstream.pool.UpstreamClients;
import dev.portico.proxy.upstream.pool.UpstreamCodec;
import dev.portico.proxy.upstream.pool.UpstreamRequest;
import dev.portico.proxy.upstream.pool.UpstreamResponse;
import io.netty.handler.codec.http.HttpResponse;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A GET to a vhost's upstreams with no client waiting on it, its body collected in memory up to a limit: how the
 * forwarder answers a {@link dev.portico.proxy.core.SubRequest} (a cache's background refresh). Uses the event loop's
 * pools, read deadlines and the passive health of the upstreams like any forwarded request. Runs on the loop's
 * thread.
 */
final class UpstreamFetch {

    private UpstreamFetch() {
    }

    /**
     * @param authority the client's {@code Host}, used when the vhost preserves it
     * @param headers the request's header fields, already without hop-by-hop fields
     */
    static Future<SubResponse> get(ForwardStage stage, LoopState loop, String authority, String pathAndQuery,
                                     MultiMap headers, long maxBody) {
        UpstreamTarget target = stage.group().pick(loop, 0, System.nanoTime());
        if (target == null) {
            return Future.failedFuture("no upstream of this vhost is available");
        }
        UpstreamClients.PooledClient pool = UpstreamClients.of(loop).acquire(target, stage.poolLimits());
        RequestOptions options = new RequestOptions()
                .setServer(target.server())
                // As UpstreamCall: tls.serverName, or the host name when connecting to one of its addresses.
                .setHost(target.peerHost())
                .setMethod(HttpMethod.GET)
                .setURI(target.uriFor(pathAndQuery));
        Fetch fetch = new Fetch(UpstreamClients.of(loop).readDeadlines(), stage.readTimeoutMillis(), maxBody, pool,
                () -> stage.group().finished(loop, target, -1));
        pool.request(options, false, stage.poolLimits().queueTimeoutMillis()).onComplete(connected -> {
            if (connected.failed()) {
                if (connected.cause() instanceof PoolRejection) {
                    stage.group().overloaded(target);
                } else {
                    stage.group().report(loop, target, AttemptOutcome.CONNECT_FAILED, System.nanoTime());
                }
                fetch.failed(connected.cause());
                return;
            }
            UpstreamRequest request = connected.result();
            request.headers().addAll(headers);
            request.headers().set(HttpHeaders.HOST, stage.hostFor(authority, target));
            request.headers().add(UpstreamCall.VIA, stage.via(request.version()));
            fetch.send(request).onComplete(sent -> {
                if (sent.failed()) {
                    stage.group().report(loop, target, AttemptOutcome.RESPONSE_FAILED, System.nanoTime());
                    fetch.failed(sent.cause());
                    return;
                }
                stage.group().report(loop, target, AttemptOutcome.RESPONDED, sent.result().statusCode(), null, 0);
                fetch.collect(sent.result());
            });
        });
        return fetch.result.future();
    }

    /**
     * One fetch, timed like a forwarded request with no client to hold it back: the vhost's read timeout runs from
     * the request sent to the response head, and between two pieces of the body.
     */
    private static final class Fetch extends ReadDeadlines.Waiter implements UpstreamCodec.InterimListener {
        private final ReadDeadlines deadlines;
        private final long timeoutMillis;
        private final long timeoutNanos;
        private final long maxBody;
        private final UpstreamClients.PooledClient pool;
        /** Tells the selector the attempt is over. */
        private final Runnable finished;
        private final Promise<SubResponse> result = Promise.promise();
        private UpstreamRequest request;
        private Buffer body = Buffer.buffer();
        private boolean released;

        Fetch(ReadDeadlines deadlines, long timeoutMillis, long maxBody, UpstreamClients.PooledClient pool,
              Runnable finished) {
            this.finished = finished;
            this.deadlines = deadlines;
            this.timeoutMillis = timeoutMillis;
            this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
            this.maxBody = maxBody;
            this.pool = pool;
        }

        Future<UpstreamResponse> send(UpstreamRequest request) {
            this.request = request;
            UpstreamCodec codec = request.codec();
            if (codec != null) {
                codec.listen(this);
            }
            Future<UpstreamResponse> response = request.response();
            request.end();
            deadlines.start(this, timeoutMillis);
            return response;
        }

        @Override
        public void interim(HttpResponse head) {
            deadlines.restartIfRunning(this, timeoutNanos);
        }

        @Override
        protected void expired() {
            // Vert.x fails the response (or its body) with this cause and closes the connection.
            request.reset(new TimeoutException("nothing read from the upstream for " + timeoutMillis + " ms"));
        }

        void collect(UpstreamResponse response) {
            response.handler(chunk -> {
                deadlines.restartIfRunning(this, timeoutNanos);
                if (body != null && body.length() + (long) chunk.length() > maxBody) {
                    body = null;
                } else if (body != null) {
                    body.appendBuffer(chunk);
                }
            });
            response.exceptionHandler(this::failed);
            response.endHandler(v -> {
                deadlines.cancel(this);
                release();
                result.tryComplete(new SubResponse(response.statusCode(), response.statusMessage(), response.headers(),
                        body));
            });
        }

        void failed(Throwable cause) {
            deadlines.cancel(this);
            release();
            result.tryFail(cause);
        }

        private void release() {
            if (!released) {
                released = true;
                pool.release();
                finished.run();
            }
        }
    }
}
