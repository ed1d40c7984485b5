package dev.portico.proxy.upstream.pool;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.CombinedChannelDuplexHandler;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpRequestEncoder;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseDecoder;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.net.impl.ConnectionBase;
import org.jboss.logging.Logger;

import java.net.ProtocolException;
import java.util.ArrayDeque;
import java.util.List;

/**
 * The HTTP/1.1 codec of an upstream connection: Netty's request encoder and response decoder paired as in the
 * {@code HttpClientCodec} Vert.x installs, which this one replaces as each connection opens, for two things a proxy
 * needs and Vert.x does not do.
 * <ul>
 *   <li>A response ends where its {@code Content-Length} or chunked coding says; a byte beyond that belongs to no
 *   response. Netty would parse it as the start of the next one, the answer to whichever request the pool sends next
 *   on the connection: a 502, or another client's response (a desync). Such a connection is never reused, as nginx
 *   does: when bytes follow the end of a response, the response is marked {@code Connection: close} before Vert.x
 *   sees its end (so Vert.x closes the connection instead of pooling it) and the bytes are dropped unparsed; bytes
 *   that arrive while no request is waiting close the connection at once.</li>
 *   <li>Interim responses other than 100 and 101 (RFC 9110 section 15.2). Vert.x reports 100 and 103 and takes any
 *   other 1xx, such as 102, for the final response. They are taken out here and handed to the
 *   {@link InterimListener} of the request in flight, and Vert.x sees only the final response. A 101 is made a
 *   malformed response unless the request asked to switch ({@code Connection: upgrade}, a forwarded WebSocket
 *   handshake).</li>
 * </ul>
 * {@code HttpClientCodec} is final and keeps its decoder's buffer to itself, hence a codec of Portico's own. It keeps
 * the name {@code "codec"}: Vert.x removes the handler by that name when a connection switches protocols. Lives on
 * the connection's event loop.
 */
public final class UpstreamCodec extends CombinedChannelDuplexHandler<HttpResponseDecoder, HttpRequestEncoder> {

    /** Told of the interim responses to the request in flight on a connection, on the connection's event loop. */
    public interface InterimListener {
        void interim(HttpResponse head);
    }

    private static final Logger LOG = Logger.getLogger(UpstreamCodec.class);
    static final String NAME = "codec";

    /** Methods of the requests sent and not yet answered by a final response head; one without pipelining. */
    private final ArrayDeque<HttpMethod> unanswered = new ArrayDeque<>(2);
    /** The request in flight asked to switch protocols ({@code Connection: upgrade}): a 101 may answer it. */
    private boolean upgradeAsked;
    private InterimListener listener;
    /** Final responses this connection carried to their end: more than none means a pooled connection was reused. */
    private long responsesEnded;
    /** Some byte arrived since the last request head was written. */
    private boolean heardSinceRequest;

    /** A 100 Continue is dropped here (Portico's own connections) rather than left to Vert.x, which drops it. */
    private final boolean dropsContinue;

    private UpstreamCodec(HttpDecoderConfig config, boolean dropsContinue) {
        this.dropsContinue = dropsContinue;
        init(new ResponseDecoder(config), new RequestEncoder());
    }

    /**
     * Puts Portico's codec in the place of the one Vert.x gave a new connection, with the same limits. Called from
     * the pool's connection handler, before any request is written on the connection.
     */
    static void install(HttpConnection connection, HttpClientOptions options) {
        HttpDecoderConfig config = decoderConfig(options);
        ChannelPipeline pipeline = ((ConnectionBase) connection).channelHandlerContext().pipeline();
        if (pipeline.get(NAME) instanceof HttpClientCodec) {
            pipeline.replace(NAME, NAME, new UpstreamCodec(config, false));
            BodyHandoff.install(pipeline, NAME);
        }
    }

    /** The response decoder's limits of a pool: those Vert.x's client would use. */
    static HttpDecoderConfig decoderConfig(HttpClientOptions options) {
        return new HttpDecoderConfig()
                .setMaxInitialLineLength(options.getMaxInitialLineLength())
                .setMaxHeaderSize(options.getMaxHeaderSize())
                .setMaxChunkSize(options.getMaxChunkSize())
                .setValidateHeaders(!io.vertx.core.http.HttpHeaders.DISABLE_HTTP_HEADERS_VALIDATION)
                .setInitialBufferSize(options.getDecoderInitialBufferSize());
    }

    /** A codec for a connection of Portico's own pool ({@link Http1Pool}), named {@code "codec"} in its pipeline. */
    static UpstreamCodec create(HttpDecoderConfig config) {
        return new UpstreamCodec(config, true);
    }

    /** The codec of a connection this class installed on, or null. */
    public static UpstreamCodec of(HttpConnection connection) {
        ChannelHandler codec = ((ConnectionBase) connection).channelHandlerContext().pipeline().get(NAME);
        return codec instanceof UpstreamCodec upstreamCodec ? upstreamCodec : null;
    }

    /**
     * Whether the connection had carried a response before the request in flight, and nothing at all came back for
     * that request: the origin closed an idle keep-alive connection as the request went out (RFC 9112 section 9.3.1
     * allows it to), so the request never reached it and an idempotent one may be sent again on a fresh connection.
     */
    public boolean reusedWithoutAnswer() {
        return responsesEnded > 0 && !heardSinceRequest;
    }

    /** Sends the interim responses to the request about to be written to {@code listener}, until its final head. */
    public void listen(InterimListener listener) {
        this.listener = listener;
    }

    private final class RequestEncoder extends HttpRequestEncoder {
        @Override
        protected void encode(ChannelHandlerContext ctx, Object msg, List<Object> out) throws Exception {
            if (msg instanceof HttpRequest request) {
                unanswered.add(request.method());
                heardSinceRequest = false;
                upgradeAsked = request.headers().contains(HttpHeaderNames.UPGRADE)
                        && request.headers().containsValue(HttpHeaderNames.CONNECTION, HttpHeaderValues.UPGRADE, true);
            }
            super.encode(ctx, msg, out);
        }
    }

    private final class ResponseDecoder extends HttpResponseDecoder {
        /** The final response whose body is being read, or null. */
        private HttpResponse current;
        /** An interim head was taken out: the empty last content the decoder adds after it goes too. */
        private boolean interimEnding;

        ResponseDecoder(HttpDecoderConfig config) {
            super(config);
        }

        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf buffer, List<Object> out) throws Exception {
            if (current == null && unanswered.isEmpty() && buffer.isReadable()) {
                // No request waits for an answer, so these bytes can be none: close rather than let the next
                // request read them (nginx closes an idle upstream connection that becomes readable too).
                LOG.debugf("closing an upstream connection to %s that sent %d bytes no request asked for",
                        ctx.channel().remoteAddress(), buffer.readableBytes());
                buffer.skipBytes(buffer.readableBytes());
                ctx.close();
                return;
            }
            if (buffer.isReadable()) {
                heardSinceRequest = true;
            }
            int from = out.size();
            super.decode(ctx, buffer, out);
            for (int i = from; i < out.size(); i++) {
                Object message = out.get(i);
                if (!(message instanceof HttpObject)) {
                    // Raw bytes after a 101 the codec made malformed: they belong to no response.
                    ReferenceCountUtil.release(message);
                    out.remove(i--);
                    continue;
                }
                if (((HttpObject) message).decoderResult().isFailure()) {
                    // Vert.x fails the request and closes the connection.
                    continue;
                }
                if (message instanceof HttpResponse head) {
                    if (takenOut(head)) {
                        out.remove(i--);
                    }
                } else if (message instanceof LastHttpContent && interimEnding) {
                    out.remove(i--);
                    interimEnding = false;
                } else if (message instanceof LastHttpContent && current != null) {
                    if (buffer.isReadable()) {
                        // Bytes beyond the end of this response: Vert.x reads this header when the response ends
                        // and then closes the connection instead of pooling it.
                        current.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
                        LOG.debugf("upstream %s sent %d bytes beyond the end of a response; not reusing the "
                                + "connection", ctx.channel().remoteAddress(), buffer.readableBytes());
                        buffer.skipBytes(buffer.readableBytes());
                    }
                    current = null;
                    responsesEnded++;
                }
            }
        }

        /**
         * Sorts a response head: a final one, an interim one for the listener (true: Vert.x must not see it), or one
         * left to Vert.x.
         */
        private boolean takenOut(HttpResponse head) {
            int status = head.status().code();
            if (status == 100) {
                // Portico answers a client's Expect itself and never sends one: dropped, here or by Vert.x.
                interimEnding = dropsContinue;
                return dropsContinue;
            }
            if (status == 101 && upgradeAsked) {
                // The switch the request asked for: the final head. Vert.x removes this codec as it reads it (the
                // bytes after it belong to the new protocol) and hands the connection over as a socket.
                unanswered.poll();
                listener = null;
                return false;
            }
            if (status == 101) {
                // A switch the request did not ask for (RFC 9110 section 15.2.2: only to a request with Upgrade).
                // Relayed, it left the client waiting for a response that never came; as a malformed response,
                // Vert.x fails the request (a 502) and closes the connection.
                head.setDecoderResult(DecoderResult.failure(
                        new ProtocolException("101 Switching Protocols to a request without Upgrade")));
                return false;
            }
            if (status < 200) {
                interimEnding = true;
                tell(head);
                return true;
            }
            current = head;
            listener = null;
            return false;
        }

        private void tell(HttpResponse head) {
            InterimListener told = listener;
            if (told == null) {
                return;
            }
            try {
                told.interim(head);
            } catch (RuntimeException e) {
                // Thrown into the decoder it would fail the upstream connection for a client-side problem.
                LOG.error("Relaying an interim response failed", e);
            }
        }

        @Override
        protected boolean isContentAlwaysEmpty(HttpMessage msg) {
            int status = ((HttpResponse) msg).status().code();
            if (status >= 100 && status < 200) {
                // An interim response answers nothing yet: the request still waits for its final response.
                return super.isContentAlwaysEmpty(msg);
            }
            // RFC 9112 section 6.3: a response to HEAD has no body, whatever its Content-Length says.
            return HttpMethod.HEAD.equals(unanswered.poll()) || super.isContentAlwaysEmpty(msg);
        }
    }
}
