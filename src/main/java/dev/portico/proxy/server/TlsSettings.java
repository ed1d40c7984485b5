package dev.portico.proxy.server;

import java.nio.file.Path;
import java.util.Objects;

/**
 * How a {@link Listener} terminates TLS: its certificate chain and private key, both PEM files. The seam only: no
 * listener terminates TLS yet, so a listener given these settings is refused (see {@link Listener}) rather than
 * served in cleartext.
 */
public record TlsSettings(Path certificateChain, Path privateKey) {

    public TlsSettings {
        Objects.requireNonNull(certificateChain, "certificateChain");
        Objects.requireNonNull(privateKey, "privateKey");
    }
}
