package dev.portico.control.api.error;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** One invalid field of a request body, named by its JSON path such as {@code upstreams[0].url}. */
@Schema(name = "FieldError")
public record FieldError(String field, String reason) {
}
