package dev.portico.proxy.core;

import dev.portico.proxy.core.counters.ConnectionCounts;
import dev.portico.proxy.core.counters.HandshakeCounts;
import dev.portico.proxy.core.counters.ReasonCounts;
import dev.portico.proxy.core.counters.VhostStats;
import jakarta.inject.Singleton;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every vhost's {@link VhostStats}, kept across snapshots by name, plus the requests no vhost served and the
 * client connections. The snapshot compiler binds each compiled vhost to its stats, so the hot path never looks
 * anything up.
 */
@Singleton
public class StatsRegistry {

    /** The pseudo-vhost that accounts requests no vhost served (unknown host, malformed request). */
    public static final String UNMATCHED = "(none)";

    private final int loops;
    private final ConcurrentHashMap<String, VhostStats> byVhost = new ConcurrentHashMap<>();
    private final VhostStats unmatched;
    private final ConnectionCounts connections;
    private final HandshakeCounts handshakes;
    private final ReasonCounts connectionRefusals;

    public StatsRegistry(DataPlaneSettings config) {
        this.loops = config.eventLoopCount();
        this.unmatched = new VhostStats(UNMATCHED, loops);
        this.connections = new ConnectionCounts(loops);
        this.handshakes = new HandshakeCounts(loops);
        this.connectionRefusals = new ReasonCounts(loops);
    }

    /** The stats of a vhost, created on first use. */
    public VhostStats forVhost(String name) {
        return byVhost.computeIfAbsent(name, n -> new VhostStats(n, loops));
    }

    public VhostStats unmatched() {
        return unmatched;
    }

    public ConnectionCounts connections() {
        return connections;
    }

    /** The TLS listeners' handshakes, full and resumed. */
    public HandshakeCounts handshakes() {
        return handshakes;
    }

    /** Connections closed for an attack on their protocol (HTTP/2 floods), by reason: no request carries them. */
    public ReasonCounts connectionRefusals() {
        return connectionRefusals;
    }

    /** Forgets the vhosts that no longer exist, so deleted vhosts leave no series behind. */
    public void retainVhosts(Set<String> names) {
        byVhost.keySet().retainAll(names);
    }

    /** The vhosts' stats, without the unmatched pseudo-vhost. */
    public List<VhostStats> vhosts() {
        return new ArrayList<>(byVhost.values());
    }
}
