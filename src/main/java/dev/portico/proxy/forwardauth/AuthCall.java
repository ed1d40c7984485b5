package dev.portico.proxy.forwardauth;

import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.outcome.LocalReason;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One request's question to the auth service, and what its answer does to the request. Runs on the request's event
 * loop throughout: the client's callbacks come back on the context that made the call, as does the deadline's timer.
 * Settled exactly once, by the answer, the deadline or the client leaving, whichever comes first.
 */
final class AuthCall {

    /** The most of a refusal's body relayed to the client; a longer one is dropped (the status and fields go). */
    static final int MAX_RELAYED_BODY = 64 * 1024;
    /** The fields of a refusal that tell the client how to authenticate, where to log in, or set its session. */
    private static final List<String> RELAYED_FIELDS = List.of("WWW-Authenticate", "Location", "Set-Cookie",
            "Cache-Control");

    private final Exchange exchange;
    private final List<String> copyHeaders;
    private final Consumer<List<Map.Entry<String, String>>> remember;
    private HttpClientRequest request;
    private long deadline = -1;
    private boolean settled;
    /** The answer arrived whole: its connection goes back to the pool, nothing to reset. */
    private boolean answerEnded;

    /** @param remember keeps an allowing decision's copied fields, or null when decisions are not cached */
    AuthCall(Exchange exchange, List<String> copyHeaders, Consumer<List<Map.Entry<String, String>>> remember) {
        this.exchange = exchange;
        this.copyHeaders = copyHeaders;
        this.remember = remember;
    }

    void start(HttpClient client, AuthRequestTarget target, List<Map.Entry<String, String>> sent,
               long timeoutMillis) {
        Vertx vertx = exchange.loop().context().owner();
        deadline = vertx.setTimer(timeoutMillis, t -> {
            deadline = -1;
            if (settle()) {
                exchange.replyLocal(LocalReason.FORWARD_AUTH_TIMEOUT,
                        "The forward-auth service did not answer within " + timeoutMillis + " ms");
            }
        });
        exchange.onClientGone(this::settle);
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.GET).setHost(target.host())
                .setPort(target.port()).setSsl(target.tls()).setURI(target.pathAndQuery())
                .putHeader(HttpHeaders.HOST, target.authority());
        sent.forEach(field -> options.addHeader(field.getKey(), field.getValue()));
        client.request(options).compose(made -> {
            if (settled) {
                made.reset();
                return Future.failedFuture("settled");
            }
            request = made;
            return made.send();
        }).onSuccess(this::answered).onFailure(error -> {
            if (settle()) {
                exchange.replyLocal(LocalReason.FORWARD_AUTH_ERROR,
                        "The forward-auth service could not be asked: " + describe(error));
            }
        });
    }

    private void answered(HttpClientResponse response) {
        int status = response.statusCode();
        if (status >= 200 && status < 300) {
            List<Map.Entry<String, String>> copied = new ArrayList<>(copyHeaders.size());
            for (String name : copyHeaders) {
                for (String value : response.headers().getAll(name)) {
                    copied.add(Map.entry(name, value));
                }
            }
            // The verdict is in; its body is read and dropped so the connection can be used again.
            boundedBody(response).onComplete(body -> {
                if (settle()) {
                    MultiMap headers = exchange.request().headers();
                    copied.forEach(field -> headers.add(field.getKey(), field.getValue()));
                    if (remember != null) {
                        remember.accept(copied);
                    }
                    exchange.proceed();
                }
            });
        } else if (status == 401 || status == 403 || isRedirect(status)) {
            boundedBody(response).onComplete(body -> {
                if (settle()) {
                    relay(response, body.succeeded() ? body.result() : null);
                }
            });
        } else {
            response.request().reset();
            if (settle()) {
                exchange.replyLocal(LocalReason.FORWARD_AUTH_ERROR,
                        "The forward-auth service answered " + status + ", which is neither 2xx, 401, 403 nor a "
                                + "redirect");
            }
        }
    }

    /** The service's refusal, as the client should see it: its status, its authentication fields and its body. */
    private void relay(HttpClientResponse response, Buffer body) {
        MultiMap out = exchange.response().headers();
        for (String name : RELAYED_FIELDS) {
            List<String> values = response.headers().getAll(name);
            if (!values.isEmpty()) {
                out.set(name, values);
            }
        }
        String type = body == null || body.length() == 0 ? null : response.getHeader(HttpHeaders.CONTENT_TYPE);
        exchange.replyFixed(LocalReason.FORWARD_AUTH_DENIED, response.statusCode(), type,
                body == null ? Buffer.buffer() : body);
    }

    /** The body up to {@link #MAX_RELAYED_BODY}; null (and the auth connection dropped) when it is longer. */
    private Future<Buffer> boundedBody(HttpClientResponse response) {
        Promise<Buffer> done = Promise.promise();
        Buffer body = Buffer.buffer();
        response.handler(chunk -> {
            if (body.length() + chunk.length() > MAX_RELAYED_BODY) {
                response.request().reset();
                done.tryComplete(null);
            } else {
                body.appendBuffer(chunk);
            }
        });
        response.exceptionHandler(done::tryFail);
        response.endHandler(v -> {
            answerEnded = true;
            done.tryComplete(body);
        });
        return done.future();
    }

    private static boolean isRedirect(int status) {
        return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
    }

    /**
     * Marks the call settled; false when it already was. Whoever settles first answers, and the others let go:
     * the timer is cancelled and an unfinished auth request reset.
     */
    private boolean settle() {
        if (settled) {
            return false;
        }
        settled = true;
        if (deadline >= 0) {
            exchange.loop().context().owner().cancelTimer(deadline);
            deadline = -1;
        }
        if (request != null && !answerEnded) {
            request.reset();
        }
        return true;
    }

    /** The failure's kind, never anything of the request (its credentials) or a long stack. */
    private static String describe(Throwable error) {
        String message = error.getMessage();
        return message == null ? error.getClass().getSimpleName()
                : message.length() > 200 ? message.substring(0, 200) : message;
    }
}
