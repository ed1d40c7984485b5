package dev.portico.proxy.upstream;

import dev.portico.http.HopByHopHeaders;
import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.RequestTarget;
import dev.portico.proxy.upstream.pool.UpstreamRequest;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.HostAndPort;
import io.vertx.core.streams.WriteStream;

import java.util.List;

/**
 * Pingora's upstream request phase for one attempt: the upstream request's head (the client's end-to-end fields,
 * the {@code Host} the vhost sends, the request id, this hop's {@code Via}) and its body, streamed from the request
 * body phase with back-pressure; {@code Expect: 100-continue} is answered once the upstream is connected, as nginx does.
 * A retry sends the body an earlier attempt kept ({@link KeptBody}) instead.
 */
final class UpstreamRequestWriter {

    private UpstreamRequestWriter() {
    }

    /** Whether the client's {@code TE} lists {@code trailers} (RFC 9110 section 10.1.4). */
    private static boolean wantsTrailers(MultiMap headers) {
        for (String te : headers.getAll("TE")) {
            for (String coding : te.split(",")) {
                int params = coding.indexOf(';');
                String name = (params < 0 ? coding : coding.substring(0, params)).trim();
                if (name.equalsIgnoreCase("trailers")) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * An HTTP/2 client may split {@code Cookie} into one field per cookie for better compression; an HTTP/1.1
     * upstream gets them joined into one field with "; " (RFC 9113 section 8.2.3).
     */
    private static void joinCookies(MultiMap out) {
        List<String> cookies = out.getAll(HttpHeaders.COOKIE);
        if (cookies.size() > 1) {
            out.set(HttpHeaders.COOKIE, String.join("; ", cookies));
        }
    }

    static void send(UpstreamCall call, UpstreamRequest request) {
        Exchange exchange = call.exchange();
        ForwardStage stage = call.stage();
        HttpServerRequest in = exchange.request();
        MultiMap inHeaders = in.headers();
        MultiMap out = request.headers();
        HopByHopHeaders.of(inHeaders).copyEndToEnd(inHeaders, out, "Host", "Expect");
        MaxForwards.decrement(in.method(), inHeaders, out);
        String host = stage.hostFor(exchange, call.target());
        boolean http2 = call.target().spec().protocol().http2();
        if (http2) {
            // HTTP/2 names the host in :authority, never in a Host field (RFC 9113 section 8.3.1), and sends no
            // connection-specific field (section 8.2.2; the copy above leaves them out) except TE: trailers, which
            // gRPC servers require to know the client reads trailers.
            // HTTP/2 upstreams are Vert.x connections.
            request.vertx().authority(HostAndPort.parseAuthority(host, -1));
            if (wantsTrailers(inHeaders)) {
                out.set("te", "trailers");
            }
        } else {
            out.set(HttpHeaders.HOST, host);
            if (in.version() == HttpVersion.HTTP_2) {
                joinCookies(out);
            }
        }
        out.set(Exchange.REQUEST_ID_HEADER, exchange.requestId());
        out.add(UpstreamCall.VIA, stage.via(in.version()));
        if (call.upgrading()) {
            // Upgrade is hop-by-hop (RFC 9110 section 7.8): the copy left it out, and this hop asks for it itself.
            out.set(HttpHeaders.CONNECTION, HttpHeaders.UPGRADE);
            out.set(HttpHeaders.UPGRADE, exchange.upgrade().protocols());
            call.awaitHead();
            // The request never ends on a 101: the connection's close, when the tunnel ends, fails it; the response
            // future (or the tunnel) reports what matters, so Vert.x need not log it as unhandled.
            // A protocol switch goes through Vert.x's client, which hands the connection over as a socket on a 101.
            HttpClientRequest switching = request.vertx();
            switching.exceptionHandler(UpstreamCall.IGNORED);
            switching.connection().exceptionHandler(UpstreamCall.IGNORED);
            // Sends the head without ending the request.
            switching.connect();
            in.resume();
            return;
        }
        if (!RequestTarget.hasBody(in)) {
            call.awaitHead();
            request.end();
            in.resume();
            return;
        }
        // A request reset mid-body (client gone, timed out or broken framing) reports here too.
        request.exceptionHandler(UpstreamCall.IGNORED);
        WriteStream<Buffer> destination = request;
        if (inHeaders.contains(HttpHeaders.TRANSFER_ENCODING)
                || http2 && !inHeaders.contains(HttpHeaders.CONTENT_LENGTH)) {
            // A body of unknown length: chunked to an HTTP/1.1 upstream; to an HTTP/2 one, DATA frames until
            // END_STREAM (Vert.x calls that "chunked" too and sends no Transfer-Encoding on h2, but refuses body
            // writes without it or a Content-Length). gRPC clients never send a Content-Length.
            out.remove(HttpHeaders.CONTENT_LENGTH);
            request.setChunked(true);
        } else if (!http2 && in.version() == HttpVersion.HTTP_2 && !inHeaders.contains(HttpHeaders.CONTENT_LENGTH)) {
            destination = new ChunkedOnFirstWrite(request);
        }
        Buffer replay = call.retries().bodyToReplay();
        if (replay != null) {
            // A retry: an earlier attempt read the client's body whole and kept it; it goes again from the copy.
            if (replay.length() > 0) {
                destination.write(replay);
            }
            destination.end();
            call.awaitHead();
            return;
        }
        if (inHeaders.contains(HttpHeaders.EXPECT, HttpHeaders.CONTINUE, true)) {
            // The upstream is connected, so the body has somewhere to go (nginx answers 100 the same way).
            exchange.response().writeContinue();
        }
        destination = call.retries().bodyStarted(destination);
        long bodyTimeout = exchange.loop().clientBodyTimeoutMillis();
        BodyRelay.start(exchange.requestBody(), destination, call.deadlines(), bodyTimeout, new BodyRelay.Outcome() {
            @Override
            public void relayed() {
                call.awaitHead();
            }

            @Override
            public void sourceFailed(Throwable cause) {
                // The client stopped sending mid-body: never let a truncated body look complete upstream.
                request.reset();
            }

            @Override
            public void sourceTimedOut(boolean destinationEnded) {
                call.clientBodyTimedOut();
            }

            @Override
            public void destinationFailed(Throwable cause) {
                // The upstream stopped reading; its response (or the lack of one) decides what the client sees.
                request.reset();
            }
        });
    }
}
