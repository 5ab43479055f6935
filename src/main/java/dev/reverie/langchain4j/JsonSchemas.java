package dev.reverie.langchain4j;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.model.chat.request.json.JsonArraySchema;
import dev.langchain4j.model.chat.request.json.JsonBooleanSchema;
import dev.langchain4j.model.chat.request.json.JsonEnumSchema;
import dev.langchain4j.model.chat.request.json.JsonIntegerSchema;
import dev.langchain4j.model.chat.request.json.JsonNumberSchema;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonSchemaElement;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import dev.reverie.internal.Json;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * Converts the JSON Schema text of a Reverie tool into LangChain4j's {@link JsonSchemaElement} model,
 * using only its public builders. Covers what tool parameters use: objects (properties, required,
 * additionalProperties), strings (with enum), integers, numbers, booleans and arrays, each with a
 * description. {@code minimum}/{@code maximum}, which LangChain4j's integer and number schemas cannot
 * carry, are appended to the description so the model still sees them. Any other construct fails
 * with an {@link IllegalArgumentException} naming its path, rather than being dropped silently.
 * Stateless and thread-safe.
 */
final class JsonSchemas {

    private static final Set<String> COMMON = Set.of("type", "description");

    private JsonSchemas() {
    }

    /** The object schema in {@code json}. */
    static JsonObjectSchema objectSchema(String json) {
        JsonNode root;
        try {
            root = Json.mapper().readTree(json);
        } catch (Exception e) {
            throw new IllegalArgumentException("tool parameters schema is not valid JSON: " + e.getMessage(), e);
        }
        if (root == null || !"object".equals(root.path("type").asText())) {
            throw new IllegalArgumentException("tool parameters schema must have \"type\":\"object\" at its root");
        }
        return object(root, "$");
    }

    private static JsonSchemaElement element(JsonNode node, String path) {
        if (!node.isObject()) {
            throw new IllegalArgumentException("schema at " + path + " must be a JSON object");
        }
        String type = node.path("type").asText("");
        String description = node.hasNonNull("description") ? node.get("description").asText() : null;
        return switch (type) {
            case "object" -> object(node, path);
            case "string" -> {
                if (node.has("enum")) {
                    only(node, path, "enum");
                    List<String> values = new ArrayList<>();
                    for (JsonNode v : node.get("enum")) {
                        values.add(v.asText());
                    }
                    yield JsonEnumSchema.builder().enumValues(values).description(description).build();
                }
                only(node, path);
                yield JsonStringSchema.builder().description(description).build();
            }
            case "integer" -> {
                only(node, path, "minimum", "maximum");
                yield JsonIntegerSchema.builder().description(withBounds(description, node)).build();
            }
            case "number" -> {
                only(node, path, "minimum", "maximum");
                yield JsonNumberSchema.builder().description(withBounds(description, node)).build();
            }
            case "boolean" -> {
                only(node, path);
                yield JsonBooleanSchema.builder().description(description).build();
            }
            case "array" -> {
                only(node, path, "items");
                JsonArraySchema.Builder b = JsonArraySchema.builder().description(description);
                if (node.has("items")) {
                    b.items(element(node.get("items"), path + ".items"));
                }
                yield b.build();
            }
            default -> throw new IllegalArgumentException("unsupported schema type '" + type + "' at " + path);
        };
    }

    private static JsonObjectSchema object(JsonNode node, String path) {
        only(node, path, "properties", "required", "additionalProperties");
        JsonObjectSchema.Builder b = JsonObjectSchema.builder();
        if (node.hasNonNull("description")) {
            b.description(node.get("description").asText());
        }
        JsonNode properties = node.path("properties");
        for (Iterator<String> it = properties.fieldNames(); it.hasNext(); ) {
            String name = it.next();
            b.addProperty(name, element(properties.get(name), path + "." + name));
        }
        if (node.has("required")) {
            List<String> required = new ArrayList<>();
            for (JsonNode r : node.get("required")) {
                required.add(r.asText());
            }
            b.required(required);
        }
        if (node.has("additionalProperties")) {
            JsonNode ap = node.get("additionalProperties");
            if (!ap.isBoolean()) {
                throw new IllegalArgumentException("additionalProperties at " + path + " must be a boolean");
            }
            b.additionalProperties(ap.asBoolean());
        }
        return b.build();
    }

    private static String withBounds(String description, JsonNode node) {
        List<String> bounds = new ArrayList<>(2);
        if (node.has("minimum")) {
            bounds.add("minimum " + node.get("minimum").asText());
        }
        if (node.has("maximum")) {
            bounds.add("maximum " + node.get("maximum").asText());
        }
        if (bounds.isEmpty()) {
            return description;
        }
        String b = "(" + String.join(", ", bounds) + ")";
        return description == null ? b : description + " " + b;
    }

    private static void only(JsonNode node, String path, String... allowed) {
        Set<String> ok = Set.of(allowed);
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!COMMON.contains(f) && !ok.contains(f)) {
                throw new IllegalArgumentException("unsupported schema keyword '" + f + "' at " + path);
            }
        }
    }
}
