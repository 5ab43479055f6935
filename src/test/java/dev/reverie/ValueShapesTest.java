package dev.reverie;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The builders, copies and value semantics of {@link Memory}, {@link Observation} and {@link RecalledMemory}. */
class ValueShapesTest {

    private static final Scope SCOPE = Scope.of("t", "a", "u");
    private static final Instant NOW = Instant.parse("2026-03-01T10:15:30Z");

    @Test
    void memory_builder_fills_the_defaults_from_the_identity() {
        Memory m = Memory.builder().id("m-1").scope(SCOPE).kind(MemoryKind.PREFERENCE).text("likes tea")
                .createdAt(NOW).build();

        assertThat(m).isEqualTo(Memory.builder("m-1", SCOPE, MemoryKind.PREFERENCE, "likes tea", NOW).build());
        assertThat(m.subject()).isEqualTo("user.preference");
        assertThat(m.updatedAt()).isEqualTo(NOW);
        assertThat(m.lastReinforcedAt()).isEqualTo(NOW);
        assertThat(m.provenance()).isEqualTo(Provenance.operator(NOW));
        assertThat(m.importance()).isEqualTo(50);
        assertThat(m.confidence()).isEqualTo(1.0);
        assertThat(m.reinforcementCount()).isEqualTo(1);
        assertThat(m.status()).isEqualTo(MemoryStatus.ACTIVE);
        assertThat(m.value()).isEmpty();
    }

    @Test
    void memory_builder_names_the_missing_field() {
        assertThatThrownBy(() -> Memory.builder().id("m-1").scope(SCOPE).kind(MemoryKind.FACT).text("x").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("createdAt");
    }

    @Test
    void memory_to_builder_round_trips_and_equality_is_by_value() {
        Memory full = ValueJsonTest.fullMemory();

        Memory copy = full.toBuilder().build();

        assertThat(copy).isEqualTo(full).hasSameHashCodeAs(full).isNotSameAs(full);
        assertThat(copy.toString()).isEqualTo(full.toString());
        assertThat(full.toBuilder().importance(10).build()).isNotEqualTo(full);
        assertThat(full.toBuilder().embedding(null).build().embedding()).isNull();
    }

    @Test
    void memory_to_string_keeps_the_record_form() {
        Memory m = Memory.builder("m-1", SCOPE, MemoryKind.FACT, "x", NOW).build();

        assertThat(m.toString()).startsWith("Memory[id=m-1, scope=t/a/u, kind=FACT, text=x, subject=user.fact, value=, cardinality=MULTI,")
                .endsWith(", confidence=1.0, embedding=null]");
    }

    @Test
    void observation_builder_and_with_methods_agree_with_the_constructor() {
        Provenance p = Provenance.ofTurn(Role.USER, "s", "t1", NOW);
        Observation viaConstructor = new Observation("o-1", SCOPE, MemoryKind.FACT, "lives in Lisbon", "user.location",
                "lisbon", Cardinality.SINGLE, Polarity.POSITIVE, 1.0, NOW, "s", p, List.of("t1"), 1,
                ObservationStatus.PENDING, null, null);

        Observation built = Observation.builder().id("o-1").scope(SCOPE).kind(MemoryKind.FACT).text("lives in Lisbon")
                .subject("user.location").value("lisbon").cardinality(Cardinality.SINGLE).observedAt(NOW)
                .sessionId("s").provenance(p).sourceTurnIds(List.of("t1")).build();

        assertThat(built).isEqualTo(viaConstructor).hasSameHashCodeAs(viaConstructor);
        assertThat(built.toString()).isEqualTo(viaConstructor.toString()).startsWith("Observation[id=o-1, ");
        Observation judged = built.withStatus(ObservationStatus.CONSOLIDATED, NOW.plusSeconds(5));
        assertThat(judged.status()).isEqualTo(ObservationStatus.CONSOLIDATED);
        assertThat(judged.consolidatedAt()).isEqualTo(NOW.plusSeconds(5));
        assertThat(judged.toBuilder().status(ObservationStatus.PENDING).consolidatedAt(null).build()).isEqualTo(built);
        assertThat(built.withReinforcement(3, List.of("t1", "t2")).reinforcementCount()).isEqualTo(3);
        assertThat(Observation.builder().id("o-2").scope(SCOPE).kind(MemoryKind.SKILL).text("plays cello")
                .observedAt(NOW).provenance(p).build().subject()).isEqualTo("user.skill");
    }

    @Test
    void observation_builder_rejects_a_synthesis() {
        assertThatThrownBy(() -> Observation.builder().id("o-1").scope(SCOPE).kind(MemoryKind.SYNTHESIS).text("x")
                .observedAt(NOW).provenance(Provenance.operator(NOW)).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("SYNTHESIS");
    }

    @Test
    void recalled_memory_origin_names_what_the_item_is_and_the_boolean_follows() {
        RecalledMemory turn = RecalledMemory.builder(RecalledMemory.Origin.TURN, "D1:3", MemoryKind.EVENT, "hi")
                .score(0.5).sourceTurnIds(List.of("D1:3")).build();
        RecalledMemory observation = RecalledMemory.builder(RecalledMemory.Origin.OBSERVATION, "o-1",
                MemoryKind.FACT, "x").build();

        assertThat(turn.origin()).isEqualTo(RecalledMemory.Origin.TURN);
        assertThat(turn.episode()).isTrue();
        assertThat(turn.observation()).isFalse();
        assertThat(turn.trustFactor()).isEqualTo(1);
        assertThat(observation.observation()).isTrue();
        assertThat(new RecalledMemory("o-1", MemoryKind.FACT, "x", 0, 0, 0, 0, 1, false, true, List.of()))
                .isEqualTo(observation);
        assertThat(turn.toBuilder().build()).isEqualTo(turn).hasSameHashCodeAs(turn);
        assertThatThrownBy(() -> new RecalledMemory("m", MemoryKind.FACT, "x", 0, 0, 0, 0, 1, false, true, List.of(),
                RecalledMemory.Origin.MEMORY)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("origin");
    }

    @Test
    void the_values_are_final_classes_not_records() {
        for (Class<?> c : List.of(Memory.class, Observation.class, RecalledMemory.class)) {
            assertThat(c.isRecord()).as(c.getSimpleName()).isFalse();
            assertThat(java.lang.reflect.Modifier.isFinal(c.getModifiers())).as(c.getSimpleName()).isTrue();
        }
    }

    @Test
    void the_record_accessors_and_constructors_keep_their_signatures() throws Exception {
        // what callers compiled against the records link to: accessor names and return types, canonical constructor
        Object[][] memory = {{"id", String.class}, {"scope", Scope.class}, {"kind", MemoryKind.class},
                {"text", String.class}, {"subject", String.class}, {"value", String.class},
                {"cardinality", Cardinality.class}, {"polarity", Polarity.class}, {"importance", double.class},
                {"permanent", boolean.class}, {"createdAt", Instant.class}, {"updatedAt", Instant.class},
                {"lastReinforcedAt", Instant.class}, {"reinforcementCount", int.class}, {"retrievalCount", int.class},
                {"lastRetrievedAt", Instant.class}, {"expiresAt", Instant.class}, {"status", MemoryStatus.class},
                {"supersededBy", String.class}, {"sourceObservationIds", List.class}, {"sourceTurnIds", List.class},
                {"provenance", Provenance.class}, {"confidence", double.class}, {"embedding", Embedding.class}};
        Object[][] observation = {{"id", String.class}, {"scope", Scope.class}, {"kind", MemoryKind.class},
                {"text", String.class}, {"subject", String.class}, {"value", String.class},
                {"cardinality", Cardinality.class}, {"polarity", Polarity.class}, {"confidence", double.class},
                {"observedAt", Instant.class}, {"sessionId", String.class}, {"provenance", Provenance.class},
                {"sourceTurnIds", List.class}, {"reinforcementCount", int.class},
                {"status", ObservationStatus.class}, {"consolidatedAt", Instant.class}, {"embedding", Embedding.class}};
        Object[][] recalled = {{"memoryId", String.class}, {"kind", MemoryKind.class}, {"text", String.class},
                {"score", double.class}, {"relevance", double.class}, {"importance", double.class},
                {"recency", double.class}, {"trustFactor", double.class}, {"pinned", boolean.class},
                {"observation", boolean.class}, {"sourceTurnIds", List.class}};

        assertSignatures(Memory.class, memory);
        assertSignatures(Observation.class, observation);
        assertSignatures(RecalledMemory.class, recalled);
        assertThat(RecalledMemory.class.getMethod("origin").getReturnType()).isEqualTo(RecalledMemory.Origin.class);
        for (String with : List.of("withStatus", "withReinforcement", "withProvenance", "withEmbedding")) {
            assertThat(java.util.Arrays.stream(Observation.class.getMethods()).map(java.lang.reflect.Method::getName))
                    .contains(with);
        }
    }

    @Test
    void every_field_is_in_the_json_order_the_json_the_to_string_and_the_builder() throws Exception {
        // a field added later must be wired everywhere a record would have wired it by itself
        Object[] values = {ValueJsonTest.fullMemory(), ValueJsonTest.fullObservation(),
                RecalledMemory.builder(RecalledMemory.Origin.MEMORY, "m-1", MemoryKind.FACT, "x").build()};
        for (Object value : values) {
            Class<?> type = value.getClass();
            List<String> order = List.of(type.getAnnotation(com.fasterxml.jackson.annotation.JsonPropertyOrder.class)
                    .value());
            String json = dev.reverie.internal.Json.write(value);
            Class<?> builder = Class.forName(type.getName() + "$Builder");
            List<String> fields = new java.util.ArrayList<>();
            for (java.lang.reflect.Field f : type.getDeclaredFields()) {
                if (java.lang.reflect.Modifier.isStatic(f.getModifiers())) {
                    continue;
                }
                String name = f.getName();
                fields.add(name);
                assertThat(value.toString()).as("%s.toString()", type.getSimpleName()).contains(name + "=");
                assertThat(json).as("%s JSON", type.getSimpleName()).contains("\"" + name + "\":");
                assertThat(type.getMethod(name).getReturnType()).isEqualTo(f.getType());
                if (!(value instanceof RecalledMemory && name.equals("observation")) && !name.equals("origin")) {
                    assertThat(builder.getMethod(name, f.getType()).getReturnType()).isEqualTo(builder);
                }
            }
            assertThat(order).as("%s @JsonPropertyOrder", type.getSimpleName()).isEqualTo(fields);
        }
    }

    private static void assertSignatures(Class<?> type, Object[][] components) throws Exception {
        Class<?>[] parameters = new Class<?>[components.length];
        for (int i = 0; i < components.length; i++) {
            String name = (String) components[i][0];
            parameters[i] = (Class<?>) components[i][1];
            assertThat(type.getMethod(name).getReturnType()).as("%s.%s()", type.getSimpleName(), name)
                    .isEqualTo(parameters[i]);
        }
        assertThat(java.lang.reflect.Modifier.isPublic(type.getConstructor(parameters).getModifiers())).isTrue();
    }
}
