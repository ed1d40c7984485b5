package dev.portico.proxy.core;

import dev.portico.http.UpgradeRequest;
import dev.portico.http.negotiation.AcceptEncoding;
import dev.portico.proxy.core.outcome.CacheOutcome;
import dev.portico.proxy.core.outcome.GrpcReply;
import dev.portico.proxy.core.outcome.LocalReason;
import dev.portico.proxy.core.outcome.LocalReply;
import dev.portico.proxy.core.outcome.TunnelClose;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.streams.ReadStream;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Everything Portico knows about one request while it is in flight: the client side, the vhost it was routed to, where the pipeline stands, and what the access log and metrics will report. Confined to the
 * request's event loop; never shared.
 */
public final class Exchange {

    /** Header names are pre-encoded {@code AsciiString}s: hashed once, written without encoding. */
    public static final CharSequence REQUEST_ID_HEADER = HttpHeaders.createOptimized("X-Request-Id");
    /** The methods a proxied vhost forwards: the {@code Allow} of Portico's own answers about methods. */
    public static final String FORWARDED_METHODS = "GET, HEAD, POST, PUT, DELETE, PATCH, OPTIONS";
    private static final AtomicInteger SLOTS = Slot.counter(Exchange.class);

    private final HttpServerRequest request;
    private final HttpServerResponse response;
    private final LoopState loop;
    private final long startNanos;
    private final String requestId;
    private final String clientAddress;
    private final boolean peerTrusted;

    private RequestTarget target;
    private CompiledVhost vhost;
    private CompiledVhost refusedBy;
    private final Pipeline pipeline = new Pipeline(this);
    private Object[] locals;
    private LocalReason reason;
    private final UpstreamTiming upstream = new UpstreamTiming();
    private boolean headSent;
    private Runnable clientGoneHook;
    private CacheOutcome cacheOutcome;
    private String clientAcceptEncoding;
    private ReadStream<Buffer> requestBody;
    private boolean clientGone;
    private boolean completed;
    private int status;
    private long durationNanos;
    private ClientConnection connection;
    private final Consumer<Exchange> onComplete;
    private UpgradeRequest upgrade;
    /** The loop's registry this exchange is in while its vhost may cut it; null outside it. */
    private RoutedExchanges routed;
    /** Set once the connection switched protocols: from the request head to the switch. */
    private long handshakeNanos = -1;
    private TunnelClose tunnelClose;
    private long tunnelBytesIn;
    private long tunnelBytesOut;
    private LocalReplyPages localReplyPages;

    public Exchange(HttpServerRequest request, LoopState loop, long startNanos, String requestId,
                    String clientAddress, boolean peerTrusted, Consumer<Exchange> onComplete) {
        this.request = request;
        this.response = request.response();
        this.loop = loop;
        this.startNanos = startNanos;
        this.requestId = requestId;
        this.clientAddress = clientAddress;
        this.peerTrusted = peerTrusted;
        this.onComplete = onComplete;
        // Vert.x calls the end handler when the response ends, and both handlers (end first) when the connection
        // goes before that; a connection Portico closes itself calls neither, see abort().
        response.endHandler(v -> {
            if (!response.ended()) {
                clientGone();
            }
            complete();
        });
        response.closeHandler(v -> {
            clientGone();
            complete();
        });
    }

    public HttpServerRequest request() {
        return request;
    }

    public HttpServerResponse response() {
        return response;
    }

    /** Mutable state owned by this request's event loop (connection pools, balancer cursors, counters). */
    public LoopState loop() {
        return loop;
    }

    public long startNanos() {
        return startNanos;
    }

    public String requestId() {
        return requestId;
    }

    /** The address of the TCP peer, in canonical text form (IPv6 compressed, without brackets). */
    public String clientAddress() {
        return clientAddress;
    }

    /** Whether the TCP peer is a configured trusted proxy whose forwarding headers may be kept. */
    public boolean peerTrusted() {
        return peerTrusted;
    }

    /** Host, authority and origin-form target of the request; null until parsed. */
    public RequestTarget target() {
        return target;
    }

    public void target(RequestTarget target) {
        this.target = target;
    }

    /** The vhost that serves this request; null while unrouted (and for requests no vhost serves). */
    public CompiledVhost vhost() {
        return vhost;
    }

    /** The disabled vhost that refused this request, for the access log; null otherwise. */
    public CompiledVhost refusedBy() {
        return refusedBy;
    }

    /** Records that {@code vhost}, which is disabled, refused the request. */
    public void refusedBy(CompiledVhost vhost) {
        this.refusedBy = vhost;
    }

    /** Local-reply or failure reason, null when the request was answered normally. */
    public LocalReason reason() {
        return reason;
    }

    public void reason(LocalReason reason) {
        if (this.reason == null) {
            this.reason = reason;
        }
    }

    /** The upstream attempt's address and timing, for the access log and statistics. */
    public UpstreamTiming upstream() {
        return upstream;
    }

    public boolean headSent() {
        return headSent;
    }

    /**
     * Registers what to do if the client connection closes before the response is complete (cancel the upstream
     * request); one hook per request, the last registration wins.
     */
    public void onClientGone(Runnable hook) {
        this.clientGoneHook = hook;
    }

    /** What the response cache did, or null for vhosts without a cache. */
    public CacheOutcome cacheOutcome() {
        return cacheOutcome;
    }

    public void cacheOutcome(CacheOutcome outcome) {
        this.cacheOutcome = outcome;
    }

    /** The client's {@code Accept-Encoding}, as it arrived, on a vhost that compresses; null otherwise. */
    public String clientAcceptEncoding() {
        return clientAcceptEncoding;
    }

    /**
     * The request body as whoever forwards it reads it: the request itself, through the request body phase of the
     * stages that ran (the body size limit counts a chunked body as it is read). Ask once the pipeline stands still.
     */
    public ReadStream<Buffer> requestBody() {
        if (requestBody == null) {
            requestBody = pipeline.requestBody(request);
        }
        return requestBody;
    }

    /** This request's state of the given kind, kept by a stage between its phases; null when none was put. */
    @SuppressWarnings("unchecked")
    public <T> T get(Slot<Exchange, T> key) {
        int slot = key.index();
        return locals == null || slot >= locals.length ? null : (T) locals[slot];
    }

    /** Keeps a stage's state for this request. */
    public <T> void put(Slot<Exchange, T> key, T value) {
        int slot = key.index();
        if (locals == null || slot >= locals.length) {
            locals = locals == null ? new Object[SLOTS.get()] : Arrays.copyOf(locals, SLOTS.get());
        }
        locals[slot] = value;
    }

    /** The phases of this request's pipeline, for the stages and producers that run the later ones. */
    public Pipeline phases() {
        return pipeline;
    }

    /** Records that the client connection closed before the response was complete, and runs the hook. */
    public void clientGone() {
        if (clientGone) {
            return;
        }
        clientGone = true;
        reason(LocalReason.CLIENT_ABORTED);
        if (clientGoneHook != null) {
            clientGoneHook.run();
        }
    }

    /** The client connection the listener serves this exchange on, or null. */
    public ClientConnection connection() {
        return connection;
    }

    /** The client connection, told when this exchange is accounted. */
    public void connection(ClientConnection connection) {
        this.connection = connection;
    }

    /**
     * The request's body broke its framing, so it can never end: whatever was sending it upstream is cancelled (a
     * truncated body must not look complete there), and the client gets the refusal if its response has not begun,
     * else a reset; the connection closes either way.
     */
    public void requestBodyMalformed(LocalReason reason, String detail) {
        reason(reason);
        if (clientGoneHook != null) {
            clientGoneHook.run();
        }
        replyLocal(reason, detail, true);
    }

    /**
     * The client shut down its sending side while this request waits for its response, which it will still get.
     * A client that closed the whole socket instead looks the same until something is written to it, so its
     * listener probes it ({@link ClientConnection#probeHalfClosed()}: HTTP/1.1 sends an interim {@code 100 Continue}):
     * a closed socket answers with a reset, and the request is then cancelled as a client that left.
     *
     * @return whether the probe was sent
     */
    public boolean clientHalfClosed() {
        return !headSent && !response.ended() && !response.closed() && connection != null
                && connection.probeHalfClosed();
    }

    /** Starts the vhost's pipeline. */
    public void route(CompiledVhost vhost) {
        this.vhost = vhost;
        routed = loop.get(RoutedExchanges.PER_LOOP);
        if (routed != null) {
            routed.started(this);
        }
        if (vhost.anyCompression()) {
            // Taken before any stage edits the request: header rules may rewrite what goes upstream.
            clientAcceptEncoding = AcceptEncoding.of(request.headers());
        }
        if (request.headers().contains(HttpHeaders.UPGRADE)) {
            upgrade = UpgradeRequest.of(request.method(), request.version(), request.headers());
        }
        vhost.stats().slot(loop.index()).started();
        Stage[] stages = vhost.stagesFor(this);
        if (stages != null) {
            pipeline.start(stages);
            proceed();
        }
    }

    /**
     * Lets response hooks of the given stages run for a reply made before routing (e.g. default security headers
     * on a 404 for an unknown host), as though they had run.
     */
    public void unroutedStages(Stage[] stages) {
        pipeline.ranAlready(stages);
    }

    /** Runs the remaining stages until one takes the request. Stages that went asynchronous call this to resume. */
    public void proceed() {
        try {
            for (Stage stage = pipeline.advance(); stage != null; stage = pipeline.advance()) {
                if (stage.onRequest(this) == Stage.Flow.TAKEN) {
                    return;
                }
            }
            // A well-formed pipeline ends with a stage that always answers.
            replyLocal(LocalReason.INTERNAL_ERROR, "The vhost's pipeline did not answer");
        } catch (RuntimeException e) {
            loop.logInternalError(this, e);
            replyLocal(LocalReason.INTERNAL_ERROR, "Portico failed while handling the request");
        }
    }

    /**
     * Runs the response-head hooks of the stages that ran, innermost first, and stamps the request id. Call once,
     * after the status and the producer's headers are set and before the first body byte is written.
     */
    public void sendHead() {
        pipeline.responseHead();
        response.headers().set(REQUEST_ID_HEADER, requestId);
        if (request.version() == HttpVersion.HTTP_2) {
            // HTTP/2 frames its messages itself and carries no connection-specific field (RFC 9113 section 8.2.2: a
            // client treats a response with one as malformed); a draining server says so with GOAWAY instead.
            ConnectionSpecificFields.removeFrom(response.headers());
            if (loop.draining()) {
                // GOAWAY, then close once the open streams end; the data plane's shutdown grace bounds the wait.
                request.connection().shutdown(1, TimeUnit.HOURS);
            }
        } else if (loop.draining()) {
            response.headers().set(HttpHeaders.CONNECTION, HttpHeaders.CLOSE);
        }
        headSent = true;
    }

    /**
     * The reply just sent leaves the request unread: HTTP/1 closes the connection (the unread body would sit in front
     * of the next request); HTTP/2 ends only this stream, as the connection carries others.
     */
    public void closeAfterReply() {
        if (connection != null && request.version() == HttpVersion.HTTP_2) {
            connection.lingerThenClose();
        } else {
            response.close();
        }
    }

    /**
     * Answers with an RFC 9457 problem document for {@code reason}. When the head is already on the wire it is
     * too late to change the status: the connection is reset instead so the client sees a truncated response.
     */
    public void replyLocal(LocalReason reason, String detail) {
        replyLocal(reason, detail, false);
    }

    /** Renders this request's error replies from now on (a vhost's error pages); null for the problem document. */
    public void localReplyPages(LocalReplyPages pages) {
        this.localReplyPages = pages;
    }

    /** Like {@link #replyLocal(LocalReason, String)}, closing the connection afterwards when asked to. */
    public void replyLocal(LocalReason reason, String detail, boolean closeConnection) {
        if (GrpcReply.isGrpc(request.getHeader(HttpHeaders.CONTENT_TYPE)) && !headSent && !response.ended()
                && !response.closed()) {
            // A gRPC client reads grpc-status, not a problem document.
            GrpcReply.describe(response.headers(), reason, detail, requestId,
                    request.version() != HttpVersion.HTTP_2, closeConnection);
            reply(reason, null, closeConnection, 200);
            return;
        }
        Buffer page = localReplyPages == null || headSent ? null : localReplyPages.render(this, reason, detail);
        if (page != null) {
            reply(reason, page, closeConnection, reason.status(), false);
            return;
        }
        reply(reason, LocalReply.problem(reason, detail, requestId), closeConnection, reason.status());
    }

    /**
     * Answers with {@code reason}'s status and no body, keeping the fields the caller set (a redirect's
     * {@code Location}); the connection is handled as {@link #replyLocal} handles it.
     */
    public void replyLocalWithoutBody(LocalReason reason) {
        reply(reason, null, false, reason.status());
    }

    /**
     * Answers with a response the configuration fixes (a route's {@code respond} or {@code redirect}), counted under
     * {@code reason}; the caller set its other fields ({@code Location}).
     *
     * @param contentType the body's type, or null for a reply without a body
     */
    public void replyFixed(LocalReason reason, int status, String contentType, Buffer body) {
        if (contentType != null) {
            response.headers().set(HttpHeaders.CONTENT_TYPE, contentType);
        }
        reply(reason, body == null ? Buffer.buffer() : body, false, status, false);
    }

    private void reply(LocalReason reason, Buffer body, boolean closeConnection, int status) {
        reply(reason, body, closeConnection, status, true);
    }

    /** @param problem whether a body is a problem document (else the caller set its type) */
    private void reply(LocalReason reason, Buffer body, boolean closeConnection, int status, boolean problem) {
        reason(reason);
        if (headSent || response.ended() || response.closed()) {
            abort(reason);
            return;
        }
        // An unread request body would otherwise sit in front of the next request on this connection.
        boolean close = closeConnection || !request.isEnded() && RequestTarget.hasBody(request);
        response.setStatusCode(status);
        if (body != null && problem) {
            LocalReply.describe(response.headers(), body.length(), close);
        } else if (body != null) {
            LocalReply.describeFixed(response.headers(), body.length(), close);
        } else if (status == reason.status()) {
            LocalReply.describeEmpty(response.headers(), close);
        }
        sendHead();
        if (body != null) {
            response.end(body);
        } else {
            response.end();
        }
        if (close) {
            if (connection != null) {
                // The client may still be sending what this reply leaves unread: close without destroying the reply
                // (over HTTP/2: end the stream, not the connection).
                connection.lingerThenClose();
            } else {
                response.close();
            }
            complete();
        } else {
            request.resume();
        }
    }

    /** The protocol switch this request asks for and a proxy may forward; null for a plain request. */
    public UpgradeRequest upgrade() {
        return upgrade;
    }

    /**
     * The {@code 101} head is set (status and fields): runs the response head phase like any response, then frees the
     * connection of HTTP ({@link ClientConnection#switchedProtocols()}). The exchange then stays in flight until
     * {@link #tunnelClosed}, which accounts it.
     */
    public void switchProtocols() {
        sendHead();
        handshakeNanos = System.nanoTime() - startNanos;
        if (connection != null) {
            connection.switchedProtocols();
        }
        // A tunnel is no HTTP exchange to abort any more: its vhost's removal is the tunnel registry's to handle.
        leaveRouted();
    }

    /** The switched connection closed: accounts the exchange with what went through the tunnel. */
    public void tunnelClosed(TunnelClose why, long bytesFromClient, long bytesToClient) {
        tunnelClose = why;
        tunnelBytesIn = bytesFromClient;
        tunnelBytesOut = bytesToClient;
        complete();
    }

    private void leaveRouted() {
        if (routed != null) {
            routed.ended(this);
            routed = null;
        }
    }

    /** Why the tunnel this exchange became closed; null unless the connection switched protocols and closed. */
    public TunnelClose tunnelClose() {
        return tunnelClose;
    }

    /** From the request head to the {@code 101}; -1 unless the connection switched protocols. */
    public long handshakeNanos() {
        return handshakeNanos;
    }

    /** Gives up on the request: records why and closes the client connection. */
    public void abort(LocalReason reason) {
        reason(reason);
        if (!response.closed()) {
            response.reset();
        }
        complete();
    }

    /**
     * The client connection failed under a write: it is closing by itself, and touching it from inside the failed
     * write would re-enter Netty's encoder. Records the abort and accounts the request.
     */
    public void clientFailed() {
        clientGone();
        complete();
    }

    /** Accounts the request exactly once, however it ended. */
    private void complete() {
        if (!completed) {
            completed = true;
            leaveRouted();
            durationNanos = System.nanoTime() - startNanos;
            status = headSent ? response.getStatusCode() : reason != null ? reason.status() : 500;
            if (connection != null) {
                connection.completed(this);
            }
            pipeline.complete();
            onComplete.accept(this);
        }
    }

    /** The status accounted for the request (the reason's, e.g. 499, when no response head was sent). */
    public int status() {
        return status;
    }

    /** From the request head to the end of the response; set when the request completes. */
    public long durationNanos() {
        return durationNanos;
    }

    /** Request body bytes read from the client; for a tunnel, the bytes it carried from the client. */
    public long bytesIn() {
        return tunnelClose != null ? tunnelBytesIn : request.bytesRead();
    }

    /** Response body bytes written to the client; for a tunnel, the bytes it carried to the client. */
    public long bytesOut() {
        return tunnelClose != null ? tunnelBytesOut : response.bytesWritten();
    }
}
