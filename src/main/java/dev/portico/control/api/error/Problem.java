package dev.portico.control.api.error;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.List;

/** The RFC 9457 problem document every API error is answered with. */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
@Schema(name = "Problem", description = "RFC 9457 problem details")
public record Problem(
        @Schema(example = "urn:portico:problem:validation") String type,
        String title,
        int status,
        String detail,
        String instance,
        @Schema(description = "Each invalid field with the reason") List<FieldError> errors) {

    public static final String MEDIA_TYPE = "application/problem+json";
}
