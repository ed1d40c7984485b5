package dev.portico.http.coding;

import com.aayushatharva.brotli4j.Brotli4jLoader;
import com.github.luben.zstd.util.Native;
import dev.portico.http.negotiation.AcceptEncoding;
import org.jboss.logging.Logger;

/**
 * Loads the native Brotli and Zstandard libraries once, where blocking is allowed (they are unpacked to a temporary
 * file on first use), and says which codings this platform can offer. A coding whose library cannot load is left
 * out with a warning, so a vhost still compresses with the others (gzip is the JDK's and always there).
 */
final class NativeCodecs {

    private static final Logger LOG = Logger.getLogger(NativeCodecs.class);
    private static final boolean BROTLI = load("br");
    private static final boolean ZSTD = load("zstd");

    private NativeCodecs() {
    }

    static boolean available(AcceptEncoding.Coding coding) {
        return switch (coding) {
            case GZIP -> true;
            case BR -> BROTLI;
            case ZSTD -> ZSTD;
        };
    }

    private static boolean load(String coding) {
        try {
            if (coding.equals("br")) {
                Brotli4jLoader.ensureAvailability();
            } else {
                Native.load();
            }
            return true;
        } catch (Throwable e) {
            LOG.warnf("Compression: the native %s codec does not load on this platform (%s); it is not offered",
                    coding, e);
            return false;
        }
    }
}
