package dev.reverie;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.MemoryStores;
import dev.reverie.spi.SessionSummary;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static dev.reverie.GovernanceFixtures.T0;
import static dev.reverie.GovernanceFixtures.put;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Hostile import files, on every store: each is refused with a {@link MemoryFormatException} naming
 * the record and field, and leaves the end user empty; secrets in an accepted file are redacted
 * before anything is stored.
 */
class ImportHardeningTest {

    static final Scope ALICE = Scope.of("clinic-42", "receptionist", "alice");
    static final ObjectMapper JSON = new ObjectMapper();
    static final String OPENAI_KEY = "sk-4f9Kq2LmN8pR3sT6vW1xY5zA7bC0dE2fG4hJ6kL8mN0pQ";

    @TempDir
    Path dir;
    MemoryStore store;
    ContextManager memory;
    MemoryAdmin admin;

    /** Opens the store, gives Alice a session of three turns with a summary and one memory, exports and erases her. */
    byte[] exportOfErasedAlice(String scheme) {
        store = MemoryStores.open(scheme + ":" + dir);
        memory = ContextManager.builder().store(store).clock(new MutableClock(T0)).build();
        admin = memory.admin();
        memory.recordTurn(ALICE, "s1", Turn.user("I moved to Lisbon").withId("t1"),
                Turn.assistant("Noted").withId("t2"), Turn.user("Thanks").withId("t3"));
        put(store, ALICE, GovernanceFixtures.memory(ALICE, "m1", "Lives in Lisbon", List.of("t1"), T0),
                new SessionSummary(ALICE, "s1", "Alice moved to Lisbon", 2, T0));
        admin.remember(ALICE, MemoryDraft.of(MemoryKind.FACT, "Prefers morning appointments"));
        memory.flush();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        admin.exportTo(ALICE, out);
        admin.eraseEndUser(ALICE);
        return out.toByteArray();
    }

    @AfterEach
    void tearDown() {
        if (memory != null) {
            memory.close();
            store.close();
        }
    }

    byte[] edited(byte[] file, Consumer<ObjectNode> change) throws Exception {
        ObjectNode root = (ObjectNode) JSON.readTree(file);
        change.accept(root);
        return JSON.writeValueAsBytes(root);
    }

    static ObjectNode firstMemory(ObjectNode root) {
        return (ObjectNode) root.get("memories").get(0);
    }

    static ObjectNode firstSession(ObjectNode root) {
        return (ObjectNode) root.get("sessions").get(0);
    }

    void assertRefused(byte[] file, String... messageParts) {
        var thrown = assertThatThrownBy(() -> admin.importFrom(ALICE, new ByteArrayInputStream(file)))
                .isInstanceOf(MemoryFormatException.class).hasMessageContaining("nothing was imported");
        for (String part : messageParts) {
            thrown.hasMessageContaining(part);
        }
        assertThat(admin.memories(ALICE, MemoryFilter.all())).isEmpty();
        assertThat(admin.sessions(ALICE)).isEmpty();
        assertThat(store.history(ALICE)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "lucene"})
    void times_outside_years_1_to_9999_or_not_iso_strings_are_refused_naming_the_field(String scheme) throws Exception {
        byte[] file = exportOfErasedAlice(scheme);
        assertRefused(edited(file, r -> firstMemory(r).put("createdAt", "+1000000000-01-01T00:00:00Z")),
                "memories[0].createdAt", "between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z");
        assertRefused(edited(file, r -> firstMemory(r).put("expiresAt", "-5000-01-01T00:00:00Z")),
                "memories[0].expiresAt");
        assertRefused(edited(file, r -> ((ObjectNode) firstSession(r).get("turns").get(1)).put("at", 1.0e30)),
                "sessions[0].turns[1].at", "ISO-8601 string");
        assertRefused(edited(file, r -> ((ObjectNode) r.get("history").get(0)).put("at", "+999999-12-31T00:00:00Z")),
                "history[0].at");
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "lucene"})
    void a_summary_covering_more_turns_than_its_session_has_is_refused(String scheme) throws Exception {
        byte[] file = exportOfErasedAlice(scheme);
        assertRefused(edited(file, r -> ((ObjectNode) firstSession(r).get("summary")).put("coveredUpTo", Long.MAX_VALUE)),
                "sessions[0].summary.coveredUpTo must be between 0 and the session's 3 turns",
                "was " + Long.MAX_VALUE);
        assertRefused(edited(file, r -> ((ObjectNode) firstSession(r).get("summary")).put("coveredUpTo", 4)),
                "sessions[0].summary.coveredUpTo", "was 4");
        assertRefused(edited(file, r -> ((ObjectNode) firstSession(r).get("summary")).put("coveredUpTo", -1)),
                "sessions[0].summary.coveredUpTo", "was -1");
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "lucene"})
    void a_number_or_boolean_where_text_is_expected_is_refused(String scheme) throws Exception {
        byte[] file = exportOfErasedAlice(scheme);
        assertRefused(edited(file, r -> firstMemory(r).put("text", 12345)), "memories[0].text");
        assertRefused(edited(file, r -> firstMemory(r).put("subject", true)), "memories[0].subject");
        assertRefused(edited(file, r -> ((ObjectNode) firstSession(r).get("turns").get(0)).put("text", 1.5)),
                "sessions[0].turns[0].text");
        assertRefused(edited(file, r -> firstMemory(r).put("status", 0)), "memories[0].status");
        assertRefused(edited(file, r -> firstMemory(r).put("importance", "50")), "memories[0].importance");
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "lucene"})
    void texts_longer_than_their_limit_are_refused_naming_the_field(String scheme) throws Exception {
        byte[] file = exportOfErasedAlice(scheme);
        assertRefused(edited(file, r -> firstMemory(r).put("text", "x".repeat(1_000_000))),
                "memories[0].text must be at most 10000 characters, was 1000000");
        assertRefused(edited(file, r -> ((ObjectNode) firstSession(r).get("summary")).put("text", "y".repeat(200_000))),
                "sessions[0].summary.text must be at most 100000 characters");
        assertRefused(edited(file, r -> ((ObjectNode) r.get("history").get(0)).put("after", "z".repeat(10_001))),
                "history[0].after must be at most 10000 characters");
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "lucene"})
    void secrets_in_an_imported_file_are_redacted_before_anything_is_stored(String scheme) throws Exception {
        byte[] file = exportOfErasedAlice(scheme);
        byte[] withSecrets = edited(file, r -> {
            firstMemory(r).put("text", "Her OpenAI key is " + OPENAI_KEY);
            firstMemory(r).set("embedding", JSON.createArrayNode().add(0.1).add(0.2));
            ((ObjectNode) firstSession(r).get("turns").get(0)).put("text", "use " + OPENAI_KEY + " for the bot");
            ArrayNode archive = (ArrayNode) firstSession(r).get("archive");
            ((ObjectNode) archive.get(0)).put("text", "archived " + OPENAI_KEY);
            ((ObjectNode) firstSession(r).get("summary")).put("text", "Alice shared " + OPENAI_KEY);
            ((ObjectNode) r.get("history").get(0)).put("after", "key " + OPENAI_KEY);
        });

        admin.importFrom(ALICE, new ByteArrayInputStream(withSecrets));

        String firstId = JSON.readTree(file).get("memories").get(0).get("id").asText();
        Memory m = admin.memories(ALICE, MemoryFilter.all()).stream().filter(x -> x.id().equals(firstId))
                .findFirst().orElseThrow();
        assertThat(m.text()).isEqualTo("Her OpenAI key is [REDACTED:openai_key]");
        assertThat(m.embedding()).as("the embedding of the secret text is dropped").isNull();
        assertThat(store.sessionTurns(ALICE, "s1", 0, 10).get(0).text()).isEqualTo("use [REDACTED:openai_key] for the bot");
        assertThat(store.archivedTurns(ALICE, "s1").get(0).text()).isEqualTo("archived [REDACTED:openai_key]");
        assertThat(store.sessionSummary(ALICE, "s1").orElseThrow().text()).isEqualTo("Alice shared [REDACTED:openai_key]");
        assertThat(store.history(ALICE)).extracting(MemoryEvent::after).doesNotContainNull()
                .noneMatch(a -> a.contains(OPENAI_KEY)).anyMatch(a -> a.equals("key [REDACTED:openai_key]"));
        memory.close();
        store.close();
        memory = null;
        assertThat(new String(allFiles(), StandardCharsets.ISO_8859_1)).doesNotContain(OPENAI_KEY);
    }

    /** Every byte of every file under the store folder, concatenated. */
    byte[] allFiles() throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.filter(Files::isRegularFile).toList()) {
                all.write(Files.readAllBytes(p));
            }
        }
        return all.toByteArray();
    }
}
