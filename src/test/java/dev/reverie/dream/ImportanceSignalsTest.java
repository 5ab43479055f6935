package dev.reverie.dream;

import dev.reverie.ImportanceSignals;
import dev.reverie.MemoryKind;
import dev.reverie.MemoryPolicy;
import dev.reverie.Scope;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The dream's importance signals are policy settings: each one moves what the cycle computes. */
class ImportanceSignalsTest {

    private static final Scope S = Scope.of("t", "a", "u");
    private static final Instant T = Instant.parse("2025-01-01T00:00:00Z");

    private static Importance with(ImportanceSignals.Builder signals) {
        return new Importance(MemoryPolicy.builder().importanceSignals(signals.build()).build());
    }

    @Test
    void a_subject_base_comes_from_the_policy() {
        Importance likesHigh = with(ImportanceSignals.builder().likes(72).identity(99));

        assertThat(likesHigh.of(Obs.fact(S, "o", "user.likes", "jazz", "I love jazz").at(T).build())).isEqualTo(72);
        assertThat(likesHigh.of(Obs.fact(S, "o", "user.name", "Ana", "My name is Ana").at(T).build())).isEqualTo(99);
    }

    @Test
    void the_small_talk_cap_comes_from_the_policy() {
        String text = "ok thanks, see you";

        assertThat(new Importance(MemoryPolicy.defaults()).signal(MemoryKind.EVENT, "user.event", text)).isEqualTo(8);
        assertThat(with(ImportanceSignals.builder().smallTalkCap(3)).signal(MemoryKind.EVENT, "user.event", text))
                .isEqualTo(3);
    }

    @Test
    void the_episode_bonuses_come_from_the_policy() {
        String text = "Yesterday I finally painted the kitchen with my brother Carlos";
        double byDefault = new Importance(MemoryPolicy.defaults()).of(Obs.episode(S, "o", text).at(T).build());
        Importance noBonuses = with(ImportanceSignals.builder().firstPersonBonus(0).pastOrOngoingBonus(0)
                .temporalBonus(0).nameBonus(0).detailBonus(0).richDetailBonus(0).ownWorldBonus(0));

        assertThat(byDefault).as("a dated first-person episode clears the default cutoff")
                .isGreaterThanOrEqualTo(MemoryPolicy.defaults().importanceCutoff());
        assertThat(noBonuses.of(Obs.episode(S, "o", text).at(T).build()))
                .isEqualTo(ImportanceSignals.defaults().episode());
    }

    @Test
    void repetition_adds_the_policy_step_up_to_its_cap() {
        Importance steep = with(ImportanceSignals.builder().reinforcementStep(10).reinforcementCap(25));

        assertThat(steep.reinforcementBonus(1)).isZero();
        assertThat(steep.reinforcementBonus(2)).isEqualTo(10);
        assertThat(steep.reinforcementBonus(9)).isEqualTo(25);
    }

    @Test
    void a_signal_outside_0_to_100_is_refused_by_name_and_the_policy_copy_keeps_the_signals() {
        assertThatThrownBy(() -> ImportanceSignals.builder().nameBonus(-1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("nameBonus");
        ImportanceSignals custom = ImportanceSignals.builder().pet(33).build();
        MemoryPolicy policy = MemoryPolicy.builder().importanceSignals(custom).build();

        assertThat(policy.toBuilder().build().importanceSignals().pet()).isEqualTo(33);
        assertThat(custom.toBuilder().build().pet()).isEqualTo(33);
        assertThat(MemoryPolicy.defaults().importanceSignals().pet()).isEqualTo(62);
    }
}
