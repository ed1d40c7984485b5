package dev.portico.proxy.core;

import dev.portico.proxy.core.outcome.LocalReason;
import io.vertx.core.buffer.Buffer;

/**
 * Renders a request's error replies in place of the problem document (a vhost's custom error pages), set on the
 * {@link Exchange} by the stage that owns them.
 */
@FunctionalInterface
public interface LocalReplyPages {

    /**
     * The page for a reply for {@code reason}, its {@code Content-Type} (and any other field of the page) set on the
     * response, or null to send the problem document.
     */
    Buffer render(Exchange exchange, LocalReason reason, String detail);
}
