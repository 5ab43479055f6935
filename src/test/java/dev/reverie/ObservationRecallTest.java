package dev.reverie;

import dev.reverie.spi.MemoryStores;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link MemoryPolicy#observationRecall()}: pending L3 observations compete for the context, or not. */
class ObservationRecallTest {

    static final Scope ALICE = Scope.of("clinic-42", "receptionist", "alice");

    private static AssembledContext askAfterOneTurn(MemoryPolicy policy) {
        try (ContextManager memory = ContextManager.builder().store("sqlite::memory:").policy(policy).build()) {
            memory.recordTurn(ALICE, "s1", Turn.user("I'm allergic to dipyrone."));
            return memory.buildContext(ContextRequest.builder(ALICE, "s2").query("Which allergy do I have? dipyrone")
                    .budgetTokens(2_000).build());
        }
    }

    @Test
    void pending_observations_are_recalled_by_default_and_not_when_turned_off() {
        MemoryPolicy withoutTurns = MemoryPolicy.builder().episodicRecall(false).build();

        assertThat(withoutTurns.observationRecall()).isTrue();
        assertThat(askAfterOneTurn(withoutTurns).recalled()).extracting(RecalledMemory::text)
                .anyMatch(t -> t.contains("dipyrone"));
        assertThat(askAfterOneTurn(withoutTurns.toBuilder().observationRecall(false).build()).recalled()).isEmpty();
    }

    @Test
    @SuppressWarnings("deprecation")
    void the_deprecated_count_maps_to_on_and_off() {
        MemoryPolicy off = MemoryPolicy.builder().recentObservations(0).build();
        MemoryPolicy on = MemoryPolicy.builder().recentObservations(3).build();

        assertThat(off.observationRecall()).isFalse();
        assertThat(off.recentObservations()).isZero();
        assertThat(on.observationRecall()).isTrue();
        assertThat(on.recentObservations()).isEqualTo(8);
    }
}
