package dev.portico.control.acme;

import org.jboss.logging.Logger;
import org.shredzone.acme4j.Authorization;
import org.shredzone.acme4j.Certificate;
import org.shredzone.acme4j.Login;
import org.shredzone.acme4j.Order;
import org.shredzone.acme4j.Status;
import org.shredzone.acme4j.challenge.Http01Challenge;
import org.shredzone.acme4j.exception.AcmeException;

import java.security.KeyPair;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Consumer;

/**
 * Runs one ACME order with HTTP-01 from start to certificate (RFC 8555 section 7.4): orders the names, publishes
 * every pending authorization's token, asks the CA to validate, waits, finalizes with a CSR for a new EC P-256 key
 * and downloads the chain. Blocking (network, and the publisher's JDBC): a worker thread only, and only on the
 * replica holding the renewer lease.
 * <p>
 * The caller records the order ({@link OrderLedger#open}) before and its end ({@link OrderLedger#finish}) after,
 * and stores the certificate.
 */
public class OrderRunner {

    private static final Logger LOG = Logger.getLogger(OrderRunner.class);

    private final Duration patience;

    /** @param patience how long to wait for each of: validation, the order becoming ready, issuance */
    public OrderRunner(Duration patience) {
        this.patience = patience;
    }

    /**
     * Orders a certificate for {@code names}.
     *
     * @param ordered told the order's URL as soon as the CA created it (e.g. {@link OrderLedger#processing})
     * @throws AcmeFailure in the CA's words when the CA refused or validation failed
     * @throws InterruptedException when the thread was interrupted while waiting (at shutdown)
     */
    public IssuedCertificate run(Login login, Collection<String> names, ChallengePublisher publisher,
                                 Consumer<String> ordered) throws AcmeFailure, InterruptedException {
        String namesKey = NamesKey.of(names);
        Order order;
        try {
            order = login.newOrder().domains(names).create();
        } catch (AcmeException e) {
            throw AcmeFailure.of("order", e);
        }
        String orderUrl = order.getLocation().toString();
        ordered.accept(orderUrl);
        List<String> published = new ArrayList<>();
        try {
            List<Http01Challenge> challenges = publishChallenges(order, namesKey, publisher, published);
            validate(challenges);
            return finalizeOrder(order, orderUrl);
        } finally {
            for (String token : published) {
                try {
                    publisher.withdraw(token);
                } catch (RuntimeException e) {
                    // the row expires by itself; the order's outcome matters more than the cleanup
                    LOG.warnf("Could not withdraw ACME challenge token for %s: %s", namesKey, e.getMessage());
                }
            }
        }
    }

    private static List<Http01Challenge> publishChallenges(Order order, String namesKey, ChallengePublisher publisher,
                                                           List<String> published) throws AcmeFailure {
        List<Http01Challenge> challenges = new ArrayList<>();
        List<Authorization> authorizations;
        try {
            authorizations = order.getAuthorizations();
        } catch (RuntimeException e) {
            throw AcmeFailure.local("authorizations", String.valueOf(e.getMessage()));
        }
        for (Authorization authorization : authorizations) {
            String name = authorization.getIdentifier().getValue();
            if (authorization.getStatus() == Status.VALID) {
                continue; // the CA remembers an earlier validation of this name
            }
            Http01Challenge challenge = authorization.findChallenge(Http01Challenge.class).orElseThrow(() ->
                    AcmeFailure.local("challenge " + name, "the CA offers no http-01 challenge for " + name
                            + (authorization.isWildcard() ? " (wildcard names need dns-01)" : "")));
            publisher.publish(challenge.getToken(), challenge.getAuthorization(), namesKey);
            published.add(challenge.getToken());
            challenges.add(challenge);
        }
        return challenges;
    }

    private void validate(List<Http01Challenge> challenges) throws AcmeFailure, InterruptedException {
        for (Http01Challenge challenge : challenges) {
            try {
                challenge.trigger();
            } catch (AcmeException e) {
                throw AcmeFailure.of("challenge", e);
            }
        }
        for (Http01Challenge challenge : challenges) {
            Status status;
            try {
                status = challenge.waitForCompletion(patience);
            } catch (AcmeException e) {
                throw AcmeFailure.of("challenge", e);
            }
            if (status != Status.VALID) {
                throw challenge.getError().map(problem -> AcmeFailure.of("challenge", problem))
                        .orElseGet(() -> AcmeFailure.local("challenge", "the challenge ended " + status));
            }
        }
    }

    private IssuedCertificate finalizeOrder(Order order, String orderUrl) throws AcmeFailure, InterruptedException {
        KeyPair domainKey = P256KeyPairs.generate();
        try {
            Status ready = order.waitUntilReady(patience);
            if (ready != Status.READY) {
                throw orderFailure(order, "the order is " + ready + ", not ready");
            }
            order.execute(domainKey);
            Status done = order.waitForCompletion(patience);
            if (done != Status.VALID) {
                throw orderFailure(order, "the order ended " + done);
            }
            Certificate certificate = order.getCertificate();
            List<X509Certificate> chain = certificate.getCertificateChain();
            return new IssuedCertificate(PemText.certificates(chain), PemText.privateKey(domainKey.getPrivate()),
                    chain, orderUrl);
        } catch (AcmeException e) {
            throw AcmeFailure.of("finalize", e);
        }
    }

    private static AcmeFailure orderFailure(Order order, String otherwise) {
        return order.getError().map(problem -> AcmeFailure.of("order", problem))
                .orElseGet(() -> AcmeFailure.local("order", otherwise));
    }
}
