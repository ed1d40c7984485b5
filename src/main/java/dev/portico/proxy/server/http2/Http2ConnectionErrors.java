package dev.portico.proxy.server.http2;

import dev.portico.proxy.core.counters.ReasonCounts;
import dev.portico.proxy.core.outcome.LocalReason;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.vertx.core.http.HttpConnection;
import org.jboss.logging.Logger;

/**
 * Names why an HTTP/2 connection was closed on the client's account. Netty's decoder enforces the limits (reset rate,
 * CONTINUATION count, header list size, queued control frames, empty DATA frames) and ends the connection with
 * GOAWAY itself; this gives each a {@link LocalReason} that the metrics ({@code portico_local_replies}) and the log
 * share, so an operator sees which attack was refused.
 */
public final class Http2ConnectionErrors {

    private static final Logger LOG = Logger.getLogger(Http2ConnectionErrors.class);

    private final ReasonCounts counts;
    private final int loop;

    public Http2ConnectionErrors(ReasonCounts counts, int loop) {
        this.counts = counts;
        this.loop = loop;
    }

    void watch(HttpConnection connection) {
        connection.exceptionHandler(failure -> {
            LocalReason reason = reasonOf(failure);
            if (reason != null) {
                counts.counted(loop, reason);
                LOG.debugf("HTTP/2 connection from %s closed: %s (%s)", connection.remoteAddress(), reason.code(),
                        failure.getMessage());
            }
        });
    }

    /** The reason of a connection error the client caused, or null for anything else (a reset socket). */
    static LocalReason reasonOf(Throwable failure) {
        if (!(failure instanceof Http2Exception) || failure instanceof Http2Exception.StreamException) {
            return null;
        }
        Http2Exception error = (Http2Exception) failure;
        String message = String.valueOf(error.getMessage());
        if (message.contains("continuation")) {
            return LocalReason.H2_CONTINUATION_FLOOD;
        }
        if (error.error() == Http2Error.ENHANCE_YOUR_CALM) {
            return message.contains("RST frames") ? LocalReason.H2_RAPID_RESET : LocalReason.H2_FRAME_FLOOD;
        }
        if (message.contains("Header size exceeded") || message.contains("Header List Size")) {
            return LocalReason.H2_HEADER_LIST_TOO_LARGE;
        }
        if (message.contains("control frames") || message.contains("empty data frames")) {
            return LocalReason.H2_FRAME_FLOOD;
        }
        return LocalReason.H2_PROTOCOL_ERROR;
    }
}
