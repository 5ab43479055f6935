package dev.reverie;

import dev.reverie.internal.Json;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Pins the JSON of the API values that stores, export files and the Lucene translog keep:
 * {@link Memory} and {@link Observation} must write the same bytes and read old documents back
 * whatever shape the Java classes take (they were records in 0.1.0).
 */
class ValueJsonTest {

    private static final Scope SCOPE = Scope.of("clinic-42", "receptionist", "patient-123");
    private static final Instant T0 = Instant.parse("2026-03-01T10:15:30Z");
    private static final Instant T1 = Instant.parse("2026-03-02T11:00:00.123Z");
    private static final Instant T2 = Instant.parse("2026-03-03T12:30:45.5Z");
    private static final Provenance PROVENANCE =
            new Provenance(Source.USER, "session-7", "D1:3", T0, Outcome.SUCCEEDED, Trust.FIRST_PARTY);

    static Memory fullMemory() {
        return new Memory("m-1", SCOPE, MemoryKind.FACT, "Allergic to dipyrone", "user.allergy", "dipyrone",
                Cardinality.MULTI, Polarity.NEGATIVE, 87.5, true, T0, T1, T2, 3, 4, T1, T2,
                MemoryStatus.SUPERSEDED, "m-2", List.of("o-1", "o-2"), List.of("D1:3", "D2:1"), PROVENANCE, 0.75,
                Embedding.of(new float[] {0.25f, -1.5f, 3f}));
    }

    static Observation fullObservation() {
        return new Observation("o-1", SCOPE, MemoryKind.PREFERENCE, "Prefers mornings", "user.preference.time",
                "mornings", Cardinality.SINGLE, Polarity.POSITIVE, 0.9, T0, "session-7", PROVENANCE,
                List.of("D1:3"), 2, ObservationStatus.CONSOLIDATED, T1, Embedding.of(new float[] {1f, 0.5f}));
    }

    static final String MEMORY_JSON =
            "{\"id\":\"m-1\",\"scope\":{\"tenantId\":\"clinic-42\",\"agentId\":\"receptionist\","
            + "\"endUserId\":\"patient-123\"},\"kind\":\"FACT\",\"text\":\"Allergic to dipyrone\","
            + "\"subject\":\"user.allergy\",\"value\":\"dipyrone\",\"cardinality\":\"MULTI\","
            + "\"polarity\":\"NEGATIVE\",\"importance\":87.5,\"permanent\":true,"
            + "\"createdAt\":\"2026-03-01T10:15:30Z\",\"updatedAt\":\"2026-03-02T11:00:00.123Z\","
            + "\"lastReinforcedAt\":\"2026-03-03T12:30:45.500Z\",\"reinforcementCount\":3,"
            + "\"retrievalCount\":4,\"lastRetrievedAt\":\"2026-03-02T11:00:00.123Z\","
            + "\"expiresAt\":\"2026-03-03T12:30:45.500Z\",\"status\":\"SUPERSEDED\","
            + "\"supersededBy\":\"m-2\",\"sourceObservationIds\":[\"o-1\",\"o-2\"],"
            + "\"sourceTurnIds\":[\"D1:3\",\"D2:1\"],\"provenance\":{\"source\":\"USER\","
            + "\"sessionId\":\"session-7\",\"turnId\":\"D1:3\",\"observedAt\":\"2026-03-01T10:15:30Z\","
            + "\"outcome\":\"SUCCEEDED\",\"trust\":\"FIRST_PARTY\"},\"confidence\":0.75,"
            + "\"embedding\":[0.25,-1.5,3.0]}";

    static final String OBSERVATION_JSON =
            "{\"id\":\"o-1\",\"scope\":{\"tenantId\":\"clinic-42\",\"agentId\":\"receptionist\","
            + "\"endUserId\":\"patient-123\"},\"kind\":\"PREFERENCE\",\"text\":\"Prefers mornings\","
            + "\"subject\":\"user.preference.time\",\"value\":\"mornings\",\"cardinality\":\"SINGLE\","
            + "\"polarity\":\"POSITIVE\",\"confidence\":0.9,\"observedAt\":\"2026-03-01T10:15:30Z\","
            + "\"sessionId\":\"session-7\",\"provenance\":{\"source\":\"USER\","
            + "\"sessionId\":\"session-7\",\"turnId\":\"D1:3\",\"observedAt\":\"2026-03-01T10:15:30Z\","
            + "\"outcome\":\"SUCCEEDED\",\"trust\":\"FIRST_PARTY\"},\"sourceTurnIds\":[\"D1:3\"],"
            + "\"reinforcementCount\":2,\"status\":\"CONSOLIDATED\","
            + "\"consolidatedAt\":\"2026-03-02T11:00:00.123Z\",\"embedding\":[1.0,0.5]}";

    static final String RECALLED_JSON =
            "{\"memoryId\":\"m-1\",\"kind\":\"FACT\",\"text\":\"text\",\"score\":0.5,"
            + "\"relevance\":0.25,\"importance\":80.0,\"recency\":0.125,\"trustFactor\":1.0,"
            + "\"pinned\":true,\"observation\":false,\"sourceTurnIds\":[\"D1:3\"],"
            + "\"origin\":\"MEMORY\"}";

    @Test
    void memory_writes_the_pinned_json() {
        assertThat(Json.write(fullMemory())).isEqualTo(MEMORY_JSON);
    }

    @Test
    void memory_reads_the_pinned_json_back() {
        assertThat(Json.read(MEMORY_JSON, Memory.class)).isEqualTo(fullMemory());
        assertThat(Json.write(Json.read(MEMORY_JSON, Memory.class))).isEqualTo(MEMORY_JSON);
    }

    @Test
    void observation_writes_the_pinned_json() {
        assertThat(Json.write(fullObservation())).isEqualTo(OBSERVATION_JSON);
    }

    @Test
    void observation_reads_the_pinned_json_back() {
        assertThat(Json.read(OBSERVATION_JSON, Observation.class)).isEqualTo(fullObservation());
        assertThat(Json.write(Json.read(OBSERVATION_JSON, Observation.class))).isEqualTo(OBSERVATION_JSON);
    }

    @Test
    void memory_without_later_fields_reads_as_before() {
        // a document written before sourceTurnIds and embedding existed, with a field nobody knows
        String old = "{\"id\":\"m-9\",\"scope\":{\"tenantId\":\"t\",\"agentId\":\"a\",\"endUserId\":\"u\"},"
                + "\"kind\":\"FACT\",\"text\":\"Likes tea\",\"subject\":\"user.fact\",\"cardinality\":\"MULTI\","
                + "\"polarity\":\"POSITIVE\",\"importance\":60.0,\"permanent\":false,"
                + "\"createdAt\":\"2026-03-01T10:15:30Z\",\"updatedAt\":\"2026-03-01T10:15:30Z\","
                + "\"lastReinforcedAt\":\"2026-03-01T10:15:30Z\",\"reinforcementCount\":1,\"retrievalCount\":0,"
                + "\"status\":\"ACTIVE\",\"provenance\":{\"source\":\"USER\",\"observedAt\":\"2026-03-01T10:15:30Z\","
                + "\"outcome\":\"UNKNOWN\",\"trust\":\"FIRST_PARTY\"},\"confidence\":0.5,\"retired\":true}";

        Memory m = Json.read(old, Memory.class);

        assertThat(m.value()).isEmpty();
        assertThat(m.sourceObservationIds()).isEmpty();
        assertThat(m.sourceTurnIds()).isEmpty();
        assertThat(m.embedding()).isNull();
        assertThat(m.lastRetrievedAt()).isNull();
        assertThat(m.confidence()).isEqualTo(0.5);
        assertThat(m.scope()).isEqualTo(Scope.of("t", "a", "u"));
    }

    @Test
    void observation_without_later_fields_reads_as_before() {
        String old = "{\"id\":\"o-9\",\"scope\":{\"tenantId\":\"t\",\"agentId\":\"a\",\"endUserId\":\"u\"},"
                + "\"kind\":\"FACT\",\"text\":\"Likes tea\",\"subject\":\"user.fact\",\"value\":null,"
                + "\"cardinality\":\"MULTI\",\"polarity\":\"POSITIVE\",\"confidence\":0.5,"
                + "\"observedAt\":\"2026-03-01T10:15:30Z\",\"sessionId\":\"s\",\"provenance\":{\"source\":\"USER\","
                + "\"observedAt\":\"2026-03-01T10:15:30Z\",\"outcome\":\"UNKNOWN\",\"trust\":\"FIRST_PARTY\"},"
                + "\"reinforcementCount\":1,\"status\":\"PENDING\"}";

        Observation o = Json.read(old, Observation.class);

        assertThat(o.value()).isEmpty();
        assertThat(o.sourceTurnIds()).isEmpty();
        assertThat(o.embedding()).isNull();
        assertThat(o.consolidatedAt()).isNull();
        assertThat(o.status()).isEqualTo(ObservationStatus.PENDING);
    }

    @Test
    void recalled_memory_writes_the_pinned_json() {
        RecalledMemory r = new RecalledMemory("m-1", MemoryKind.FACT, "text", 0.5, 0.25, 80, 0.125, 1, true, false,
                List.of("D1:3"), RecalledMemory.Origin.MEMORY);

        assertThat(Json.write(r)).isEqualTo(RECALLED_JSON);
        assertThat(Json.read(RECALLED_JSON, RecalledMemory.class)).isEqualTo(r);
    }
}
