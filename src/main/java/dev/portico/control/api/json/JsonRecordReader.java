package dev.portico.control.api.json;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import dev.portico.control.api.error.FieldError;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Binds a JSON tree to a record field by field, collecting every unknown field and every value of the wrong JSON
 * type instead of stopping at the first, as Jackson's data binding does. A field in error is left null, so the
 * caller's validation can still check the others and report everything in one answer.
 *
 * <p>Strict like {@link StrictJson}: a string is only a JSON string, a whole number only a JSON integer that fits,
 * a boolean only {@code true} or {@code false}. JSON {@code null} is the same as leaving the field out. Supported
 * types: records, {@code String}, {@code Boolean}, {@code Integer}, {@code Double} (any JSON number),
 * {@code List<T>} and {@code Map<String, T>}.
 * A record's JSON names follow {@link JsonProperty}, and names in its {@link JsonIgnoreProperties} are skipped.
 *
 * <p>Fields are named like the validators name them: {@code upstreams[0].weight}, {@code requestHeaders.set.X-A}.
 */
public final class JsonRecordReader {

    /** The bound value (never null for an object) and the errors found on the way, in document order. */
    public record Result<T>(T value, List<FieldError> errors) {
    }

    private final List<FieldError> errors = new ArrayList<>();

    private JsonRecordReader() {
    }

    /** @param object a JSON object; the caller says what a body of another shape is */
    public static <T extends Record> Result<T> read(JsonNode object, Class<T> type) {
        if (object == null || !object.isObject()) {
            throw new IllegalArgumentException("a record is read from a JSON object");
        }
        JsonRecordReader reader = new JsonRecordReader();
        T value = reader.record(object, type, "");
        return new Result<>(value, List.copyOf(reader.errors));
    }

    private Object value(JsonNode node, Type type, String path) {
        if (node == null || node.isNull()) {
            return null;
        }
        Class<?> raw = type instanceof ParameterizedType p ? (Class<?>) p.getRawType() : (Class<?>) type;
        if (raw == String.class) {
            return node.isTextual() ? node.textValue() : wrongType(path, "a string");
        }
        if (raw == Boolean.class) {
            return node.isBoolean() ? node.booleanValue() : wrongType(path, "true or false");
        }
        if (raw == Integer.class) {
            if (!node.isIntegralNumber()) {
                return wrongType(path, "a whole number");
            }
            if (!node.canConvertToInt()) {
                errors.add(new FieldError(path, "is out of range: must be a whole number from " + Integer.MIN_VALUE
                        + " to " + Integer.MAX_VALUE));
                return null;
            }
            return node.intValue();
        }
        if (raw == Double.class) {
            return node.isNumber() ? node.doubleValue() : wrongType(path, "a number");
        }
        if (raw == List.class) {
            return node.isArray() ? list(node, typeArgument(type, 0), path) : wrongType(path, "an array");
        }
        if (raw == Map.class) {
            return node.isObject() ? map(node, typeArgument(type, 1), path) : wrongType(path, "an object");
        }
        if (raw.isRecord()) {
            return node.isObject() ? record(node, raw.asSubclass(Record.class), path) : wrongType(path, "an object");
        }
        throw new IllegalArgumentException("cannot bind " + type + " at " + path);
    }

    private Object wrongType(String path, String expected) {
        errors.add(new FieldError(path, "has the wrong type: must be " + expected));
        return null;
    }

    /** Elements may be null: the validators say what a null element means. */
    private List<Object> list(JsonNode array, Type element, String path) {
        List<Object> out = new ArrayList<>(array.size());
        for (int i = 0; i < array.size(); i++) {
            out.add(value(array.get(i), element, path + "[" + i + "]"));
        }
        return out;
    }

    private Map<String, Object> map(JsonNode object, Type valueType, String path) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = it.next();
            out.put(entry.getKey(), value(entry.getValue(), valueType, child(path, entry.getKey())));
        }
        return out;
    }

    private <T extends Record> T record(JsonNode object, Class<T> type, String path) {
        RecordComponent[] components = type.getRecordComponents();
        Map<String, Integer> positions = new LinkedHashMap<>();
        for (int i = 0; i < components.length; i++) {
            positions.put(jsonName(components[i]), i);
        }
        JsonIgnoreProperties ignore = type.getAnnotation(JsonIgnoreProperties.class);
        Set<String> ignored = ignore == null ? Set.of() : Set.of(ignore.value());
        Object[] arguments = new Object[components.length];
        for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            Integer position = positions.get(field.getKey());
            String fieldPath = child(path, field.getKey());
            if (position != null) {
                arguments[position] = value(field.getValue(), components[position].getGenericType(), fieldPath);
            } else if (!ignored.contains(field.getKey())) {
                errors.add(new FieldError(fieldPath, "is not a known field"));
            }
        }
        return construct(type, components, arguments);
    }

    private static <T extends Record> T construct(Class<T> type, RecordComponent[] components, Object[] arguments) {
        Class<?>[] parameterTypes = new Class<?>[components.length];
        for (int i = 0; i < components.length; i++) {
            parameterTypes[i] = components[i].getType();
        }
        try {
            Constructor<T> constructor = type.getDeclaredConstructor(parameterTypes);
            return constructor.newInstance(arguments);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("cannot build a " + type.getSimpleName(), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot build a " + type.getSimpleName(), e);
        }
    }

    /** {@link JsonProperty} on a record component lands on its accessor (the annotation does not target components). */
    private static String jsonName(RecordComponent component) {
        JsonProperty property = component.getAccessor().getAnnotation(JsonProperty.class);
        return property == null || property.value().isEmpty() ? component.getName() : property.value();
    }

    private static Type typeArgument(Type type, int index) {
        if (type instanceof ParameterizedType p) {
            return p.getActualTypeArguments()[index];
        }
        throw new IllegalArgumentException(type + " has no type arguments");
    }

    private static String child(String path, String name) {
        return path.isEmpty() ? name : path + "." + name;
    }
}
