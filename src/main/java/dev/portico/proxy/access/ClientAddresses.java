package dev.portico.proxy.access;

import dev.portico.http.TrustedProxies;
import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.Slot;

import java.util.List;

/**
 * The client of a request as the policies see it: the TCP peer; when the peer is a trusted proxy
 * ({@code portico.dataplane.trusted-proxies}) the right-most {@code X-Forwarded-For} entry that is not itself trusted
 * (nginx's {@code real_ip_recursive on}), since the entries left of it were written by the client and prove nothing.
 * Worked out once per request, however many policies ask (the IP rules, a rate limit keyed by client).
 */
public final class ClientAddresses {

    private static final String FORWARDED_FOR = "X-Forwarded-For";
    private static final Slot<Exchange, String> FORWARDED = Slot.declare(Exchange.class, "forwarded client");

    private ClientAddresses() {
    }

    /** The client address of {@code exchange}, behind {@code trusted} proxies. */
    public static String of(Exchange exchange, TrustedProxies trusted) {
        if (!exchange.peerTrusted()) {
            return exchange.clientAddress();
        }
        String known = exchange.get(FORWARDED);
        if (known == null) {
            known = forwardedClient(exchange, trusted);
            exchange.put(FORWARDED, known);
        }
        return known;
    }

    /** Several X-Forwarded-For lines are one list in order (RFC 9110 section 5.3). */
    private static String forwardedClient(Exchange exchange, TrustedProxies trusted) {
        List<String> lines = exchange.request().headers().getAll(FORWARDED_FOR);
        String chain = lines.isEmpty() ? null : lines.size() == 1 ? lines.get(0) : String.join(",", lines);
        return trusted.forwardedClient(exchange.clientAddress(), chain);
    }
}
