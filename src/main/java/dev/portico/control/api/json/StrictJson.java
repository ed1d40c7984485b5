package dev.portico.control.api.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.type.LogicalType;
import io.quarkus.jackson.ObjectMapperCustomizer;
import jakarta.inject.Singleton;

/**
 * The API takes JSON literally: {@code "weight": 1.5} or {@code "weight": "2"} is a type error naming the field,
 * not a silently coerced 1 or 2, and {@code "name": 5} is not the string "5". An object naming a key twice is
 * refused instead of letting the last one win (RFC 8259 leaves that to the parser, and parsers disagree). Unknown
 * fields are refused through {@code quarkus.jackson.fail-on-unknown-properties}. Vhost bodies are bound by
 * {@link JsonRecordReader}, which applies the same rules field by field; this keeps every other body consistent.
 */
@Singleton
public class StrictJson implements ObjectMapperCustomizer {

    @Override
    @SuppressWarnings("deprecation")
    public void customize(ObjectMapper mapper) {
        mapper.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
        mapper.disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT);
        mapper.disable(MapperFeature.ALLOW_COERCION_OF_SCALARS);
        // Scalars into strings are not covered by ALLOW_COERCION_OF_SCALARS.
        for (CoercionInputShape shape : new CoercionInputShape[]{CoercionInputShape.Integer, CoercionInputShape.Float,
                CoercionInputShape.Boolean}) {
            mapper.coercionConfigFor(LogicalType.Textual).setCoercion(shape, CoercionAction.Fail);
        }
    }
}
