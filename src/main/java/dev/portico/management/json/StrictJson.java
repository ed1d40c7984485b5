package dev.portico.management.json;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.jackson.ObjectMapperCustomizer;
import jakarta.inject.Singleton;

/**
 * The API takes JSON literally: {@code "weight": 1.5} or {@code "weight": "2"} is a type error naming the field,
 * not a silently coerced 1 or 2. (Unknown fields are refused through {@code quarkus.jackson.fail-on-unknown-properties}.)
 */
@Singleton
public class StrictJson implements ObjectMapperCustomizer {

    @Override
    @SuppressWarnings("deprecation")
    public void customize(ObjectMapper mapper) {
        mapper.disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT);
        mapper.disable(MapperFeature.ALLOW_COERCION_OF_SCALARS);
    }
}
