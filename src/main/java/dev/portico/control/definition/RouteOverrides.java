package dev.portico.control.definition;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Iterator;
import java.util.Map;

/**
 * The settings a route's requests are served with: the vhost's definition with each field the route sets put in its
 * place. Done on the JSON form, so a field added to both records is inherited and overridden with no code here.
 * A route's own upstreams or static root is its whole action: setting one drops the vhost's other (a route with only
 * {@code static} serves only files, and leaves the vhost's cache and breaker, which need upstreams).
 */
final class RouteOverrides {

    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private RouteOverrides() {
    }

    /** {@code vhost} with {@code route}'s overrides; without routes of its own. */
    static VhostDefinition merged(VhostDefinition vhost, RouteDefinition route) {
        ObjectNode out = JSON.valueToTree(vhost);
        out.remove("routes");
        ObjectNode overrides = JSON.valueToTree(route);
        boolean ownUpstreams = overrides.hasNonNull("upstreams");
        boolean ownStatic = overrides.hasNonNull("static");
        if (ownUpstreams && !ownStatic) {
            out.remove("static");
        } else if (ownStatic && !ownUpstreams) {
            out.putArray("upstreams");
            out.remove("circuitBreaker");
            if (!overrides.hasNonNull("cache")) {
                out.remove("cache");
            }
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = overrides.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            if (!RouteDefinition.OWN_FIELDS.contains(field.getKey()) && !field.getValue().isNull()) {
                out.set(field.getKey(), field.getValue());
            }
        }
        return JSON.convertValue(out, VhostDefinition.class);
    }

    /**
     * {@code route} normalised: each override it sets replaced by the normalised value in {@code normalisedMerge}
     * (the validator's output for {@link #merged}; the fields it leaves out stay out), and the route's own fields
     * given in {@code own} (by JSON name; a null one is left out) in place of its own.
     */
    static RouteDefinition normalised(RouteDefinition route, Map<String, Object> own, VhostDefinition normalisedMerge) {
        ObjectNode out = JSON.valueToTree(route);
        ObjectNode normal = JSON.valueToTree(normalisedMerge);
        for (Iterator<Map.Entry<String, JsonNode>> it = out.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            if (!RouteDefinition.OWN_FIELDS.contains(field.getKey()) && normal.has(field.getKey())) {
                field.setValue(normal.get(field.getKey()));
            }
        }
        own.forEach((name, value) -> {
            if (value == null) {
                out.remove(name);
            } else {
                out.set(name, JSON.valueToTree(value));
            }
        });
        return JSON.convertValue(out, RouteDefinition.class);
    }
}
