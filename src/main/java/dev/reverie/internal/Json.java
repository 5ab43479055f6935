package dev.reverie.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.reverie.Embedding;
import dev.reverie.MemoryStoreException;

import java.io.IOException;

/** The project's one configured Jackson mapper (thread-safe once configured). Not API. */
public final class Json {

    private static final ObjectMapper MAPPER = create();
    /**
     * One reader per type, made once: {@code MAPPER.readValue(json, type)} resolves the type and builds
     * a reader on every call, which was a tenth of the decoding cost of a search hit.
     */
    private static final ClassValue<com.fasterxml.jackson.databind.ObjectReader> READERS = new ClassValue<>() {
        @Override
        protected com.fasterxml.jackson.databind.ObjectReader computeValue(Class<?> type) {
            return MAPPER.readerFor(type);
        }
    };

    private Json() {
    }

    /** A new mapper with Reverie's settings: ISO times, Embedding as a float array, unknown fields ignored. */
    public static ObjectMapper create() {
        SimpleModule module = new SimpleModule("reverie");
        module.addSerializer(Embedding.class, new JsonSerializer<>() {
            @Override
            public void serialize(Embedding value, JsonGenerator gen, SerializerProvider serializers) throws IOException {
                float[] v = value.toArray();
                gen.writeArray(toDoubles(v), 0, v.length);
            }
        });
        module.addDeserializer(Embedding.class, new JsonDeserializer<>() {
            @Override
            public Embedding deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
                return Embedding.of(p.readValueAs(float[].class));
            }
        });
        // after JavaTimeModule, so it is asked first: the ISO form Reverie writes is parsed by hand
        module.addDeserializer(java.time.Instant.class, new JsonDeserializer<>() {
            @Override
            public java.time.Instant deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
                if (p.currentToken() == com.fasterxml.jackson.core.JsonToken.VALUE_STRING) {
                    java.time.Instant fast = IsoInstants.parse(p.getText());
                    if (fast != null) {
                        return fast;
                    }
                }
                return com.fasterxml.jackson.datatype.jsr310.deser.InstantDeserializer.INSTANT.deserialize(p, ctxt);
            }
        });
        return new ObjectMapper()
                .registerModule(new JavaTimeModule())
                .registerModule(module)
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    }

    /**
     * The JSON of the last value asked for: a store writing one record twice in a batch (a session turn
     * appended and archived) serializes it once. Equal values give equal JSON, so a value equal to the
     * last one gets the last JSON. Confined to the thread encoding or applying one batch.
     */
    public static final class Last {
        private Object value;
        private String json;

        /** {@code v}'s JSON, written again only when {@code v} is not equal to the last value asked for. */
        public String of(Object v) {
            if (!v.equals(value)) {
                json = write(v);
                value = v;
            }
            return json;
        }
    }

    /** The shared mapper. */
    public static ObjectMapper mapper() {
        return MAPPER;
    }

    public static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new MemoryStoreException("could not serialize " + value.getClass().getSimpleName(), e);
        }
    }

    public static <T> T read(String json, Class<T> type) {
        try {
            return READERS.get(type).readValue(json);
        } catch (IOException e) {
            throw new MemoryStoreException("could not read a stored " + type.getSimpleName() + ": " + e.getMessage(), e);
        }
    }

    /**
     * The instant an ISO-8601 text (as Reverie writes instants, {@link java.time.Instant#toString()})
     * denotes, exactly as a JSON record field holding that text reads back.
     */
    public static java.time.Instant instant(String text) {
        java.time.Instant fast = IsoInstants.parse(text);
        return fast != null ? fast : read(write(text), java.time.Instant.class);
    }

    private static double[] toDoubles(float[] v) {
        double[] d = new double[v.length];
        for (int i = 0; i < v.length; i++) {
            d[i] = v[i];
        }
        return d;
    }
}
