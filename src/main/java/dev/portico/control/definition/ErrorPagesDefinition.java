package dev.portico.control.definition;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.List;

/** A vhost's or route's custom error pages, as clients write them. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(name = "ErrorPages", description = "Pages in place of Portico's problem+json replies (every 4xx and 5xx, or "
        + "the statuses listed) and, when asked, of the upstreams' 5xx bodies: html for clients whose Accept prefers "
        + "text/html, json for the others. Placeholders {{status}}, {{title}}, {{reason}}, {{requestId}}, "
        + "{{message}} and {{path}} are filled in, HTML-escaped in html and JSON-string-escaped in json")
public record ErrorPagesDefinition(
        @Schema(description = "The HTML page (at most 64 KiB); left out, such clients keep the default",
                example = "<h1>{{status}} {{title}}</h1><p>{{message}}</p><small>{{requestId}}</small>")
        String html,
        @Schema(description = "The JSON document (at most 64 KiB), valid JSON once filled in: put placeholders other "
                + "than {{status}} inside quotes; left out, such clients keep the default problem+json",
                example = "{\"error\": \"{{reason}}\", \"status\": {{status}}, \"requestId\": \"{{requestId}}\"}")
        String json,
        @Schema(description = "The statuses (400-599) that get a page; left out or empty: every 4xx and 5xx",
                example = "[502, 503, 504]")
        List<Integer> statuses,
        @Schema(description = "Replace the body of an upstream's own 5xx (in statuses) with the page, its status and "
                + "other fields kept", defaultValue = "false")
        Boolean upstreamErrors) {
}
