package dev.portico.control.ocsp;

import dev.portico.control.snapshot.SnapshotReloader;
import dev.portico.proxy.route.OcspStaples;
import dev.portico.proxy.route.SnapshotHolder;
import dev.portico.proxy.route.TlsTable;
import io.quarkus.scheduler.Scheduled;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import java.net.URI;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Keeps an OCSP response for every presented certificate whose CA runs a responder, for the TLS listener to staple
 * (BoringSSL; the JDK's engine staples nothing). Each replica fetches its own, as nginx does. A response is
 * refreshed once half of its validity has passed, kept through failed refreshes while it is still valid, and never
 * stapled after its {@code nextUpdate}. Runs on a scheduler worker; the listeners get the responses with the
 * snapshot ({@link SnapshotReloader#useStaples}).
 */
@Singleton
public class OcspStapling {

    private static final Logger LOG = Logger.getLogger(OcspStapling.class);
    static final Duration FETCH_TIMEOUT = Duration.ofSeconds(10);

    private final SnapshotHolder snapshots;
    private final SnapshotReloader reloader;
    private final boolean enabled;
    private final OcspFetcher fetcher = new OcspFetcher(FETCH_TIMEOUT);
    /** What was fetched, by certificate alias; failures are remembered to log each once. */
    private final Map<String, OcspFetcher.Staple> fetched = new ConcurrentHashMap<>();
    private final Map<String, String> failures = new ConcurrentHashMap<>();
    private final ReentrantLock round = new ReentrantLock();

    public OcspStapling(SnapshotHolder snapshots, SnapshotReloader reloader,
                        @ConfigProperty(name = "portico.tls.ocsp-stapling", defaultValue = "true") boolean enabled) {
        this.snapshots = snapshots;
        this.reloader = reloader;
        this.enabled = enabled;
    }

    @Scheduled(every = "5m", delayed = "10s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void scheduled() {
        if (enabled) {
            refresh(Instant.now());
        }
    }

    /** Fetches what is missing or half-expired, drops what expired or is no longer presented, publishes changes. */
    public void refresh(Instant now) {
        if (!round.tryLock()) {
            return;
        }
        try {
            TlsTable table = snapshots.current().tls();
            Map<String, byte[]> staples = new HashMap<>();
            for (TlsTable.Entry entry : table.entries()) {
                OcspFetcher.Staple staple = current(entry, now);
                if (staple != null) {
                    staples.put(entry.alias(), staple.der());
                }
            }
            fetched.keySet().retainAll(staples.keySet());
            reloader.useStaples(OcspStaples.of(staples));
        } finally {
            round.unlock();
        }
    }

    /** A response valid now for {@code entry}, fetched again when half its validity has passed; or null. */
    private OcspFetcher.Staple current(TlsTable.Entry entry, Instant now) {
        X509Certificate[] chain = entry.chain();
        Optional<URI> responder = OcspFetcher.responder(chain[0]);
        if (responder.isEmpty() || chain.length < 2) {
            return null; // no responder, or no issuer to ask about (and to check the answer with)
        }
        OcspFetcher.Staple held = fetched.get(entry.alias());
        if (held == null || now.isAfter(halfway(held))) {
            try {
                held = fetcher.fetch(responder.get(), chain[0], chain[1]);
                fetched.put(entry.alias(), held);
                failures.remove(entry.alias());
            } catch (OcspFetcher.OcspException e) {
                if (!e.getMessage().equals(failures.put(entry.alias(), e.getMessage()))) {
                    LOG.warnf("No fresh OCSP response for certificate %s: %s", entry.alias(), e.getMessage());
                }
            }
        }
        return held != null && held.nextUpdate().isAfter(now) ? held : null;
    }

    private static Instant halfway(OcspFetcher.Staple staple) {
        return staple.thisUpdate().plus(Duration.between(staple.thisUpdate(), staple.nextUpdate()).dividedBy(2));
    }
}
