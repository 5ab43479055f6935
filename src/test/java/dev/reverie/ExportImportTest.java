package dev.reverie;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.MemoryStores;
import dev.reverie.spi.SessionSummary;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import dev.reverie.spi.SessionTurn;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import static dev.reverie.GovernanceFixtures.T0;
import static dev.reverie.GovernanceFixtures.memoryIds;
import static dev.reverie.GovernanceFixtures.put;
import static dev.reverie.GovernanceFixtures.snapshot;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ExportImportTest {

    static final Scope ALICE = Scope.of("clinic-42", "receptionist", "alice");
    static final Scope BOB = Scope.of("clinic-42", "receptionist", "bob");
    static final Scope CAROL = Scope.of("clinic-42", "receptionist", "carol");
    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;
    MemoryStore store;
    MutableClock clock;
    ContextManager memory;
    MemoryAdmin admin;
    String deletedId;

    @BeforeEach
    void setUp() {
        clock = new MutableClock(T0);
        open();
        populate();
    }

    void open() {
        store = MemoryStores.open("sqlite:" + dir);
        memory = ContextManager.builder().store(store).clock(clock).build();
        admin = memory.admin();
    }

    @AfterEach
    void tearDown() {
        memory.close();
        store.close();
    }

    /** Alice gets one of every kind of record, with every optional field set somewhere; Bob a little. */
    void populate() {
        Provenance toolFailed = new Provenance(Source.TOOL, "s1", "D1:3", T0, Outcome.FAILED, Trust.THIRD_PARTY);
        Observation pending = new Observation("o1", ALICE, MemoryKind.PREFERENCE, "Prefers tea over coffee",
                "user.drink", "tea", Cardinality.SINGLE, Polarity.POSITIVE, 0.85, T0, "s1",
                new Provenance(Source.USER, "s1", "D1:1", T0, Outcome.SUCCEEDED, Trust.FIRST_PARTY),
                List.of("D1:1"), 1, ObservationStatus.PENDING, null, Embedding.of(new float[] {0.1f, 0.2f, 0.3f}));
        Observation consolidated = new Observation("o2", ALICE, MemoryKind.EVENT, "Clinic moved to Rua Nova",
                "clinic.address", "rua nova", Cardinality.MULTI, Polarity.NEGATIVE, 0.5, T0.plusSeconds(5), "s1",
                toolFailed, List.of("D1:3", "D2:1"), 3, ObservationStatus.CONSOLIDATED, T0.plusSeconds(60), null);
        Memory active = Memory.builder("m1", ALICE, MemoryKind.FACT, "Allergic to dipyrone", T0)
                .subject("user.allergy").value("dipyrone").cardinality(Cardinality.MULTI).importance(97.5)
                .permanent(true).updatedAt(T0.plusSeconds(30)).lastReinforcedAt(T0.plusSeconds(20))
                .reinforcementCount(4).retrievalCount(7).lastRetrievedAt(T0.plusSeconds(40))
                .expiresAt(T0.plus(Duration.ofDays(400))).sourceObservationIds(List.of("o0", "o1"))
                .sourceTurnIds(List.of("D1:1", "D1:2"))
                .provenance(new Provenance(Source.USER, "s1", "D1:1", T0, Outcome.SUCCEEDED, Trust.FIRST_PARTY))
                .confidence(0.75).embedding(Embedding.of(new float[] {0.5f, -0.25f, 1e-7f})).build();
        Memory superseded = Memory.builder("m2", ALICE, MemoryKind.FACT, "Lives in Porto", T0)
                .subject("user.city").value("porto").cardinality(Cardinality.SINGLE).polarity(Polarity.POSITIVE)
                .status(MemoryStatus.SUPERSEDED).supersededBy("m1").provenance(Provenance.dream(T0)).build();
        Memory deprecated = Memory.builder("m3", ALICE, MemoryKind.SYNTHESIS, "Tea and allergies relate", T0)
                .status(MemoryStatus.DEPRECATED).provenance(toolFailed).confidence(0.1).build();
        put(store, ALICE, pending, consolidated, active, superseded, deprecated,
                new StyleProfile(ALICE, "short", "informal", "pt", true, "direct", "Short and informal, in Portuguese",
                        6, T0.plusSeconds(90)),
                new MemoryEvent("e-1", ALICE, "m2", MemoryEventType.SUPERSEDED, T0.plusSeconds(2), "Lives in Porto",
                        "Allergic to dipyrone", "contradicted by m1"));
        Memory added = admin.remember(ALICE, MemoryDraft.of(MemoryKind.SKILL, "Speaks Italian")
                .withTtl(Duration.ofDays(3))).get(0);
        clock.advance(Duration.ofMinutes(1));
        admin.edit(ALICE, added.id(), "Speaks Italian and French");
        deletedId = admin.remember(ALICE, MemoryDraft.of(MemoryKind.FACT, "Wrong fact to delete")).get(0).id();
        admin.deleteMemory(ALICE, deletedId);

        memory.recordTurn(ALICE, "s1",
                Turn.user("Hi, I'm Alice. I'm allergic to dipyrone.").withId("D1:1").withSpeaker("Alice")
                        .at(T0.minusSeconds(30)),
                Turn.assistant("Noted, Alice.").withId("D1:2"),
                Turn.tool("calendar", "Friday 10:00 free").withId("D1:3"));
        memory.recordTurn(ALICE, "s2", Turn.user("Second session here").withId("D2:1"));
        put(store, ALICE, new SessionSummary(ALICE, "s1", "Alice is allergic to dipyrone.", 2, T0.plusSeconds(99)));
        put(store, BOB, Memory.builder("m1", BOB, MemoryKind.FACT, "Bob likes chess", T0).build());
        memory.recordTurn(BOB, "s1", Turn.user("Bob here"));
        memory.flush();
    }

    byte[] export(Scope scope) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        admin.exportTo(scope, out);
        return out.toByteArray();
    }

    void importBytes(Scope scope, byte[] bytes) {
        admin.importFrom(scope, new ByteArrayInputStream(bytes));
    }

    GovernanceFixtures.Snapshot alice() {
        return snapshot(store, ALICE, memoryIds(store, ALICE, deletedId));
    }

    @Test
    void export_erase_import_restores_an_identical_user_plus_one_imported_event_per_memory() throws Exception {
        GovernanceFixtures.Snapshot before = alice();
        GovernanceFixtures.Snapshot bob = snapshot(store, BOB, List.of("m1"));
        // the fixture's two hand-written observations, besides what extraction found in its turns
        assertThat(before.observations()).extracting(Observation::id).contains("o1", "o2");
        assertThat(before.memories()).hasSize(4);
        assertThat(before.turns()).containsOnlyKeys("s1", "s2");
        assertThat(before.archive().get("s1")).hasSize(3);
        assertThat(before.summaries().get("s1")).isPresent();
        assertThat(before.style()).isPresent();

        clock.advance(Duration.ofHours(1));
        byte[] file = export(ALICE);
        JsonNode root = JSON.readTree(file);
        assertThat(root.get("format").asText()).isEqualTo("reverie-export");
        assertThat(root.get("formatVersion").asInt()).isEqualTo(1);
        assertThat(root.get("scope").get("endUserId").asText()).isEqualTo("alice");
        assertThat(root.get("exportedAt").asText()).isEqualTo("2026-03-01T10:01:00Z");
        assertThat(root.get("history")).hasSize(5);
        assertThat(new String(file, StandardCharsets.UTF_8)).doesNotContain("Bob likes chess");

        admin.eraseEndUser(ALICE);
        assertThat(alice().isEmpty()).isTrue();

        clock.advance(Duration.ofHours(1));
        importBytes(ALICE, file);

        assertRestored(before, alice(), T0.plus(Duration.ofMinutes(121)));
        assertThat(snapshot(store, BOB, List.of("m1"))).isEqualTo(bob);

        // durable: the same after reopening the store
        GovernanceFixtures.Snapshot imported = alice();
        memory.close();
        store.close();
        open();
        assertThat(alice()).isEqualTo(imported);
    }

    private void assertRestored(GovernanceFixtures.Snapshot before, GovernanceFixtures.Snapshot after, Instant importedAt) {
        assertThat(after.observations()).isEqualTo(before.observations());
        assertThat(after.memories()).isEqualTo(before.memories());
        assertThat(after.turns()).isEqualTo(before.turns());
        assertThat(after.summaries()).isEqualTo(before.summaries());
        assertThat(after.archive()).isEqualTo(before.archive());
        assertThat(after.style()).isEqualTo(before.style());
        assertThat(after.history().keySet()).isEqualTo(before.history().keySet());
        for (String id : before.history().keySet()) {
            List<MemoryEvent> was = before.history().get(id);
            List<MemoryEvent> now = after.history().get(id);
            if (id.equals(deletedId)) {
                assertThat(now).as("history of the deleted memory").isEqualTo(was);
                continue;
            }
            assertThat(now).as("history of " + id).hasSize(was.size() + 1);
            assertThat(now.subList(0, was.size())).isEqualTo(was);
            MemoryEvent imported = now.get(was.size());
            assertThat(imported.type()).isEqualTo(MemoryEventType.IMPORTED);
            assertThat(imported.at()).isEqualTo(importedAt);
            assertThat(imported.memoryId()).isEqualTo(id);
            assertThat(imported.cause()).isEqualTo("import of an export made at 2026-03-01T10:01:00Z");
        }
    }

    // ------------------------------------------------------------------ refusals leave the store unchanged

    /** Exports Alice, erases her, and returns the file: the store is then in the state every refusal must keep. */
    byte[] exportAndErase() {
        byte[] file = export(ALICE);
        admin.eraseEndUser(ALICE);
        return file;
    }

    void assertRefused(byte[] file, Class<? extends RuntimeException> type, String... messageParts) {
        GovernanceFixtures.Snapshot alice = alice();
        GovernanceFixtures.Snapshot bob = snapshot(store, BOB, List.of("m1"));
        var thrown = assertThatThrownBy(() -> importBytes(ALICE, file)).isInstanceOf(type);
        for (String part : messageParts) {
            thrown.hasMessageContaining(part);
        }
        assertThat(alice()).isEqualTo(alice);
        assertThat(snapshot(store, BOB, List.of("m1"))).isEqualTo(bob);
    }

    byte[] edited(byte[] file, Consumer<ObjectNode> change) throws Exception {
        ObjectNode root = (ObjectNode) JSON.readTree(file);
        change.accept(root);
        return JSON.writeValueAsBytes(root);
    }

    @Test
    void an_imported_speaker_name_is_redacted_as_recordTurn_redacts_it() {
        String token = "ghp_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R";
        byte[] file = new String(export(ALICE), java.nio.charset.StandardCharsets.UTF_8)
                .replace("\"Alice\"", "\"Alice " + token + "\"").getBytes(java.nio.charset.StandardCharsets.UTF_8);
        admin.eraseEndUser(ALICE);
        importBytes(ALICE, file);
        List<SessionTurn> turns = new java.util.ArrayList<>(store.sessionTurns(ALICE, "s1", 0, 100));
        turns.addAll(store.archivedTurns(ALICE, "s1"));
        assertThat(turns).extracting(SessionTurn::speaker).filteredOn(sp -> sp != null && sp.startsWith("Alice"))
                .hasSize(2).allSatisfy(sp -> assertThat(sp).isEqualTo("Alice [REDACTED:github_token]"));
    }

    @Test
    void a_truncated_file_is_refused_with_a_clear_message_and_nothing_is_written() {
        byte[] file = exportAndErase();
        byte[] truncated = java.util.Arrays.copyOf(file, file.length * 2 / 3);
        assertRefused(truncated, MemoryFormatException.class, "not valid JSON", "nothing was imported");
    }

    @Test
    void a_newer_format_version_is_refused_with_a_clear_message_and_nothing_is_written() throws Exception {
        byte[] file = exportAndErase();
        assertRefused(edited(file, r -> r.put("formatVersion", 2)), MemoryFormatException.class,
                "has format version 2, newer than version 1", "upgrade Reverie");
    }

    @Test
    void a_bad_record_at_the_very_end_is_found_before_anything_is_written() throws Exception {
        byte[] file = exportAndErase();
        byte[] badTurn = edited(file, r -> {
            ArrayNode sessions = (ArrayNode) r.get("sessions");
            ArrayNode archive = (ArrayNode) sessions.get(sessions.size() - 1).get("archive");
            ((ObjectNode) archive.get(archive.size() - 1)).putNull("text");
        });
        assertRefused(badTurn, MemoryFormatException.class, "sessions[1].archive[0]", "text must not be null");

        byte[] otherScope = edited(file, r -> {
            ArrayNode sessions = (ArrayNode) r.get("sessions");
            ArrayNode turns = (ArrayNode) sessions.get(sessions.size() - 1).get("turns");
            ((ObjectNode) turns.get(0).get("scope")).put("endUserId", "mallory");
        });
        assertRefused(otherScope, MemoryFormatException.class, "sessions[1].turns[0].scope",
                "clinic-42/receptionist/mallory");
    }

    @Test
    void invalid_values_duplicates_and_gaps_are_refused_naming_where() throws Exception {
        byte[] file = exportAndErase();
        assertRefused(edited(file, r -> ((ObjectNode) r.get("memories").get(0)).put("importance", 160)),
                MemoryFormatException.class, "memories[0]", "importance must be between 0.0 and 100.0, was 160.0");
        assertRefused(edited(file, r -> ((ObjectNode) r.get("memories").get(0)).putNull("importance")),
                MemoryFormatException.class, "memories[0].importance");
        assertRefused(edited(file, r -> ((ObjectNode) r.get("memories").get(0)).put("status", "HAPPY")),
                MemoryFormatException.class, "memories[0].status", "HAPPY");
        String firstId = JSON.readTree(file).get("memories").get(0).get("id").asText();
        assertRefused(edited(file, r -> ((ArrayNode) r.get("memories")).add(r.get("memories").get(0))),
                MemoryFormatException.class, "memories[4].id '" + firstId + "' appears twice");
        assertRefused(edited(file, r -> ((ObjectNode) r.get("sessions").get(0).get("turns").get(1)).put("seq", 5)),
                MemoryFormatException.class, "sessions[0].turns[1].seq must be 1", "was 5");
        assertRefused(edited(file, r -> r.remove("memories")), MemoryFormatException.class,
                "memories must not be null");
        assertRefused(edited(file, r -> r.put("format", "something-else")), MemoryFormatException.class,
                "format field must be 'reverie-export', was 'something-else'");
        assertRefused("[1, 2, 3]".getBytes(StandardCharsets.UTF_8), MemoryFormatException.class,
                "must be a JSON object");
        assertRefused(new byte[0], MemoryFormatException.class, "must be a JSON object", "empty");
        assertRefused((new String(file, StandardCharsets.UTF_8) + " {}").getBytes(StandardCharsets.UTF_8),
                MemoryFormatException.class, "content after its JSON object");
    }

    @Test
    void an_export_of_another_user_is_refused() {
        byte[] file = export(ALICE);
        GovernanceFixtures.Snapshot carol = snapshot(store, CAROL, List.of());
        assertThatThrownBy(() -> importBytes(CAROL, file)).isInstanceOf(MemoryFormatException.class)
                .hasMessage("the export belongs to scope clinic-42/receptionist/alice but was imported into scope"
                        + " clinic-42/receptionist/carol; nothing was imported");
        assertThat(snapshot(store, CAROL, List.of())).isEqualTo(carol);
        assertThat(store.endUsers("clinic-42", "receptionist")).extracting(Scope::endUserId)
                .containsExactly("alice", "bob");
    }

    @Test
    void import_never_merges_into_a_user_that_has_data() {
        byte[] file = export(ALICE);
        GovernanceFixtures.Snapshot before = alice();
        assertThatThrownBy(() -> importBytes(ALICE, file)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("already has data (4 memories, observations, 2 sessions, a style profile,"
                        + " memory history)")
                .hasMessageContaining("eraseEndUser");
        assertThat(alice()).isEqualTo(before);

        // history alone (of a deleted memory) also counts as data
        Memory m = admin.remember(CAROL, MemoryDraft.of(MemoryKind.FACT, "Carol's fact")).get(0);
        admin.deleteMemory(CAROL, m.id());
        ByteArrayOutputStream carolFile = new ByteArrayOutputStream();
        admin.exportTo(CAROL, carolFile);
        assertThatThrownBy(() -> importBytes(CAROL, carolFile.toByteArray()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("(memory history)");
    }

    @Test
    void export_keeps_the_history_of_deleted_memories_and_leaves_the_stream_open() throws Exception {
        List<String> closed = new ArrayList<>();
        ByteArrayOutputStream out = new ByteArrayOutputStream() {
            @Override
            public void close() {
                closed.add("closed");
            }
        };
        admin.exportTo(ALICE, out);
        assertThat(closed).isEmpty();
        JsonNode history = JSON.readTree(out.toByteArray()).get("history");
        List<String> deletedEvents = new ArrayList<>();
        for (JsonNode e : history) {
            if (e.get("memoryId").asText().equals(deletedId)) {
                deletedEvents.add(e.get("type").asText());
            }
        }
        assertThat(deletedEvents).containsExactly("CREATED", "DELETED");
    }
}
