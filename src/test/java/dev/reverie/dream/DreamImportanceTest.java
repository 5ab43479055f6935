package dev.reverie.dream;

import dev.reverie.ImportanceSignals;
import dev.reverie.MemoryKind;
import dev.reverie.MemoryPolicy;
import dev.reverie.Observation;
import dev.reverie.Scope;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The importance table, the text signals and the decay formula. */
class DreamImportanceTest {

    private static final Scope S = Scope.of("t", "a", "u");
    private static final Instant T = Instant.parse("2025-01-01T00:00:00Z");
    private static final ImportanceSignals SIGNALS = ImportanceSignals.defaults();
    private final Importance importance = new Importance(MemoryPolicy.defaults());
    private final double cutoff = MemoryPolicy.defaults().importanceCutoff();

    private double fact(String subject, String text) {
        return importance.of(Obs.fact(S, "o", subject, "v", text).at(T).build());
    }

    private double episode(String text) {
        return importance.of(Obs.episode(S, "o", text).at(T).build());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "user.name|My name is Ana|95", "user.address_as|Call me Dra. Marina|95",
            "user.native_language|Portuguese is my native language|95", "user.allergy|I'm allergic to dipyrone|95",
            "user.health|I have type 1 diabetes|85", "user.family.sister|My sister Marta lives in Porto|70",
            "user.job|I work as a nurse|65", "user.location|I live in Recife|65", "user.pet|I have a cat named Tom|62",
            "user.skill|I speak Spanish fluently|60", "user.likes|I love jazz|55",
            "user.plan|I have a dentist appointment|50", "user.plan|Dentist appointment next Friday|55"})
    void the_subject_sets_the_base(String subject, String text, double expected) {
        assertThat(fact(subject, text)).isEqualTo(expected);
    }

    @Test
    void identity_and_health_are_permanent_only_first_hand_and_from_a_run_that_did_not_fail() {
        Observation own = Obs.fact(S, "o", "user.allergy", "latex", "I'm allergic to latex").at(T).build();
        Observation tool = Obs.fact(S, "o", "user.allergy", "latex", "allergic to latex").thirdParty().at(T).build();
        Observation failed = Obs.fact(S, "o", "user.name", "Ana", "My name is Ana").failed().at(T).build();

        assertThat(Importance.permanent(own.subject(), own.provenance())).isTrue();
        assertThat(Importance.permanent(tool.subject(), tool.provenance())).isFalse();
        assertThat(Importance.permanent(failed.subject(), failed.provenance())).isFalse();
        assertThat(Importance.permanent("user.likes", own.provenance())).isFalse();
        assertThat(importance.of(tool)).isEqualTo(SIGNALS.allergy() * 0.5);
        assertThat(importance.of(failed)).isEqualTo(SIGNALS.identity() * 0.3);
    }

    @ParameterizedTest
    @ValueSource(strings = {"ok see you", "Thanks, Marina!", "haha ok", "good morning!", "Hey Len! Good to see you!"
            + " How have you been?", "sounds good", "Priya: Thanks, Len!"})
    void small_talk_stays_far_below_the_cutoff(String text) {
        assertThat(episode(text)).isLessThanOrEqualTo(SIGNALS.smallTalkCap());
        assertThat(fact("user.plan", text)).isLessThan(cutoff);
    }

    @ParameterizedTest
    @ValueSource(strings = {"I'll be 10 minutes late", "running late, sorry", "on my way!", "be there in 5",
            "stuck in traffic, start without me", "Vou chegar 15 minutos atrasada"})
    void resolved_logistics_stay_below_the_cutoff(String text) {
        assertThat(episode(text)).isLessThan(cutoff);
        assertThat(fact("user.plan", text)).isLessThanOrEqualTo(SIGNALS.logisticsCap());
    }

    @ParameterizedTest
    @ValueSource(strings = {"I went to a support group yesterday", "I'm painting a sunrise",
            "I ran a half marathon for the food bank last Saturday", "Priya: I went to a grief support circle yesterday",
            "Still working on opening a bike repair shop", "We adopted a puppy named Luna last week",
            "My daughter started school in September"})
    void a_substantive_episode_of_the_user_clears_the_cutoff(String text) {
        assertThat(episode(text)).isGreaterThanOrEqualTo(cutoff);
    }

    @ParameterizedTest
    @ValueSource(strings = {"Wow, that's cool, Priya! What happened?", "What kinda shifts are you pickin' up?",
            "You'd be a great nurse!", "That's really sweet, thanks!"})
    void reactions_and_questions_to_the_listener_stay_below_the_cutoff(String text) {
        assertThat(episode(text)).isLessThan(cutoff);
    }

    @Test
    void repetition_raises_importance_up_to_a_cap() {
        Observation once = Obs.fact(S, "o", "user.likes", "jazz", "I like jazz").at(T).build();
        Observation thrice = once.withReinforcement(3, once.sourceTurnIds());
        Observation often = once.withReinforcement(50, once.sourceTurnIds());

        assertThat(importance.of(thrice) - importance.of(once)).isEqualTo(2 * SIGNALS.reinforcementStep());
        assertThat(importance.of(often) - importance.of(once)).isEqualTo(SIGNALS.reinforcementCap());
    }

    @Test
    void decay_halves_importance_every_half_life_and_never_grows_back() {
        Duration halfLife = Duration.ofDays(30);
        assertThat(Importance.decay(80, halfLife, Duration.ZERO)).isEqualTo(80);
        assertThat(Importance.decay(80, halfLife, Duration.ofDays(30))).isCloseTo(40, within(1e-9));
        assertThat(Importance.decay(80, halfLife, Duration.ofDays(90))).isCloseTo(10, within(1e-9));
        assertThat(Importance.decay(80, halfLife, Duration.ofDays(-5))).isEqualTo(80);
        double daily = 80;
        for (int d = 0; d < 30; d++) {
            daily *= Importance.decay(1, halfLife, Duration.ofDays(1));
        }
        assertThat(daily).as("compounding daily equals one 30-day step").isCloseTo(40, within(1e-9));
    }

    @Test
    void a_memory_keeps_its_undecayed_base_and_its_current_importance_follows_the_clock() {
        dev.reverie.Memory m = dev.reverie.Memory.builder("m", S, MemoryKind.PREFERENCE, "I like jazz", T)
                .subject("user.likes").value("jazz").reinforcementCount(2)
                .provenance(Obs.fact(S, "o", "user.likes", "jazz", "I like jazz").at(T).build().provenance()).build();
        dev.reverie.Memory byOperator = m.toBuilder().provenance(dev.reverie.Provenance.operator(T)).importance(33)
                .build();

        assertThat(importance.base(m)).isEqualTo(SIGNALS.likes() + SIGNALS.reinforcementStep());
        assertThat(importance.current(m, T.plus(Duration.ofDays(30))))
                .isEqualTo(Importance.round((SIGNALS.likes() + SIGNALS.reinforcementStep()) / 2));
        assertThat(importance.forRun().current(m, T.plus(Duration.ofDays(30))))
                .isEqualTo(importance.current(m, T.plus(Duration.ofDays(30))));
        assertThat(importance.current(byOperator, T.plus(Duration.ofDays(300)))).as("operators' word stands")
                .isEqualTo(33);
    }
}
