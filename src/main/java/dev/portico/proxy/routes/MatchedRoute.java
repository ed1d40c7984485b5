package dev.portico.proxy.routes;

import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.Slot;

/**
 * The route that took a request, for the stages of its pipeline that act on the match: the redirect's
 * {@code $path}, the rewrite's normalised path.
 *
 * @param capture what the pattern's last {@code *} matched ({@code ""} when nothing)
 */
record MatchedRoute(CompiledRoute route, RequestPath path, String capture) {

    static final Slot<Exchange, MatchedRoute> SLOT = Slot.declare(Exchange.class, "matched route");
}
