package dev.portico.control.acme;

import dev.portico.control.secrets.SecretBox;
import dev.portico.control.secrets.SecretKeySource;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;
import org.shredzone.acme4j.AccountBuilder;
import org.shredzone.acme4j.Login;
import org.shredzone.acme4j.Session;
import org.shredzone.acme4j.exception.AcmeException;

import javax.sql.DataSource;
import java.net.MalformedURLException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * Portico's ACME account with each directory: created once (with External Account Binding when configured) and
 * kept in {@code acme_account}, its key pair sealed with the secret key; later calls log in with the stored account
 * URL and key, without registering again. JDBC and network: worker threads only.
 */
@Singleton
public class AcmeAccounts {

    private static final Logger LOG = Logger.getLogger(AcmeAccounts.class);

    private final DataSource dataSource;
    private final SecretKeySource keys;

    public AcmeAccounts(DataSource dataSource, SecretKeySource keys) {
        this.dataSource = dataSource;
        this.keys = keys;
    }

    /**
     * A login to {@code directory}: the stored account's, or a new account's (stored before returning).
     *
     * @throws AcmeFailure when the CA refuses the account (for example {@code externalAccountRequired}), in its
     *                     own words
     */
    public Login login(AcmeDirectory directory) throws AcmeFailure {
        SecretBox box = keys.require();
        Session session = directory.session();
        Optional<StoredAccount> stored = find(directory.url(), box);
        if (stored.isPresent()) {
            try {
                return session.login(URI.create(stored.get().accountUrl()).toURL(), stored.get().keyPair());
            } catch (MalformedURLException e) {
                throw AcmeFailure.local("account", "the stored account URL is not a URL: " + e.getMessage());
            }
        }
        KeyPair keyPair = P256KeyPairs.generate();
        AccountBuilder builder = new AccountBuilder().agreeToTermsOfService().useKeyPair(keyPair);
        directory.email().ifPresent(builder::addEmail);
        directory.binding().ifPresent(eab -> builder.withKeyIdentifier(eab.keyId(), eab.macKey()));
        Login login;
        try {
            login = builder.createLogin(session);
        } catch (AcmeException e) {
            throw AcmeFailure.of("account", e);
        }
        if (!insert(directory, login.getAccountLocation().toString(), keyPair, box)) {
            // Another replica registered concurrently: use its account, so one directory has one account.
            return login(directory);
        }
        LOG.infof("Created ACME account %s at %s", login.getAccountLocation(), directory.url());
        return login;
    }

    private record StoredAccount(String accountUrl, KeyPair keyPair) {
    }

    private static String context(String directoryUrl) {
        return "portico:acme-account:" + directoryUrl;
    }

    private Optional<StoredAccount> find(String directoryUrl, SecretBox box) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement(
                     "select account_url, key_ciphertext from acme_account where directory_url = ?")) {
            select.setString(1, directoryUrl);
            try (ResultSet row = select.executeQuery()) {
                if (!row.next()) {
                    return Optional.empty();
                }
                byte[] pem = box.open(row.getBytes(2), context(directoryUrl));
                return Optional.of(new StoredAccount(row.getString(1),
                        PemText.readEcKeyPair(new String(pem, StandardCharsets.US_ASCII))));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the ACME account: " + e.getMessage(), e);
        }
    }

    private boolean insert(AcmeDirectory directory, String accountUrl, KeyPair keyPair, SecretBox box) {
        String pem = PemText.ecKeyPair(keyPair);
        try (Connection connection = dataSource.getConnection();
             PreparedStatement insert = connection.prepareStatement(
                     "insert into acme_account (directory_url, account_url, email, key_ciphertext) "
                             + "values (?, ?, ?, ?) on conflict (directory_url) do nothing")) {
            insert.setString(1, directory.url());
            insert.setString(2, accountUrl);
            insert.setString(3, directory.email().orElse(null));
            insert.setBytes(4, box.seal(pem.getBytes(StandardCharsets.US_ASCII), context(directory.url())));
            return insert.executeUpdate() == 1;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot store the ACME account: " + e.getMessage(), e);
        }
    }
}
