package dev.portico.proxy.access;

import dev.portico.http.TrustedProxies;
import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.Stage;
import dev.portico.proxy.core.StageFactory;
import dev.portico.proxy.core.outcome.LocalReason;

/**
 * A vhost's {@code access} rules: a client they refuse gets 403 {@code access_denied} before anything of the request
 * is read, served from the cache or the files, or forwarded. The client is the one {@link ClientAddresses} works
 * out (behind trusted proxies, from {@code X-Forwarded-For}), the same client the traffic analytics count. Only in
 * the pipeline of a vhost with rules.
 */
public final class AccessRulesStage implements Stage {

    private final AddressRules rules;
    private final TrustedProxies trusted;

    private AccessRulesStage(AddressRules rules, TrustedProxies trusted) {
        this.rules = rules;
        this.trusted = trusted;
    }

    /** No stage at all for a vhost without rules. */
    public static StageFactory factory(TrustedProxies trusted) {
        return context -> context.spec().access().isEmpty() ? null
                : new AccessRulesStage(AddressRules.compile(context.spec().access()), trusted);
    }

    @Override
    public Flow onRequest(Exchange exchange) {
        String client = ClientAddresses.of(exchange, trusted);
        if (rules.allows(client)) {
            return Flow.NEXT;
        }
        exchange.replyLocal(LocalReason.ACCESS_DENIED, "The vhost's access rules do not allow the client address "
                + client);
        return Flow.TAKEN;
    }
}
