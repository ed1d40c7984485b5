package dev.portico.proxy.upstream.balance;

import dev.portico.vhost.BalanceSpec;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Builds the {@link UpstreamSelector} a vhost's {@code balance} names, over its compiled upstreams. */
public final class BalancePolicies {

    private BalancePolicies() {
    }

    /** @param stickyKey the vhost's cookie key, for {@code sticky} */
    public static UpstreamSelector<?> selector(BalanceSpec balance, List<UpstreamTarget> targets, byte[] stickyKey) {
        List<String> origins = new ArrayList<>(targets.size());
        int[] weights = new int[targets.size()];
        for (int i = 0; i < weights.length; i++) {
            origins.add(targets.get(i).spec().origin());
            weights[i] = targets.get(i).spec().weight();
        }
        return switch (balance.policy()) {
            case ROUND_ROBIN -> new SmoothWeightedRoundRobin(origins, weights);
            case LEAST_CONN -> new LeastConnections(origins, weights);
            case RANDOM_TWO -> new RandomTwoChoices(origins, weights, balance.byLatency());
            case HASH -> new ConsistentHash(identities(targets), origins, weights, balance.hashOn());
            case STICKY -> new StickyCookie(identities(targets), origins, weights, balance.sticky(), stickyKey);
        };
    }

    /**
     * What names each upstream wherever the configuration is loaded: its URL (and the address, for one of the
     * addresses DNS gave for its host name), with {@code #2}, {@code #3}... after a URL listed again (two entries of
     * one URL are two upstreams, as in nginx).
     */
    static List<String> identities(List<UpstreamTarget> targets) {
        Map<String, Integer> seen = new HashMap<>();
        List<String> identities = new ArrayList<>(targets.size());
        for (UpstreamTarget target : targets) {
            String address = target.resolvedAddress();
            String url = address == null ? target.spec().url() : target.spec().url() + "@" + address;
            int n = seen.merge(url, 1, Integer::sum);
            identities.add(n == 1 ? url : url + "#" + n);
        }
        return identities;
    }
}
