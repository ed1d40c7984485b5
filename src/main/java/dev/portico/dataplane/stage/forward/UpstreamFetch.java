package dev.portico.dataplane.stage.forward;

import dev.portico.dataplane.LoopState;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;

/**
 * A GET to a vhost's upstreams with no client waiting on it, its body collected in memory up to a limit: how a
 * cache refreshes a stale response in the background ({@code stale-while-revalidate}). Uses the event loop's
 * pools and the passive health of the upstreams like any forwarded request. Runs on the loop's thread.
 */
public final class UpstreamFetch {

    /** The upstream's answer; {@code body} is null when it was larger than allowed (the body was discarded). */
    public record Result(int status, String statusMessage, MultiMap headers, Buffer body) {
    }

    private UpstreamFetch() {
    }

    /**
     * @param authority the client's {@code Host}, used when the vhost preserves it
     * @param headers the request's header fields, already without hop-by-hop fields
     */
    public static Future<Result> get(ForwardStage stage, LoopState loop, String authority, String pathAndQuery,
                                     MultiMap headers, long maxBody) {
        UpstreamTarget target = stage.group().pick(loop, 0, System.nanoTime());
        if (target == null) {
            return Future.failedFuture("no upstream of this vhost is available");
        }
        UpstreamClients.PooledClient pool = loop.upstreams().acquire(target, stage.connectTimeoutMillis());
        RequestOptions options = new RequestOptions()
                .setServer(target.server())
                .setMethod(HttpMethod.GET)
                .setURI(target.uriFor(pathAndQuery))
                .setIdleTimeout(stage.readTimeoutMillis());
        Promise<Result> result = Promise.promise();
        pool.client().request(options).compose(request -> {
            request.headers().addAll(headers);
            request.headers().set(HttpHeaders.HOST, stage.hostFor(authority, target));
            request.headers().add(UpstreamCall.VIA, stage.via(request.version()));
            return request.send();
        }).onComplete(sent -> {
            if (sent.failed()) {
                target.health().failed(System.nanoTime());
                pool.release();
                result.fail(sent.cause());
                return;
            }
            target.health().succeeded();
            collect(sent.result(), maxBody, pool, result);
        });
        return result.future();
    }

    private static void collect(HttpClientResponse response, long maxBody, UpstreamClients.PooledClient pool,
                                Promise<Result> result) {
        Buffer body = Buffer.buffer();
        boolean[] tooLarge = {false};
        response.handler(chunk -> {
            if (!tooLarge[0] && body.length() + (long) chunk.length() > maxBody) {
                tooLarge[0] = true;
            } else if (!tooLarge[0]) {
                body.appendBuffer(chunk);
            }
        });
        response.exceptionHandler(e -> {
            pool.release();
            result.tryFail(e);
        });
        response.endHandler(v -> {
            pool.release();
            result.tryComplete(new Result(response.statusCode(), response.statusMessage(), response.headers(),
                    tooLarge[0] ? null : body));
        });
    }
}
