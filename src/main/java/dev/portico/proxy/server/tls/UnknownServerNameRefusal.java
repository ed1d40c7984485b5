package dev.portico.proxy.server.tls;

import dev.portico.proxy.route.TlsTable;

import javax.net.ssl.SNIHostName;
import javax.net.ssl.SNIMatcher;
import javax.net.ssl.SNIServerName;
import javax.net.ssl.StandardConstants;
import java.util.Locale;

/**
 * Refuses a handshake for a host name no certificate covers with the {@code unrecognized_name} alert (RFC 6066
 * section 3), which both engines send when an SNI matcher says no: the client learns why, rather than getting a
 * certificate for another name that it would reject anyway. Accepts every name while the table has a default entry.
 */
final class UnknownServerNameRefusal extends SNIMatcher {

    private final PresentedCertificates presented;

    UnknownServerNameRefusal(PresentedCertificates presented) {
        super(StandardConstants.SNI_HOST_NAME);
        this.presented = presented;
    }

    /** Any name is accepted while the listener has a default certificate, which serves unknown names. */
    @Override
    public boolean matches(SNIServerName serverName) {
        TlsTable table = presented.current();
        return table.hasDefault() || serverName instanceof SNIHostName
                && table.named(((SNIHostName) serverName).getAsciiName().toLowerCase(Locale.ROOT)) != null;
    }
}
