package dev.portico.control.acme;

import org.shredzone.acme4j.Problem;
import org.shredzone.acme4j.exception.AcmeException;
import org.shredzone.acme4j.exception.AcmeRateLimitedException;
import org.shredzone.acme4j.exception.AcmeServerException;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Why an ACME step failed, in the CA's own words when the CA said something: the problem document's type, detail
 * and sub-problems (RFC 8555 section 6.7) verbatim, so an operator reads "urn:ietf:params:acme:error:dns: no valid
 * A records found for shop.example" rather than "Internal Error". When the CA throttled us, {@link #retryAfter()}
 * is the earliest time it allows another attempt.
 */
public final class AcmeFailure extends Exception {

    private final String step;
    private final String problemType;
    private final String detail;
    private final List<String> subproblems;
    private final Instant retryAfter;

    private AcmeFailure(String step, String problemType, String detail, List<String> subproblems,
                        Instant retryAfter, Throwable cause) {
        super(describe(step, problemType, detail, subproblems), cause);
        this.step = step;
        this.problemType = problemType;
        this.detail = detail;
        this.subproblems = List.copyOf(subproblems);
        this.retryAfter = retryAfter;
    }

    /** A problem document the CA attached to an order, authorization or challenge. */
    public static AcmeFailure of(String step, Problem problem) {
        return new AcmeFailure(step, problem.getType().toString(), problem.getDetail().orElse(""),
                subproblems(problem), null, null);
    }

    /** What acme4j threw: the CA's problem document when it sent one, else what went wrong on our side. */
    public static AcmeFailure of(String step, AcmeException e) {
        if (e instanceof AcmeServerException server) {
            Instant retryAfter = server instanceof AcmeRateLimitedException limited
                    ? limited.getRetryAfter().orElse(null) : null;
            Problem problem = server.getProblem();
            return new AcmeFailure(step, problem.getType().toString(), problem.getDetail().orElse(""),
                    subproblems(problem), retryAfter, e);
        }
        return new AcmeFailure(step, null, String.valueOf(e.getMessage()), List.of(), null, e);
    }

    /** A failure Portico itself detected (no problem document), such as a CA offering no HTTP-01 challenge. */
    public static AcmeFailure local(String step, String detail) {
        return new AcmeFailure(step, null, detail, List.of(), null, null);
    }

    /** The step that failed: {@code account}, {@code order}, {@code challenge <name>}, {@code finalize} ... */
    public String step() {
        return step;
    }

    /** The problem type URI the CA sent ({@code urn:ietf:params:acme:error:...}); empty when it sent none. */
    public Optional<String> problemType() {
        return Optional.ofNullable(problemType);
    }

    /** The CA's detail text verbatim, or what failed on Portico's side. */
    public String detail() {
        return detail;
    }

    /** Each sub-problem as {@code "<identifier>: <type>: <detail>"}, for orders with several names. */
    public List<String> subproblems() {
        return subproblems;
    }

    /** When the CA rate-limited us: the earliest time it allows another attempt. */
    public Optional<Instant> retryAfter() {
        return Optional.ofNullable(retryAfter);
    }

    private static List<String> subproblems(Problem problem) {
        return problem.getSubProblems().stream()
                .map(sub -> sub.getIdentifier().map(id -> id.getValue() + ": ").orElse("") + sub.getType()
                        + sub.getDetail().map(d -> ": " + d).orElse(""))
                .toList();
    }

    private static String describe(String step, String type, String detail, List<String> subproblems) {
        StringBuilder text = new StringBuilder(step).append(": ");
        if (type != null) {
            text.append(type).append(": ");
        }
        text.append(detail);
        for (String sub : subproblems) {
            text.append("; ").append(sub);
        }
        return text.toString();
    }
}
