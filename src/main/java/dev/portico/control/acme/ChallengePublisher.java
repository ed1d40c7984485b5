package dev.portico.control.acme;

/**
 * Makes HTTP-01 answers reachable to the CA: while a token is published, {@code GET
 * /.well-known/acme-challenge/<token>} on port 80 of every name in the order must answer its key authorization
 * (RFC 8555 section 8.3), whichever replica the CA's request reaches.
 * <p>
 * {@link OrderRunner} publishes every token of an order before it asks the CA to validate any, and withdraws them
 * all when the order is over, whether it succeeded or not. An implementation returns from {@link #publish} only once
 * the answer can be served: {@link ChallengeStore} commits the row; a publisher that also pushes the token into the
 * data plane's snapshot waits for that too.
 */
public interface ChallengePublisher {

    /**
     * Serves {@code keyAuthorization} for {@code token} from now on.
     *
     * @param namesKey the order's names ({@link NamesKey}), so an operator can tell whose token it is
     */
    void publish(String token, String keyAuthorization, String namesKey);

    /** Stops serving {@code token}; a token that is not published is ignored. */
    void withdraw(String token);
}
