package dev.portico.control.api.error;

import com.fasterxml.jackson.core.JsonParseException;
import dev.portico.control.database.DatabaseReachability;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import jakarta.persistence.OptimisticLockException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Request;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.hibernate.StaleStateException;
import org.hibernate.exception.ConstraintViolationException;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import java.util.List;

/** Turns every failure of the management API into an RFC 9457 problem document. */
public class ProblemMappers {

    private static final Logger LOG = Logger.getLogger(ProblemMappers.class);

    private final DatabaseReachability database;

    public ProblemMappers(DatabaseReachability database) {
        this.database = database;
    }

    @ServerExceptionMapper
    public Response apiProblem(ApiProblem problem, UriInfo uri) {
        Response.ResponseBuilder response = respond(problem.status(), problem.type(), problem.title(),
                problem.getMessage(), uri, problem.errors());
        if (problem.status() == 503) {
            response.header("Retry-After", "5");
        }
        return response.build();
    }

    @ServerExceptionMapper
    public Response unknownField(UnrecognizedPropertyException e, UriInfo uri) {
        String field = path(e);
        return respond(400, "validation", "Invalid request", field + " is not a known field", uri,
                List.of(new FieldError(field, "is not a known field"))).build();
    }

    /**
     * A JSON value of the wrong type, such as {@code "weight": "abc"} or an array where the vhost object belongs.
     * Declared for {@link MismatchedInputException} itself: Quarkus REST ships a built-in mapper for that type which
     * would otherwise win over a mapper for a supertype and answer without a problem document.
     */
    @ServerExceptionMapper
    public Response mismatchedInput(MismatchedInputException e, UriInfo uri) {
        return badJsonValue(e, uri);
    }

    @ServerExceptionMapper
    public Response badJsonValue(JsonMappingException e, UriInfo uri) {
        String field = path(e);
        String reason = field.isEmpty() ? "must be a JSON object describing the vhost"
                : e instanceof MismatchedInputException mismatch && mismatch.getTargetType() != null
                ? "has the wrong type: must be " + jsonType(mismatch.getTargetType())
                : "has the wrong type";
        String name = field.isEmpty() ? "body" : field;
        return respond(400, "validation", "Invalid request", name + " " + reason, uri,
                List.of(new FieldError(name, reason))).build();
    }

    @ServerExceptionMapper
    public Response malformedJson(JsonParseException e, UriInfo uri) {
        String duplicate = duplicateKey(e);
        if (duplicate != null) {
            String reason = "is given twice in the same object: JSON keys must be unique";
            return respond(400, "validation", "Invalid request", duplicate + " " + reason, uri,
                    List.of(new FieldError(duplicate, reason))).build();
        }
        return respond(400, "malformed-json", "Malformed JSON", "The body is not valid JSON: " + e.getOriginalMessage(),
                uri, List.of(new FieldError("body", "is not valid JSON"))).build();
    }

    @ServerExceptionMapper
    public Response webApplication(WebApplicationException e, UriInfo uri, Request request) {
        // Quarkus REST's JSON reader wraps syntax errors (and some binding errors) in a plain 400.
        if (e.getCause() instanceof JsonParseException parse) {
            return malformedJson(parse, uri);
        }
        if (e.getCause() instanceof JsonMappingException mapping) {
            return badJsonValue(mapping, uri);
        }
        int status = e.getResponse().getStatus();
        Response.Status.Family family = Response.Status.Family.familyOf(status);
        String title = Response.Status.fromStatusCode(status) == null ? "Error"
                : Response.Status.fromStatusCode(status).getReasonPhrase();
        String path = uri == null ? "" : uri.getRequestUri().getPath();
        // The framework's own messages ("did not match the value in @Consumes") mean nothing to an API client.
        Response.ResponseBuilder response = switch (status) {
            case 404 -> respond(status, "not-found", title, "There is no API resource at " + path
                    + "; the OpenAPI document (/q/openapi on the management port) lists them", uri, List.of());
            // RFC 9110 section 15.5.6: a 405 lists the methods the resource takes.
            case 405 -> withAllow(respond(status, "method-not-allowed", title, path + " does not take "
                    + request.getMethod(), uri, List.of()), AllowedMethods.of(path));
            case 406 -> respond(status, "not-acceptable", title, "This API answers only application/json (and "
                    + "application/problem+json for errors); send Accept: application/json or leave Accept out", uri,
                    List.of());
            case 415 -> respond(status, "unsupported-media-type", title, "The body must be JSON, sent with "
                    + "Content-Type: application/json", uri, List.of());
            default -> respond(status, family == Response.Status.Family.CLIENT_ERROR ? "bad-request" : "internal",
                    title, e.getMessage(), uri, List.of());
        };
        return response.build();
    }

    private static Response.ResponseBuilder withAllow(Response.ResponseBuilder response, String allow) {
        return allow == null ? response : response.header(HttpHeaders.ALLOW, allow);
    }

    /**
     * Persistence failures: stale versions, unique keys lost in a race, and an unreachable database, which is
     * reported to {@link DatabaseReachability} at once so that health and status say so from this answer on.
     */
    @ServerExceptionMapper
    public Response unexpected(RuntimeException e, UriInfo uri) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ApiProblem problem) {
                return apiProblem(problem, uri);
            }
            if (t instanceof OptimisticLockException || t instanceof StaleStateException) {
                return apiProblem(ApiProblem.preconditionFailed("The vhost was changed concurrently; fetch it again"),
                        uri);
            }
            if (t instanceof ConstraintViolationException violation && violation.getConstraintName() != null) {
                String constraint = violation.getConstraintName();
                if (constraint.contains("vhost_name_key")) {
                    return apiProblem(ApiProblem.conflict("name", "A vhost with this name already exists"), uri);
                }
                if (constraint.contains("vhost_hostname_key")) {
                    return apiProblem(ApiProblem.conflict("hostnames", "A host name is already served by another vhost"),
                            uri);
                }
            }
        }
        if (database.reportFailure("an API call", e)) {
            return apiProblem(ApiProblem.databaseUnavailable(), uri);
        }
        LOG.error("Unexpected failure in the management API", e);
        return respond(500, "internal", "Internal Server Error",
                "The request failed unexpectedly; see the server log", uri, List.of()).build();
    }

    /** How the API documentation would name the JSON type a Java type is read from. */
    private static String jsonType(Class<?> type) {
        if (type == Integer.class || type == int.class || type == Long.class || type == long.class) {
            return "a whole number";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        }
        if (type == String.class) {
            return "a string";
        }
        if (java.util.Collection.class.isAssignableFrom(type) || type.isArray()) {
            return "an array";
        }
        return "an object";
    }

    /**
     * The path of the key a {@code STRICT_DUPLICATE_DETECTION} parser refused, such as {@code upstreams[0].url}, or
     * null for any other syntax error. Jackson has no exception type of its own for it, only this message.
     */
    private static String duplicateKey(JsonParseException e) {
        JsonParser parser = e.getProcessor();
        if (parser == null || !String.valueOf(e.getOriginalMessage()).startsWith("Duplicate field '")) {
            return null;
        }
        StringBuilder out = new StringBuilder();
        for (JsonStreamContext c = parser.getParsingContext(); c != null && !c.inRoot(); c = c.getParent()) {
            if (c.inArray()) {
                out.insert(0, "[" + c.getCurrentIndex() + "]");
            } else {
                out.insert(0, (c.getParent() == null || c.getParent().inRoot() ? "" : ".") + c.getCurrentName());
            }
        }
        return out.toString();
    }

    private static String path(JsonMappingException e) {
        StringBuilder out = new StringBuilder();
        for (JsonMappingException.Reference ref : e.getPath()) {
            if (ref.getIndex() >= 0) {
                out.append('[').append(ref.getIndex()).append(']');
            } else if (ref.getFieldName() != null) {
                if (!out.isEmpty()) {
                    out.append('.');
                }
                out.append(ref.getFieldName());
            }
        }
        return out.toString();
    }

    private static Response.ResponseBuilder respond(int status, String type, String title, String detail, UriInfo uri,
                                                    List<FieldError> errors) {
        return Response.status(status)
                .type(Problem.MEDIA_TYPE)
                .entity(new Problem("urn:portico:problem:" + type, title, status, detail,
                        uri == null ? null : uri.getRequestUri().getPath(), errors));
    }
}
