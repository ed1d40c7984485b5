package dev.portico.telemetry.analytics.offloop;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * One entry of a top list: a path, client address, user agent or referrer and how many requests had it. Stored
 * in the bucket rows as it is shown by the API.
 *
 * @param agentClass for user agents only: {@code browser}, {@code bot}, {@code tool}, {@code other} or
 *                   {@code unknown}; null (left out) for the other dimensions
 */
@Schema(name = "TopItem")
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TopItem(
        String key,
        long count,
        @JsonProperty("class")
        @Schema(description = "User agents only: browser, bot, tool, other or unknown (no User-Agent)")
        String agentClass) {

    public TopItem(String key, long count) {
        this(key, count, null);
    }
}
