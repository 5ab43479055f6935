package dev.reverie;

import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.MemoryStores;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static dev.reverie.GovernanceFixtures.T0;
import static dev.reverie.GovernanceFixtures.memory;
import static dev.reverie.GovernanceFixtures.observation;
import static dev.reverie.GovernanceFixtures.put;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Forgetting criterion 4 (DESIGN §8): a memory that came only from failed runs is deprecated when they are reported. */
class FailedRunGovernanceTest {

    static final Scope ALICE = Scope.of("clinic-42", "receptionist", "alice");
    static final Scope BOB = Scope.of("clinic-42", "receptionist", "bob");

    @TempDir
    Path dir;
    MemoryStore store;
    MutableClock clock;
    ContextManager memory;

    @BeforeEach
    void setUp() {
        store = MemoryStores.open("sqlite:" + dir);
        clock = new MutableClock(T0);
        memory = ContextManager.builder().store(store).clock(clock).build();
    }

    @AfterEach
    void tearDown() {
        memory.close();
        store.close();
    }

    Memory stored(Scope scope, String id) {
        return store.memory(scope, id).orElseThrow();
    }

    @Test
    void a_failed_run_deprecates_the_memory_it_alone_produced_with_a_history_event() {
        put(store, ALICE, observation(ALICE, "o1", "Wants a refund of 200 euros", "t1", T0),
                memory(ALICE, "m1", "Wants a refund of 200 euros", List.of("t1"), T0));
        clock.advance(Duration.ofMinutes(3));

        memory.reportOutcome(ALICE, "t1", Outcome.FAILED);

        Memory m = stored(ALICE, "m1");
        assertThat(m.status()).isEqualTo(MemoryStatus.DEPRECATED);
        assertThat(m.updatedAt()).isEqualTo(T0.plus(Duration.ofMinutes(3)));
        assertThat(m.provenance().outcome()).isEqualTo(Outcome.FAILED);
        List<MemoryEvent> history = store.history(ALICE, "m1");
        assertThat(history).hasSize(1);
        MemoryEvent e = history.get(0);
        assertThat(e.type()).isEqualTo(MemoryEventType.DEPRECATED);
        assertThat(e.cause()).isEqualTo("failed run t1");
        assertThat(e.before()).isEqualTo("ACTIVE");
        assertThat(e.after()).isEqualTo("DEPRECATED");
        assertThat(e.at()).isEqualTo(T0.plus(Duration.ofMinutes(3)));
        // the observation carries the outcome too, so the dream cycle never promotes it on its own
        assertThat(store.observation(ALICE, "o1").orElseThrow().provenance().outcome()).isEqualTo(Outcome.FAILED);
        // and it is no longer recalled
        assertThat(memory.buildContext(ContextRequest.builder(ALICE, "s1").query("refund").build()).recalled())
                .extracting(RecalledMemory::memoryId).doesNotContain("m1");
        assertThat(memory.admin().memories(ALICE)).isEmpty();
    }

    @Test
    void near_miss_a_memory_that_a_successful_turn_also_supports_stays_active() {
        put(store, ALICE, observation(ALICE, "o1", "Lives in Porto", "t1", T0),
                observation(ALICE, "o2", "Lives in Porto", "t2", T0),
                memory(ALICE, "m1", "Lives in Porto", List.of("t1", "t2"), T0));
        memory.reportOutcome(ALICE, "t2", Outcome.SUCCEEDED);

        memory.reportOutcome(ALICE, "t1", Outcome.FAILED);

        assertThat(stored(ALICE, "m1").status()).isEqualTo(MemoryStatus.ACTIVE);
        assertThat(stored(ALICE, "m1").provenance().outcome()).isEqualTo(Outcome.UNKNOWN);
        assertThat(store.history(ALICE, "m1")).isEmpty();
    }

    @Test
    void the_last_of_several_failed_source_turns_deprecates_remembering_the_earlier_failures() {
        put(store, ALICE, observation(ALICE, "o1", "Lives in Porto", "t1", T0),
                observation(ALICE, "o2", "Lives in Porto", "t2", T0),
                memory(ALICE, "m1", "Lives in Porto", List.of("t1", "t2"), T0));

        memory.reportOutcome(ALICE, "t1", Outcome.FAILED);
        assertThat(stored(ALICE, "m1").status()).isEqualTo(MemoryStatus.ACTIVE); // t2 not known to fail yet

        memory.reportOutcome(ALICE, "t2", Outcome.FAILED);
        assertThat(stored(ALICE, "m1").status()).isEqualTo(MemoryStatus.DEPRECATED);
        assertThat(store.history(ALICE, "m1")).extracting(MemoryEvent::cause).containsExactly("failed run t2");
    }

    @Test
    void near_miss_a_successful_or_unknown_outcome_deprecates_nothing() {
        put(store, ALICE, memory(ALICE, "m1", "Lives in Porto", List.of("t1"), T0));
        memory.reportOutcome(ALICE, "t1", Outcome.SUCCEEDED);
        memory.reportOutcome(ALICE, "t1", Outcome.UNKNOWN);
        assertThat(stored(ALICE, "m1").status()).isEqualTo(MemoryStatus.ACTIVE);
        assertThat(store.history(ALICE, "m1")).isEmpty();
    }

    @Test
    void only_memories_of_the_failed_turn_and_scope_are_touched() {
        put(store, ALICE, memory(ALICE, "m1", "From the failed run", List.of("t1"), T0),
                memory(ALICE, "m2", "From another run", List.of("t9"), T0),
                memory(ALICE, "m3", "Already deprecated", List.of("t1"), T0).toBuilder()
                        .status(MemoryStatus.DEPRECATED).build());
        put(store, BOB, memory(BOB, "m1", "Bob's memory from his own turn t1", List.of("t1"), T0));
        Memory operator = memory.admin().remember(ALICE, MemoryDraft.of(MemoryKind.FACT, "Added by hand")).get(0);

        memory.reportOutcome(ALICE, "t1", Outcome.FAILED);

        assertThat(stored(ALICE, "m1").status()).isEqualTo(MemoryStatus.DEPRECATED);
        assertThat(stored(ALICE, "m2").status()).isEqualTo(MemoryStatus.ACTIVE);
        assertThat(store.history(ALICE, "m3")).isEmpty();
        assertThat(stored(BOB, "m1").status()).isEqualTo(MemoryStatus.ACTIVE);
        assertThat(stored(ALICE, operator.id()).status()).isEqualTo(MemoryStatus.ACTIVE);
    }

    @Test
    void a_memory_without_source_turn_ids_is_judged_by_its_provenance_turn() {
        Memory m = memory(ALICE, "m1", "Said once", List.of(), T0).toBuilder()
                .provenance(new Provenance(Source.USER, "s1", "t5", T0, Outcome.UNKNOWN, Trust.FIRST_PARTY)).build();
        put(store, ALICE, m);
        memory.reportOutcome(ALICE, "t4", Outcome.FAILED);
        assertThat(stored(ALICE, "m1").status()).isEqualTo(MemoryStatus.ACTIVE);
        memory.reportOutcome(ALICE, "t5", Outcome.FAILED);
        assertThat(stored(ALICE, "m1").status()).isEqualTo(MemoryStatus.DEPRECATED);
    }

    @Test
    void report_outcome_validates_its_arguments() {
        assertThatThrownBy(() -> memory.reportOutcome(ALICE, "bad turn!", Outcome.FAILED))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("turnId");
        assertThatThrownBy(() -> memory.reportOutcome(ALICE, "t1", null))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("outcome must not be null");
        assertThatThrownBy(() -> memory.reportOutcome(null, "t1", Outcome.FAILED))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("scope must not be null");
    }
}
