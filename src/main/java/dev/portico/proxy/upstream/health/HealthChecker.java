package dev.portico.proxy.upstream.health;

import dev.portico.proxy.core.outcome.UpstreamState;
import dev.portico.proxy.upstream.balance.UpstreamHealth;
import dev.portico.proxy.upstream.balance.UpstreamTarget;
import dev.portico.proxy.upstream.pool.UpstreamClients;
import dev.portico.vhost.HealthCheckSpec;
import io.netty.channel.ConnectTimeoutException;
import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;

import javax.net.ssl.SSLException;
import java.net.ConnectException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * The active health check of one upstream with one vhost's check settings; vhosts with the same upstream and the same
 * settings share it. Runs on one Vert.x context of its own, off every request's path: a timer, a non-blocking HTTP
 * request or TCP connect, a deadline. Results move the state between unknown, healthy and unhealthy by the
 * {@code rise}/{@code fall} thresholds; the state is a volatile field the event loops read.
 */
public final class HealthChecker {

    /** Bodies are searched for {@code expectBody} in their first this many bytes. */
    static final int MAX_BODY = 64 * 1024;
    /** New checkers start within this of each other's start, spread at random: never all at once. */
    static final long MAX_FIRST_DELAY_MILLIS = 1000;

    private final Vertx vertx;
    private final UpstreamTarget target;
    private final HealthCheckSpec spec;
    private Context context;
    private HttpClient http;
    private NetClient tcp;
    private long timer = -1;
    private boolean stopped;
    private int passesInARow;
    private int failuresInARow;
    private String streak;
    private boolean streakSame;

    private volatile UpstreamState state;
    private volatile String reason;
    private volatile long lastLatencyMillis = -1;
    /** When the check last went from unhealthy to healthy ({@code System.nanoTime()}), or UpstreamHealth.NEVER. */
    private volatile long recoveredAtNanos = UpstreamHealth.NEVER;

    /** Where a checker starts: from what was known of the upstream before it. */
    public record Seed(UpstreamState state, String reason) {
        /** A new upstream: no traffic until the first check passes. */
        static final Seed NEW = new Seed(UpstreamState.UNKNOWN, "added, waiting for the first check");
        /** An upstream that served without checks: it keeps serving until checks say otherwise. */
        static final Seed SERVING = new Seed(UpstreamState.HEALTHY, "health check turned on while serving");
    }

    /** @param seed what was known of the upstream: {@link Seed#NEW} for a new one */
    HealthChecker(Vertx vertx, UpstreamTarget target, HealthCheckSpec spec, Seed seed) {
        this.vertx = vertx;
        this.target = target;
        this.spec = spec;
        this.state = seed.state();
        this.reason = seed.reason();
    }

    /** What makes two checkers the same: the upstream's health key and every check setting. */
    static List<Object> key(String healthKey, HealthCheckSpec spec) {
        return List.of(healthKey, spec.identity());
    }

    void start() {
        context = vertx.getOrCreateContext();
        context.runOnContext(v -> {
            if (spec.type() == HealthCheckSpec.Type.TCP) {
                tcp = vertx.createNetClient(new NetClientOptions().setConnectTimeout(connectTimeoutMillis()));
            } else {
                http = vertx.createHttpClient(options());
            }
            schedule(ThreadLocalRandom.current().nextLong(1,
                    Math.max(2, Math.min(spec.interval().toMillis(), MAX_FIRST_DELAY_MILLIS))));
        });
    }

    void stop() {
        if (context == null) {
            return;
        }
        context.runOnContext(v -> {
            stopped = true;
            if (timer >= 0) {
                vertx.cancelTimer(timer);
            }
            if (http != null) {
                http.close();
            }
            if (tcp != null) {
                tcp.close();
            }
        });
    }

    boolean passing() {
        return state == UpstreamState.HEALTHY;
    }

    UpstreamState state() {
        return state;
    }

    /** When the check last saw the upstream come back (unhealthy, then {@code rise} passes), or UpstreamHealth.NEVER. */
    long recoveredAtNanos() {
        return recoveredAtNanos;
    }

    String reason() {
        return reason;
    }

    Long lastLatencyMillis() {
        long latency = lastLatencyMillis;
        return latency < 0 ? null : latency;
    }

    private long timeoutMillis() {
        return spec.timeout().toMillis();
    }

    private int connectTimeoutMillis() {
        return (int) Math.min(Integer.MAX_VALUE, timeoutMillis());
    }

    /** A client of its own: one connection per check, closed after it (as nginx, HAProxy and Envoy check). */
    private HttpClientOptions options() {
        HttpClientOptions options = new HttpClientOptions()
                .setKeepAlive(false)
                .setConnectTimeout(connectTimeoutMillis())
                .setMaxPoolSize(1)
                .setTryUseCompression(false)
                .setName("portico-health-check");
        if (target.spec().protocol().http2()) {
            options.setProtocolVersion(HttpVersion.HTTP_2).setHttp2ClearTextUpgrade(false);
        }
        if (target.spec().tls()) {
            options.setSsl(true).setUseAlpn(target.spec().protocol().http2());
            if (target.spec().protocol().http2()) {
                options.setAlpnVersions(List.of(HttpVersion.HTTP_2));
            }
            UpstreamClients.configureTls(options, target.tls());
        }
        return options;
    }

    private void schedule(long delayMillis) {
        if (!stopped) {
            timer = vertx.setTimer(Math.max(1, delayMillis), id -> check());
        }
    }

    private void check() {
        timer = -1;
        if (stopped) {
            return;
        }
        Attempt attempt = new Attempt();
        if (spec.type() == HealthCheckSpec.Type.TCP) {
            tcp.connect(target.server()).onComplete(connected -> {
                if (connected.succeeded()) {
                    connected.result().close();
                    attempt.finish(true, "connected");
                } else {
                    attempt.finish(false, describe(connected.cause()));
                }
            });
            return;
        }
        RequestOptions request = new RequestOptions()
                .setServer(target.server())
                .setHost(target.peerHost())
                .setMethod(HttpMethod.valueOf(spec.method()))
                .setURI(spec.path());
        http.request(request).onComplete(opened -> {
            if (opened.failed()) {
                attempt.finish(false, describe(opened.cause()));
                return;
            }
            HttpClientRequest sent = opened.result();
            attempt.request = sent;
            sent.putHeader(HttpHeaders.HOST, spec.host() != null ? spec.host() : target.spec().authority());
            sent.putHeader(HttpHeaders.USER_AGENT, "portico-health-check");
            sent.send().onComplete(response -> answered(attempt, response));
        });
    }

    private void answered(Attempt attempt, AsyncResult<HttpClientResponse> result) {
        if (result.failed()) {
            attempt.finish(false, describe(result.cause()));
            return;
        }
        HttpClientResponse response = result.result();
        String what = response.statusCode() + " from " + spec.path();
        if (!spec.expects(response.statusCode())) {
            attempt.finish(false, what);
            return;
        }
        if (spec.expectBody() == null) {
            attempt.finish(true, what);
            return;
        }
        Buffer body = Buffer.buffer();
        response.handler(chunk -> {
            if (body.length() < MAX_BODY) {
                body.appendBuffer(chunk, 0, Math.min(chunk.length(), MAX_BODY - body.length()));
            }
        });
        response.exceptionHandler(failure -> attempt.finish(false, describe(failure)));
        response.endHandler(end -> attempt.finish(body.toString().contains(spec.expectBody()),
                body.toString().contains(spec.expectBody()) ? what
                        : what + " without \"" + spec.expectBody() + "\" in its body"));
    }

    /** One check: finished once, by its answer or by its deadline. */
    private final class Attempt {
        private final long startedNanos = System.nanoTime();
        private final long deadline;
        private HttpClientRequest request;
        private boolean done;

        Attempt() {
            deadline = vertx.setTimer(Math.max(1, timeoutMillis()), id -> {
                finish(false, "check timed out after " + words(spec.timeout().toNanos()));
                if (request != null) {
                    request.reset();
                }
            });
        }

        void finish(boolean passed, String what) {
            if (done) {
                return;
            }
            done = true;
            vertx.cancelTimer(deadline);
            lastLatencyMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedNanos);
            record(passed, what);
            long jitter = spec.jitter().toMillis();
            schedule(spec.interval().toMillis() + (jitter > 0 ? ThreadLocalRandom.current().nextLong(jitter + 1) : 0));
        }
    }

    /** Moves the state by the thresholds: the first result decides an unknown upstream, rise and fall the rest. */
    private void record(boolean passed, String what) {
        if (passed) {
            failuresInARow = 0;
            passesInARow++;
            if (state == UpstreamState.UNKNOWN) {
                reason = "first check passed (" + what + ")";
                state = UpstreamState.HEALTHY;
            } else if (state == UpstreamState.UNHEALTHY && passesInARow >= spec.rise()) {
                reason = passesInARow == 1 ? "check passed (" + what + ")"
                        : passesInARow + " consecutive checks passed (" + what + ")";
                recoveredAtNanos = System.nanoTime();
                state = UpstreamState.HEALTHY;
            }
            return;
        }
        passesInARow = 0;
        streakSame = failuresInARow == 0 || (streakSame && what.equals(streak));
        streak = what;
        failuresInARow++;
        if (state == UpstreamState.UNKNOWN
                || (state == UpstreamState.HEALTHY && failuresInARow >= spec.fall())) {
            reason = failureWords(what);
            state = UpstreamState.UNHEALTHY;
        }
    }

    /** "3 consecutive 503 from /healthz", "check timed out after 2s (3 in a row)". */
    private String failureWords(String what) {
        if (failuresInARow == 1) {
            return what;
        }
        if (!streakSame) {
            return failuresInARow + " consecutive failed checks (last: " + what + ")";
        }
        return Character.isDigit(what.charAt(0)) ? failuresInARow + " consecutive " + what
                : what + " (" + failuresInARow + " in a row)";
    }

    private static String describe(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ConnectTimeoutException) {
                return "connect timed out";
            }
            if (t instanceof ConnectException) {
                return "connect refused";
            }
            if (t instanceof SSLException) {
                return "TLS handshake failed";
            }
        }
        String message = failure.getMessage();
        return "check failed: " + (message == null ? failure.getClass().getSimpleName() : message);
    }

    /** A duration in the API's words: 2s, 1500ms, 1m, 1h. */
    static String words(long nanos) {
        long ms = Duration.ofNanos(nanos).toMillis();
        if (ms > 0 && ms % 3_600_000 == 0) {
            return ms / 3_600_000 + "h";
        }
        if (ms > 0 && ms % 60_000 == 0) {
            return ms / 60_000 + "m";
        }
        return ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
    }
}
