package dev.portico.control.definition;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.portico.control.definition.VhostDefinition.AccessLogDefinition;
import dev.portico.control.definition.VhostDefinition.HeaderRulesDefinition;
import dev.portico.control.store.VhostEntity;
import dev.portico.vhost.AccessLogSpec;
import dev.portico.vhost.HeaderRules;
import dev.portico.vhost.UpstreamSpec;
import dev.portico.vhost.VhostSpec;

import java.util.List;

/** Converts between the stored JSON, the API's {@link VhostDefinition} and the compiler's {@link VhostSpec}. */
public final class VhostMapper {

    // A private mapper: the stored format must not change when someone tunes the API's JSON settings.
    private static final ObjectMapper STORAGE = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private VhostMapper() {
    }

    public static String toJson(VhostDefinition definition) {
        try {
            return STORAGE.writeValueAsString(definition);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise a vhost definition", e);
        }
    }

    static VhostDefinition fromJson(String json) {
        try {
            return STORAGE.readValue(json, VhostDefinition.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored vhost definition is not readable", e);
        }
    }

    public static VhostView toView(VhostEntity entity) {
        return VhostView.of(entity, fromJson(entity.definition));
    }

    /** For a normalised definition; parsing cannot fail for one that passed {@link VhostValidator}. */
    public static VhostSpec toSpec(VhostEntity entity) {
        return toSpec(entity.id, entity.version, fromJson(entity.definition));
    }

    public static VhostSpec toSpec(java.util.UUID id, long version, VhostDefinition d) {
        List<UpstreamSpec> upstreams = d.upstreams() == null ? List.of() : d.upstreams().stream()
                .map(u -> UpstreamUrl.parse(u.url(), u.weight()))
                .toList();
        return new VhostSpec(id, d.name(), version, d.hostnames(), d.enabled(), d.preserveHost(), upstreams,
                DurationText.parse(d.connectTimeout()), DurationText.parse(d.readTimeout()), d.securityHeaders(),
                rules(d.requestHeaders()), rules(d.responseHeaders()), accessLog(d.accessLog()),
                CacheSettingsCheck.toSpec(d.cache()), StaticSettingsCheck.toSpec(d.staticFiles()),
                CompressionSettingsCheck.toSpec(d.compression()), RequestBodyLimitText.toBytes(d.maxRequestBody()));
    }

    private static AccessLogSpec accessLog(AccessLogDefinition d) {
        AccessLogDefinition n = AccessLogDefinition.normalised(d);
        return new AccessLogSpec(n.enabled(), n.redactQuery());
    }

    private static HeaderRules rules(HeaderRulesDefinition d) {
        if (d == null) {
            return HeaderRules.NONE;
        }
        return new HeaderRules(d.set() == null ? java.util.Map.of() : d.set(),
                d.add() == null ? java.util.Map.of() : d.add(),
                d.remove() == null ? List.of() : d.remove());
    }
}
