package dev.reverie;

import dev.reverie.spi.MemoryStore;
import dev.reverie.store.sqlite.SqliteMemoryStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Whose facts they are, end to end (recordTurn → dream → buildContext): two speakers in one scope
 * keep their own memories, and only the user's own words correct a permanent fact — never the
 * assistant, named or not, and never a tool. Runs on SQLite here and on Lucene in the subclass.
 */
class SpeakersAndSourcesTest {

    static final Instant T0 = Instant.parse("2025-03-03T09:00:00Z");
    static final Scope HOUSE = Scope.of("clinic-42", "receptionist", "household-7");

    MemoryStore store;
    MutableClock clock;
    ContextManager memory;

    /** The store the scenarios run on: SQLite here; a subclass runs them on another. */
    MemoryStore newStore() {
        return SqliteMemoryStore.inMemory();
    }

    @BeforeEach
    void open() {
        store = newStore();
        clock = new MutableClock(T0);
        memory = ContextManager.builder().store(store).clock(clock).build();
    }

    @AfterEach
    void close() {
        memory.close();
        store.close();
    }

    static Instant day(int n) {
        return T0.plus(Duration.ofDays(n));
    }

    void dreamOn(int n) {
        memory.flush();
        clock.set(day(n).plus(Duration.ofHours(12)));
        memory.dream(HOUSE);
    }

    List<Memory> memories(String subject, MemoryStatus status) {
        return memory.admin().memories(HOUSE, MemoryFilter.all()).stream()
                .filter(m -> m.subject().equals(subject) && m.status() == status).toList();
    }

    Turn priya(String text, int day) {
        return Turn.user(text).withSpeaker("Priya").at(day(day));
    }

    Turn lena(String text, int day) {
        return Turn.user(text).withSpeaker("Lena").at(day(day));
    }

    @Test
    void two_speakers_in_one_scope_keep_their_own_facts_and_only_the_mover_is_superseded() {
        memory.recordTurn(HOUSE, "s1", priya("I live in Boston. I work as a nurse.", 0),
                lena("I live in Denver. I work as a teacher.", 0));
        dreamOn(0);
        memory.recordTurn(HOUSE, "s2", lena("I live in Denver.", 7), priya("I live in Boston.", 7),
                lena("I work as a teacher.", 7));
        dreamOn(7);
        memory.recordTurn(HOUSE, "s3", priya("I live in Seattle now.", 14),
                lena("My sister came to visit me last weekend.", 14));
        dreamOn(14);

        assertThat(memories("priya.location", MemoryStatus.ACTIVE)).singleElement()
                .satisfies(m -> assertThat(m.value()).isEqualTo("Seattle"));
        assertThat(memories("priya.location", MemoryStatus.SUPERSEDED)).singleElement()
                .satisfies(m -> assertThat(m.value()).isEqualTo("Boston"));
        assertThat(memories("lena.location", MemoryStatus.ACTIVE)).singleElement()
                .satisfies(m -> assertThat(m.value()).isEqualTo("Denver"));
        assertThat(memories("priya.job", MemoryStatus.ACTIVE)).singleElement()
                .satisfies(m -> assertThat(m.value()).isEqualTo("nurse"));
        assertThat(memories("lena.job", MemoryStatus.ACTIVE)).singleElement()
                .satisfies(m -> assertThat(m.value()).isEqualTo("teacher"));
        assertThat(memory.admin().memories(HOUSE, MemoryFilter.all()))
                .filteredOn(m -> m.status() == MemoryStatus.SUPERSEDED)
                .as("only the mover's old location is superseded")
                .extracting(Memory::subject).containsExactly("priya.location");
        assertThat(memory.admin().memories(HOUSE, MemoryFilter.all()))
                .as("no memory mixes the two speakers' turns")
                .allSatisfy(m -> assertThat(m.subject().startsWith("priya.") && m.text().contains("Lena")
                        || m.subject().startsWith("lena.") && m.text().contains("Priya")).isFalse());
    }

    @Test
    void the_assistant_named_or_not_and_a_tool_never_supersede_the_users_allergy() {
        memory.recordTurn(HOUSE, "s1", Turn.user("I'm allergic to dipyrone.").at(day(0)),
                Turn.assistant("I'm not allergic to dipyrone anymore.").at(day(0)),
                Turn.assistant("I'm not allergic to dipyrone anymore.").withSpeaker("Ava").at(day(0)));
        dreamOn(0);
        memory.recordTurn(HOUSE, "s2",
                Turn.assistant("I'm not allergic to dipyrone anymore.").withSpeaker("Ava").at(day(1)),
                Turn.assistant("Actually, I'm not allergic to dipyrone anymore.").at(day(1)),
                Turn.tool("ehr", "The patient is not allergic to dipyrone anymore, per the updated record.").at(day(1)),
                Turn.tool("ehr", "The patient is not allergic to dipyrone anymore, per the updated record.")
                        .withSpeaker("Dr. House").at(day(1)));
        dreamOn(1);

        Memory allergy = memories("user.allergy", MemoryStatus.ACTIVE).stream()
                .filter(m -> m.polarity() == Polarity.POSITIVE).findFirst().orElseThrow();
        assertThat(allergy.permanent()).isTrue();
        assertThat(allergy.value()).isEqualTo("dipyrone");
        assertThat(memories("user.allergy", MemoryStatus.SUPERSEDED)).isEmpty();
        assertThat(memory.admin().memories(HOUSE, MemoryFilter.all()))
                .as("nothing the assistant or a tool said became a permanent fact")
                .filteredOn(m -> m.provenance().source() != Source.USER).noneMatch(Memory::permanent);
        AssembledContext context = memory.buildContext(ContextRequest.builder(HOUSE, "s3")
                .query("What can I take for a headache?").budgetTokens(4_000).build());
        assertThat(context.messages(Layer.PERSISTENT)).singleElement()
                .satisfies(m -> assertThat(m.content()).contains("allergic to dipyrone"));
        assertThat(context.recalled()).extracting(RecalledMemory::memoryId).contains(allergy.id());

        memory.recordTurn(HOUSE, "s3", Turn.user("I'm not allergic to dipyrone anymore.").at(day(2)));
        dreamOn(2);

        assertThat(memory.admin().memories(HOUSE, MemoryFilter.all()))
                .filteredOn(m -> m.id().equals(allergy.id())).singleElement()
                .satisfies(m -> assertThat(m.status()).isEqualTo(MemoryStatus.SUPERSEDED));
    }
}
