package dev.portico.proxy.files;

import dev.portico.http.syntax.NonAsciiEscaping;
import com.github.benmanes.caffeine.cache.Cache;
import dev.portico.http.DateHeader;
import dev.portico.http.coding.CompressionPolicy;
import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.Stage;
import dev.portico.proxy.core.StageFactory;
import dev.portico.proxy.core.VhostRuntime;
import dev.portico.proxy.core.outcome.CacheOutcome;
import dev.portico.proxy.core.outcome.LocalReason;
import dev.portico.proxy.files.offloop.FileProbe;
import dev.portico.proxy.files.offloop.Lookup;
import dev.portico.proxy.files.offloop.RequestPath;
import dev.portico.vhost.StaticSpec;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.vertx.core.AsyncResult;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerResponse;
import org.jboss.logging.Logger;

import java.time.Duration;

/**
 * A vhost's static web service: maps the request path onto the vhost's root through {@code tryFiles}, and answers
 * with the file (conditionals, ranges, precompressed siblings: {@link FileResponder}), a redirect to a directory's
 * canonical URL, or a listing. When nothing matches it hands the request on to the upstreams (nginx
 * {@code try_files ... @upstream}, Caddy {@code try_files} + {@code reverse_proxy}) or, on a vhost without
 * upstreams, answers 404 {@code file_not_found}.
 *
 * <p>Built once per snapshot and shared by every event loop. Lookups run on the file worker pool
 * ({@link FileProbe}); their results are trusted for a second, like nginx's {@code open_file_cache_valid 1s}, so a
 * hot file costs no file-system call at all, and a change on disk shows within that time.
 */
public final class StaticFilesStage implements Stage {

    /** How long a lookup, found or not, is trusted before the disk is asked again. */
    static final long LOOKUP_VALID_NANOS = Duration.ofSeconds(1).toNanos();
    /** A lookup not used for this long is dropped (nginx {@code open_file_cache ... inactive=}). */
    static final Duration LOOKUP_INACTIVE = Duration.ofSeconds(60);
    /** Bytes of lookups and held small files one vhost keeps. */
    static final long LOOKUP_CACHE_BYTES = 8L << 20;
    private static final Logger LOG = Logger.getLogger(StaticFilesStage.class);
    private static final String ALLOW = "GET, HEAD";

    /** On a vhost with a static root; with upstreams, it hands on what no file matches. */
    public static final StageFactory FACTORY = context -> context.spec().staticFiles() == null ? null
            : new StaticFilesStage(context.spec().staticFiles(), context.proxied(), context.compression(),
                    context.runtime());

    private final StaticSpec spec;
    private final boolean fallback;
    private final FileProbe probe;
    private final FileResponder responder;
    private final Cache<String, StaticLookups.Checked> lookups;

    /**
     * @param fallback whether the vhost has upstreams to hand the request to when no file matches
     * @param compression the vhost's response compression, or null
     * @param runtime the vhost's state across snapshots: its lookups are handed over while the static settings stay
     *                the same (a lookup depends on nothing else)
     */
    public StaticFilesStage(StaticSpec spec, boolean fallback, CompressionPolicy compression, VhostRuntime runtime) {
        this.spec = spec;
        this.lookups = runtime.claim(StaticLookups.KEY, spec, StaticLookups::new).cache;
        this.fallback = fallback;
        this.probe = new FileProbe(spec);
        this.responder = new FileResponder(spec.sendfile(), compression);
    }

    @Override
    public Flow onRequest(Exchange exchange) {
        if (!fallback && !readOnly(exchange)) {
            notAllowed(exchange);
            return Flow.TAKEN;
        }
        String path = RequestPath.decode(exchange.target().pathAndQuery(), spec.hidden());
        if (path == null) {
            return miss(exchange);
        }
        StaticLookups.Checked known = lookups.getIfPresent(path);
        if (known != null && System.nanoTime() - known.atNanos() < LOOKUP_VALID_NANOS) {
            return answer(exchange, path, known.lookup(), false);
        }
        look(exchange, path, known == null ? null : known.lookup(), false);
        return Flow.TAKEN;
    }

    /** Asks the disk on a file worker; {@code previous} lets an unchanged small file keep its held content. */
    private void look(Exchange exchange, String path, Lookup previous, boolean retried) {
        exchange.loop().fileWorkers().<StaticLookups.Checked>executeBlocking(
                        () -> new StaticLookups.Checked(probe.lookup(path, previous), System.nanoTime()), false)
                .onComplete(result -> looked(exchange, path, retried, result));
    }

    private void looked(Exchange exchange, String path, boolean retried, AsyncResult<StaticLookups.Checked> result) {
        if (result.succeeded()) {
            lookups.put(path, result.result());
        }
        HttpServerResponse response = exchange.response();
        if (response.closed() || response.ended()) {
            return;
        }
        try {
            if (result.failed()) {
                throw new IllegalStateException("file lookup failed", result.cause());
            }
            if (answer(exchange, path, result.result().lookup(), retried) == Flow.NEXT) {
                exchange.proceed();
            }
        } catch (RuntimeException e) {
            LOG.errorf(e, "request %s: internal error serving a file", exchange.requestId());
            exchange.replyLocal(LocalReason.INTERNAL_ERROR, "Portico failed while serving a file");
        }
    }

    private Flow answer(Exchange exchange, String path, Lookup lookup, boolean retried) {
        if (lookup == Lookup.Miss.INSTANCE) {
            return miss(exchange);
        }
        takeOver(exchange);
        if (!readOnly(exchange)) {
            notAllowed(exchange);
        } else if (lookup instanceof Lookup.Found found) {
            responder.respond(exchange, found, () -> vanished(exchange, path, retried));
        } else if (lookup == Lookup.Redirect.INSTANCE) {
            redirect(exchange);
        } else if (lookup instanceof Lookup.Listing listing) {
            listing(exchange, listing.page());
        }
        return Flow.TAKEN;
    }

    private Flow miss(Exchange exchange) {
        if (fallback) {
            return Flow.NEXT;
        }
        exchange.replyLocal(LocalReason.FILE_NOT_FOUND, "No file matches the request path");
        return Flow.TAKEN;
    }

    /** The file went away after its lookup was cached: forget it and look once more, else it is not found. */
    private void vanished(Exchange exchange, String path, boolean retried) {
        lookups.invalidate(path);
        if (exchange.response().headWritten() || exchange.headSent()) {
            return;
        }
        // Nothing was sent: forget the head made for the vanished file (its validators, its coding, chunking).
        exchange.response().headers().clear();
        if (retried) {
            exchange.replyLocal(LocalReason.FILE_NOT_FOUND, "No file matches the request path");
        } else {
            look(exchange, path, null, true);
        }
    }

    /**
     * This stage answers, so the request is not a cache miss. (A cache stage in front, which expected an upstream
     * response to store, sees none come in its response head phase and lets the requests waiting on it go.)
     */
    private static void takeOver(Exchange exchange) {
        if (exchange.cacheOutcome() != null) {
            exchange.cacheOutcome(CacheOutcome.BYPASS);
        }
    }

    private static boolean readOnly(Exchange exchange) {
        HttpMethod method = exchange.request().method();
        return method == HttpMethod.GET || method == HttpMethod.HEAD;
    }

    private static void notAllowed(Exchange exchange) {
        exchange.response().headers().set(HttpHeaderNames.ALLOW, ALLOW);
        exchange.replyLocal(LocalReason.METHOD_NOT_ALLOWED,
                exchange.request().method().name() + " is not allowed on a static file");
    }


    /** To the directory's canonical URL, with a slash (and the query kept). */
    private static void redirect(Exchange exchange) {
        String target = exchange.target().pathAndQuery();
        int query = target.indexOf('?');
        String location = query < 0 ? target + "/" : target.substring(0, query) + "/" + target.substring(query);
        HttpServerResponse response = exchange.response();
        response.setStatusCode(301);
        response.headers().set(HttpHeaderNames.LOCATION, NonAsciiEscaping.escape(location));
        response.headers().set(HttpHeaderNames.DATE, DateHeader.now());
        response.headers().set(HttpHeaderNames.CONTENT_LENGTH, "0");
        FileResponder.finish(exchange, response::end);
    }

    private static void listing(Exchange exchange, Buffer page) {
        HttpServerResponse response = exchange.response();
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/html; charset=utf-8");
        response.headers().set(HttpHeaderNames.DATE, DateHeader.now());
        response.headers().set(HttpHeaderNames.CONTENT_LENGTH, Integer.toString(page.length()));
        boolean head = exchange.request().method() == HttpMethod.HEAD;
        FileResponder.finish(exchange, () -> {
            if (head) {
                response.end();
            } else {
                response.end(page);
            }
        });
    }
}
