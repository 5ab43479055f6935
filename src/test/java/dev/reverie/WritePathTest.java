package dev.reverie;

import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.MemoryStores;
import dev.reverie.spi.SessionTurn;
import dev.reverie.spi.WriteBatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WritePathTest {

    static final Instant T0 = Instant.parse("2026-05-04T12:00:00Z");
    static final Scope ALICE = Scope.of("clinic-42", "receptionist", "alice");

    @TempDir
    Path dir;

    @Test
    void secrets_never_reach_the_store_files() throws Exception {
        List<String> secrets = List.of(
                "sk-proj-Abc123def456ghi789jkl012mno345pqr678",
                "AKIAIOSFODNN7EXAMPLE",
                "ghp_1234567890abcdefghijklmnopqrstuvwxyzAB",
                "postgres://admin:S3cretPass!@db.internal:5432/clinic",
                "4111 1111 1111 1111",
                "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U");
        try (MemoryStore store = MemoryStores.open("sqlite:" + dir);
             ContextManager memory = ContextManager.builder().store(store).clock(new MutableClock(T0)).build()) {
            TurnReceipt r = memory.recordTurn(ALICE, "s1",
                    Turn.user("My OpenAI key is " + secrets.get(0) + " and AWS " + secrets.get(1)
                            + ". I live in Recife."),
                    Turn.assistant("Please don't share keys like " + secrets.get(2) + " here."),
                    Turn.user("The db is " + secrets.get(3) + ", card " + secrets.get(4) + ", token "
                            + secrets.get(5) + ". senha: hunter2xyz"));
            assertThat(r.redactions()).isGreaterThanOrEqualTo(secrets.size() + 1);
            assertThat(r.observations()).isPositive();
            memory.flush();
            List<SessionTurn> turns = store.sessionTurns(ALICE, "s1", 0, 10);
            assertThat(turns.get(0).text()).contains("[REDACTED:").contains("I live in Recife");
            assertThat(memory.admin().conversation(ALICE, "s1")).hasSize(3);
        }
        List<Path> files;
        try (Stream<Path> s = Files.walk(dir)) {
            files = s.filter(Files::isRegularFile).toList();
        }
        for (Path f : files) {
            String content = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
            for (String secret : secrets) {
                assertThat(content).as(f + " holds " + secret).doesNotContain(secret);
            }
            assertThat(content).doesNotContain("hunter2xyz");
        }
    }

    @Test
    void secrets_in_a_speaker_or_a_tool_name_never_reach_the_store_files() throws Exception {
        List<String> secrets = List.of("ghp_1234567890abcdefghijklmnopqrstuvwxyzAB", "TnXsecretUrlPass99");
        try (MemoryStore store = MemoryStores.open("sqlite:" + dir);
             ContextManager memory = ContextManager.builder().store(store).clock(new MutableClock(T0)).build()) {
            TurnReceipt r = memory.recordTurn(ALICE, "s1",
                    Turn.user("hello there, how are you doing today").withSpeaker("ana " + secrets.get(0)),
                    Turn.tool("fetch https://admin:" + secrets.get(1) + "@intranet.acme.com", "HTTP 200 OK, 3 rows"));
            assertThat(r.redactions()).isEqualTo(2);
            memory.flush();
            List<SessionTurn> turns = store.sessionTurns(ALICE, "s1", 0, 10);
            assertThat(turns.get(0).speaker()).isEqualTo("ana [REDACTED:github_token]");
            assertThat(turns.get(1).speaker()).isEqualTo("fetch https://[REDACTED:connection_string]@intranet.acme.com");
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path f : s.filter(Files::isRegularFile).toList()) {
                String content = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
                for (String secret : secrets) {
                    assertThat(content).as(f + " holds " + secret).doesNotContain(secret);
                }
            }
        }
    }

    @Test
    void turns_are_extracted_into_typed_observations_with_provenance() {
        try (MemoryStore store = MemoryStores.open("sqlite::memory:");
             ContextManager memory = ContextManager.builder().store(store).clock(new MutableClock(T0)).build()) {
            TurnReceipt r = memory.recordTurn(ALICE, "s1",
                    Turn.user("Please call me Dra. Marina. I'm allergic to dipyrone.").withId("D1:1"),
                    Turn.tool("calendar", "Friday 10:00 is free for Dr. House").withId("D1:2"));
            assertThat(r.turnIds()).containsExactly("D1:1", "D1:2");
            List<Observation> obs = store.observations(ALICE, ObservationFilter.all());
            assertThat(obs).anySatisfy(o -> {
                assertThat(o.subject()).isEqualTo("user.allergy");
                assertThat(o.value()).isEqualTo("dipyrone");
                assertThat(o.sourceTurnIds()).containsExactly("D1:1");
                assertThat(o.provenance().source()).isEqualTo(Source.USER);
                assertThat(o.provenance().trust()).isEqualTo(Trust.FIRST_PARTY);
                assertThat(o.provenance().outcome()).isEqualTo(Outcome.UNKNOWN);
                assertThat(o.observedAt()).isEqualTo(T0);
            });
            assertThat(obs).anySatisfy(o -> assertThat(o.subject()).isEqualTo("user.address_as"));
            assertThat(obs).filteredOn(o -> o.sourceTurnIds().contains("D1:2"))
                    .allSatisfy(o -> assertThat(o.provenance().trust()).isEqualTo(Trust.THIRD_PARTY));
        }
    }

    @Test
    void an_outcome_reported_later_updates_provenance() {
        try (MemoryStore store = MemoryStores.open("sqlite::memory:");
             ContextManager memory = ContextManager.builder().store(store).clock(new MutableClock(T0)).build()) {
            memory.recordTurn(ALICE, "s1", Turn.user("I work as a nurse at the city hospital.").withId("t-1"),
                    Turn.user("I live in Olinda.").withId("t-2"));
            memory.reportOutcome(ALICE, "t-1", Outcome.FAILED);
            List<Observation> obs = store.observations(ALICE, ObservationFilter.all());
            assertThat(obs).filteredOn(o -> o.sourceTurnIds().contains("t-1")).isNotEmpty()
                    .allSatisfy(o -> assertThat(o.provenance().outcome()).isEqualTo(Outcome.FAILED));
            assertThat(obs).filteredOn(o -> o.sourceTurnIds().contains("t-2")).isNotEmpty()
                    .allSatisfy(o -> assertThat(o.provenance().outcome()).isEqualTo(Outcome.UNKNOWN));
        }
    }

    @Test
    void the_archive_is_written_with_the_turn_and_a_failed_write_leaves_nothing_behind() {
        AtomicInteger archiveAttempts = new AtomicInteger();
        try (MemoryStore real = MemoryStores.open("sqlite::memory:")) {
            try (ContextManager memory = ContextManager.builder().store(real).clock(new MutableClock(T0)).build()) {
                memory.recordTurn(ALICE, "s1", Turn.user("I adopted a cat named Mia"));
                // no flush: an acknowledged turn is already in the archive (one transaction)
                assertThat(real.archivedTurns(ALICE, "s1")).hasSize(1);
                assertThat(real.searchTurns(ALICE, "cat Mia", 5)).hasSize(1);
            }
            MemoryStore failingArchive = (MemoryStore) Proxy.newProxyInstance(MemoryStore.class.getClassLoader(),
                    new Class<?>[] {MemoryStore.class}, archiveFails(real, archiveAttempts));
            try (ContextManager memory = ContextManager.builder().store(failingArchive).clock(new MutableClock(T0))
                    .build()) {
                assertThatThrownBy(() -> memory.recordTurn(ALICE, "s1", Turn.user("I adopted a dog named Rex")))
                        .isInstanceOf(MemoryStoreException.class).hasMessageContaining("archive disk is full");
                assertThat(archiveAttempts.get()).isEqualTo(1);
                assertThat(real.sessionLength(ALICE, "s1")).isEqualTo(1);
                assertThat(real.archivedTurns(ALICE, "s1")).hasSize(1);
                assertThat(real.observations(ALICE, ObservationFilter.all()))
                        .noneMatch(o -> o.text().contains("Rex"));
            }
        }
    }

    private static InvocationHandler archiveFails(MemoryStore real, AtomicInteger attempts) {
        return (proxy, method, args) -> {
            if (method.getName().equals("write") && ((WriteBatch) args[0]).ops().stream()
                    .anyMatch(op -> op instanceof WriteBatch.ArchiveTurn)) {
                attempts.incrementAndGet();
                throw new MemoryStoreException("archive disk is full");
            }
            try {
                return method.invoke(real, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        };
    }

    @Test
    void bad_input_is_refused_with_a_clear_message_and_nothing_is_written() {
        try (MemoryStore store = MemoryStores.open("sqlite::memory:");
             ContextManager memory = ContextManager.builder().store(store).clock(new MutableClock(T0)).build()) {
            assertThatThrownBy(() -> memory.recordTurn(ALICE, "bad session!", Turn.user("hi there")))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sessionId");
            assertThatThrownBy(() -> memory.recordTurn(ALICE, "s1"))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("turns");
            assertThatThrownBy(() -> memory.recordTurn(ALICE, "s1", Turn.user("fine"), null))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("turns[1]");
            assertThatThrownBy(() -> Turn.user("  ")).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("text");
            assertThatThrownBy(() -> Turn.user("x").withId("has space"))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("turn id");
            assertThatThrownBy(() -> Scope.of("t", "a", "x".repeat(129)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("endUserId");
            assertThat(store.sessionLength(ALICE, "s1")).isZero();
        }
    }
}
