package dev.portico.proxy.headers;

import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.Stage;
import dev.portico.proxy.core.StageFactory;
import dev.portico.proxy.core.SubRequest;
import dev.portico.proxy.core.SubResponse;
import dev.portico.vhost.HeaderRules;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;

import java.util.LinkedHashMap;
import java.util.Map;

/** Applies a vhost's configured header edits to the request on its way up, or to the response on its way down. */
public final class HeaderRulesStage implements Stage {

    private final HeaderRules rules;
    private final boolean onRequest;

    private HeaderRulesStage(HeaderRules rules, boolean onRequest) {
        this.rules = rules;
        this.onRequest = onRequest;
    }

    /** The vhost's response edits; outermost, so they see the security defaults and can replace or remove them. */
    public static final StageFactory RESPONSE = context -> context.spec().responseHeaders().isEmpty() ? null
            : forResponse(context.spec().responseHeaders());

    /**
     * The vhost's request edits, last before the forwarder; a {@code Host} among them is not an edit (the forwarder
     * sends it upstream instead).
     */
    public static final StageFactory REQUEST = context -> {
        if (!context.proxied()) {
            return null;
        }
        HeaderRules rules = withoutHost(context.spec().requestHeaders());
        return rules.isEmpty() ? null : forRequest(rules);
    };

    public static HeaderRulesStage forRequest(HeaderRules rules) {
        return new HeaderRulesStage(rules, true);
    }

    public static HeaderRulesStage forResponse(HeaderRules rules) {
        return new HeaderRulesStage(rules, false);
    }

    @Override
    public Flow onRequest(Exchange exchange) {
        if (onRequest) {
            apply(exchange.request().headers());
        }
        return Flow.NEXT;
    }

    /** Portico's own requests (a background refresh) reach the origin with the vhost's edits too. */
    @Override
    public Future<SubResponse> onSubRequest(SubRequest request, SubRequest.Next next) {
        if (onRequest) {
            apply(request.headers());
        }
        return next.proceed(request);
    }

    @Override
    public void onResponseHead(Exchange exchange) {
        if (!onRequest) {
            apply(exchange.response().headers());
        }
    }

    private void apply(MultiMap headers) {
        for (String name : rules.remove()) {
            headers.remove(name);
        }
        for (Map.Entry<String, String> e : rules.set().entrySet()) {
            headers.set(e.getKey(), e.getValue());
        }
        for (Map.Entry<String, String> e : rules.add().entrySet()) {
            headers.add(e.getKey(), e.getValue());
        }
    }

    /**
     * A {@code Host} the request rules set: it replaces the {@code Host} sent upstream instead of being a header edit
     * (the forwarder sends it), or null.
     */
    public static String hostOverride(HeaderRules rules) {
        for (Map.Entry<String, String> e : rules.set().entrySet()) {
            if (isHost(e.getKey())) {
                return e.getValue();
            }
        }
        return null;
    }

    private static HeaderRules withoutHost(HeaderRules rules) {
        Map<String, String> set = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : rules.set().entrySet()) {
            if (!isHost(e.getKey())) {
                set.put(e.getKey(), e.getValue());
            }
        }
        return new HeaderRules(set, rules.add(), rules.remove());
    }

    private static boolean isHost(String name) {
        return name.equalsIgnoreCase("host");
    }
}
