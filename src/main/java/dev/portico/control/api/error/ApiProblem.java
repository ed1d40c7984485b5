package dev.portico.control.api.error;

import java.util.List;

/**
 * An API failure that becomes an RFC 9457 {@code application/problem+json} response. The type is a stable
 * {@code urn:portico:problem:...} code clients can switch on.
 */
public class ApiProblem extends RuntimeException {

    private final int status;
    private final String type;
    private final String title;
    private final List<FieldError> errors;

    public ApiProblem(int status, String type, String title, String detail, List<FieldError> errors) {
        super(detail, null, false, false);
        this.status = status;
        this.type = type;
        this.title = title;
        this.errors = List.copyOf(errors);
    }

    public ApiProblem(int status, String type, String title, String detail) {
        this(status, type, title, detail, List.of());
    }

    public static ApiProblem invalid(List<FieldError> errors) {
        String detail = errors.size() == 1
                ? errors.get(0).field() + " " + errors.get(0).reason()
                : errors.size() + " fields are invalid";
        return new ApiProblem(400, "validation", "Invalid request", detail, errors);
    }

    public static ApiProblem invalid(String field, String reason) {
        return invalid(List.of(new FieldError(field, reason)));
    }

    public static ApiProblem notFound(String detail) {
        return new ApiProblem(404, "not-found", "Not found", detail);
    }

    public static ApiProblem conflict(String field, String detail) {
        return new ApiProblem(409, "conflict", "Conflict", detail, List.of(new FieldError(field, detail)));
    }

    public static ApiProblem preconditionFailed(String detail) {
        return new ApiProblem(412, "stale-version", "Precondition failed", detail);
    }

    /** 413: the body is larger than the API takes; the connection is closed after the answer. */
    public static ApiProblem bodyTooLarge(long limitBytes) {
        return new ApiProblem(413, "body-too-large", "Content Too Large", "The request body is larger than the "
                + limitBytes + " bytes this API takes (portico.admin.max-body-size)");
    }

    public static ApiProblem databaseUnavailable() {
        return new ApiProblem(503, "database-unavailable", "Service unavailable",
                "The configuration database cannot be reached; the data plane keeps serving its last configuration. "
                        + "Retry later.");
    }

    public int status() {
        return status;
    }

    public String type() {
        return type;
    }

    public String title() {
        return title;
    }

    public List<FieldError> errors() {
        return errors;
    }
}
