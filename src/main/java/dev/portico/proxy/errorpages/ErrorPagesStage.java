package dev.portico.proxy.errorpages;

import dev.portico.http.VaryField;
import dev.portico.http.negotiation.AcceptMediaType;
import dev.portico.proxy.core.BodyFilter;
import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.LocalReplyPages;
import dev.portico.proxy.core.Slot;
import dev.portico.proxy.core.Stage;
import dev.portico.proxy.core.StageFactory;
import dev.portico.proxy.core.outcome.LocalReason;
import dev.portico.vhost.ErrorPageTemplate;
import dev.portico.vhost.ErrorPagesSpec;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;

import java.util.List;

/**
 * A vhost's or route's {@code errorPages}: Portico's own error replies (a problem document otherwise) rendered as the
 * page the client's {@code Accept} prefers, and, when asked, an upstream's 5xx body replaced by the page with its
 * status and other fields kept. A client whose preference has no page configured gets what it would have got
 * without: the problem document, the upstream's body.
 */
public final class ErrorPagesStage implements Stage, LocalReplyPages {

    public static final StageFactory FACTORY = context -> context.spec().errorPages().isEmpty() ? null
            : new ErrorPagesStage(context.spec().errorPages());

    /** The page that replaces the upstream's body of this response, from the upstream response to the body phase. */
    private static final Slot<Exchange, Buffer> PAGE = Slot.declare(Exchange.class, "error page for the upstream");
    private static final String HTML = "text/html; charset=utf-8";
    private static final String JSON = "application/json";
    private static final String UPSTREAM_ERROR = "upstream_error";
    /** What describes the upstream's body, which the page replaces. */
    private static final List<CharSequence> REPRESENTATION_FIELDS = List.of(HttpHeaders.CONTENT_ENCODING,
            HttpHeaders.ETAG, HttpHeaders.LAST_MODIFIED, "Content-Range", "Content-Language", "Content-Location",
            "Content-Disposition", "Content-MD5", "Digest", "Content-Digest", "Repr-Digest", HttpHeaders.TRANSFER_ENCODING);

    private final ErrorPagesSpec pages;

    private ErrorPagesStage(ErrorPagesSpec pages) {
        this.pages = pages;
    }

    @Override
    public Flow onRequest(Exchange exchange) {
        exchange.localReplyPages(this);
        return Flow.NEXT;
    }

    @Override
    public Buffer render(Exchange exchange, LocalReason reason, String detail) {
        if (!pages.covers(reason.status())) {
            return null;
        }
        boolean html = prefersHtml(exchange);
        ErrorPageTemplate template = html ? pages.html() : pages.json();
        MultiMap headers = exchange.response().headers();
        VaryField.add(headers, "Accept");
        if (template == null) {
            return null;
        }
        headers.set(HttpHeaders.CONTENT_TYPE, html ? HTML : JSON);
        headers.set(HttpHeaders.CACHE_CONTROL, "no-store");
        return new PageText(reason.status(), reason.title(), reason.code(), exchange.requestId(),
                detail == null ? "" : detail, exchange.request().path()).render(template, html);
    }

    @Override
    public Flow onUpstreamResponse(Exchange exchange, int status) {
        if (!pages.upstreamErrors() || status < 500 || !pages.covers(status)) {
            return Flow.NEXT;
        }
        MultiMap headers = exchange.response().headers();
        // Whether the body is replaced, and by what, depends on Accept.
        VaryField.add(headers, "Accept");
        boolean html = prefersHtml(exchange);
        ErrorPageTemplate template = html ? pages.html() : pages.json();
        if (template == null) {
            return Flow.NEXT;
        }
        Buffer page = new PageText(status, HttpResponseStatus.valueOf(status).reasonPhrase(), UPSTREAM_ERROR,
                exchange.requestId(), "The upstream answered " + status, exchange.request().path())
                .render(template, html);
        for (CharSequence field : REPRESENTATION_FIELDS) {
            headers.remove(field);
        }
        headers.set(HttpHeaders.CONTENT_TYPE, html ? HTML : JSON);
        // Runs after a compressor decided (it is inside): the page goes as it is, with its own length.
        headers.set(HttpHeaders.CONTENT_LENGTH, Integer.toString(page.length()));
        if (exchange.request().method() != HttpMethod.HEAD) {
            exchange.put(PAGE, page);
        }
        return Flow.NEXT;
    }

    @Override
    public BodyFilter onResponseBody(Exchange exchange) {
        Buffer page = exchange.get(PAGE);
        if (page == null) {
            return null;
        }
        exchange.put(PAGE, null);
        return new ReplacedBody(page);
    }

    private static boolean prefersHtml(Exchange exchange) {
        List<String> accept = exchange.request().headers().getAll(HttpHeaders.ACCEPT);
        return AcceptMediaType.prefersHtml(accept.isEmpty() ? null : String.join(",", accept));
    }

    /** Drops the upstream's body (read to its end, so the connection is pooled) and sends the page at its end. */
    private static final class ReplacedBody implements BodyFilter {
        private final Buffer page;

        ReplacedBody(Buffer page) {
            this.page = page;
        }

        @Override
        public Buffer piece(Buffer piece) {
            return EMPTY;
        }

        @Override
        public Buffer end() {
            return page;
        }
    }
}
