package dev.portico.control.secrets;

import dev.portico.proxy.route.SnapshotCompiler;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

/**
 * Gives the snapshot compiler the secret its sticky-cookie keys are derived from, derived in turn from the secret key
 * every replica is configured with: a sticky cookie issued by one replica is then honoured by all of them, and after a
 * restart. Without a secret key the compiler keeps its per-process secret, and cookies last as long as the process.
 */
@Singleton
public class StickyCookieSecret {

    /** After the secret key is known, before the first snapshot is compiled. */
    static final int STARTUP_PRIORITY = SecretKeySource.STARTUP_PRIORITY + 5;

    private static final Logger LOG = Logger.getLogger(StickyCookieSecret.class);

    private final SecretKeySource secrets;
    private final SnapshotCompiler compiler;

    public StickyCookieSecret(SecretKeySource secrets, SnapshotCompiler compiler) {
        this.secrets = secrets;
        this.compiler = compiler;
    }

    void handOver(@Observes @Priority(STARTUP_PRIORITY) StartupEvent event) {
        secrets.box().ifPresentOrElse(box -> compiler.useStickySecret(box.derive("portico:sticky-cookies")),
                () -> LOG.warn("No secret key: sticky cookies are signed with a key of this process only, so a "
                        + "replica or a restart sends their clients elsewhere once"));
    }
}
