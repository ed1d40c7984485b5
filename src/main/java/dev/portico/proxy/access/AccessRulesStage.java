package dev.portico.proxy.access;

import dev.portico.http.TrustedProxies;
import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.Stage;
import dev.portico.proxy.core.StageFactory;
import dev.portico.proxy.core.outcome.LocalReason;

import java.util.List;

/**
 * A vhost's {@code access} rules: a client they refuse gets 403 {@code access_denied} before anything of the request
 * is read, served from the cache or the files, or forwarded. The client is the TCP peer; when the peer is a trusted
 * proxy ({@code portico.dataplane.trusted-proxies}) it is the right-most {@code X-Forwarded-For} entry that is not
 * itself trusted (nginx's {@code real_ip_recursive on}), the same client the traffic analytics count, since the
 * entries left of it were written by the client and prove nothing. Only in the pipeline of a vhost with rules.
 */
public final class AccessRulesStage implements Stage {

    private static final String FORWARDED_FOR = "X-Forwarded-For";

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
        String client = exchange.peerTrusted() ? forwardedClient(exchange) : exchange.clientAddress();
        if (rules.allows(client)) {
            return Flow.NEXT;
        }
        exchange.replyLocal(LocalReason.ACCESS_DENIED, "The vhost's access rules do not allow the client address "
                + client);
        return Flow.TAKEN;
    }

    /** Several X-Forwarded-For lines are one list in order (RFC 9110 section 5.3). */
    private String forwardedClient(Exchange exchange) {
        List<String> lines = exchange.request().headers().getAll(FORWARDED_FOR);
        String chain = lines.isEmpty() ? null : lines.size() == 1 ? lines.get(0) : String.join(",", lines);
        return trusted.forwardedClient(exchange.clientAddress(), chain);
    }
}
