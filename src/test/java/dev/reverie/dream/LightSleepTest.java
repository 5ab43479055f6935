package dev.reverie.dream;

import dev.reverie.Memory;
import dev.reverie.MemoryKind;
import dev.reverie.MemoryPolicy;
import dev.reverie.Observation;
import dev.reverie.ObservationStatus;
import dev.reverie.Trust;
import dev.reverie.spi.Embedder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Light sleep: which observations collapse into one, and what the survivor keeps. */
class LightSleepTest extends DreamFixture {

    @Test
    void duplicates_collapse_into_one_survivor_with_summed_reinforcement_and_every_turn() {
        Obs.write(store,
                Obs.fact(ANA, "a", "user.pet", "dog Rex", "I have a dog called Rex").turns("D1:1").at(day(0)),
                Obs.fact(ANA, "b", "user.pet", "Dog, Rex", "my dog Rex!").turns("D1:7", "D1:8").at(day(0).plusSeconds(60)),
                Obs.fact(ANA, "c", "user.pet", "dog rex", "Rex, my dog").turns("D2:3").session("s2").at(day(1)));
        nightOf(1);

        DreamReport report = cycle.run(ANA);

        assertThat(report.duplicates()).isEqualTo(2);
        Observation survivor = observation(ANA, "c");
        assertThat(survivor.status()).isEqualTo(ObservationStatus.CONSOLIDATED);
        assertThat(survivor.reinforcementCount()).isEqualTo(3);
        assertThat(survivor.sourceTurnIds()).containsExactly("D1:1", "D1:7", "D1:8", "D2:3");
        assertThat(observation(ANA, "a").status()).isEqualTo(ObservationStatus.DISCARDED);
        assertThat(observation(ANA, "b").status()).isEqualTo(ObservationStatus.DISCARDED);
        Memory rex = only(ANA, "user.pet");
        assertThat(rex.sourceTurnIds()).containsExactly("D1:1", "D1:7", "D1:8", "D2:3");
        assertThat(rex.reinforcementCount()).isEqualTo(3);
    }

    @Test
    void near_identical_text_of_a_multi_valued_subject_merges_even_when_values_differ() {
        Obs.write(store,
                Obs.fact(ANA, "a", "user.skill", "python programming", "I am good at python programming and data")
                        .kind(MemoryKind.SKILL).at(day(0)),
                Obs.fact(ANA, "b", "user.skill", "python", "I am good at python programming and data!")
                        .kind(MemoryKind.SKILL).at(day(0)),
                Obs.fact(ANA, "c", "user.skill", "java", "I am good at java").kind(MemoryKind.SKILL).at(day(0)));
        nightOf(0);

        DreamReport report = cycle.run(ANA);

        assertThat(report.duplicates()).isEqualTo(1);
        assertThat(active(ANA)).filteredOn(m -> m.kind() == MemoryKind.SKILL).hasSize(2);
    }

    @Test
    void near_identical_episodes_merge_although_their_hash_subjects_differ() {
        Obs.write(store,
                Obs.episode(ANA, "a", "I went to the chess club meetup yesterday").at(day(0)),
                Obs.episode(ANA, "b", "I went to the chess club meetup yesterday!!").session("s2").at(day(0)));
        nightOf(0);

        DreamReport report = cycle.run(ANA);

        assertThat(report.duplicates()).isEqualTo(1);
        assertThat(active(ANA)).singleElement().satisfies(m -> assertThat(m.reinforcementCount()).isEqualTo(2));
    }

    @Test
    void a_single_valued_subject_never_merges_two_values_however_similar() {
        Embedder same = constant(1, 0, 0);
        cycle = DreamCycle.builder(store).clock(clock).embedder(same)
                .policy(MemoryPolicy.defaults().toBuilder().duplicateJaccard(0.5).build()).build();
        Obs.write(store,
                Obs.fact(ANA, "a", "user.location", "Porto", "I live in Porto").single().at(day(0)),
                Obs.fact(ANA, "b", "user.location", "Porto Alegre", "I live in Porto Alegre").single().at(day(1)));
        nightOf(1);

        DreamReport report = cycle.run(ANA);

        assertThat(report.duplicates()).isZero();
        assertThat(only(ANA, "user.location").value()).isEqualTo("Porto Alegre");
        assertThat(report.superseded()).isEqualTo(1);
    }

    @Test
    void opposite_polarities_never_merge() {
        Obs.write(store,
                Obs.fact(ANA, "a", "user.likes", "coffee", "I drink coffee").at(day(0)),
                Obs.fact(ANA, "b", "user.likes", "coffee", "I drink coffee").negative().at(day(1)));
        nightOf(1);

        assertThat(cycle.run(ANA).duplicates()).isZero();
    }

    @Test
    void an_embedder_finds_paraphrases_that_share_no_words() {
        Embedder embedder = new FixedDimension(text -> text.contains("automobile") || text.contains("car")
                ? new float[] {1, 0.01f, 0} : new float[] {0, 0, 1}, 3);
        cycle = DreamCycle.builder(store).clock(clock).embedder(embedder).build();
        Obs.write(store,
                Obs.episode(ANA, "a", "I bought a new car").at(day(0)),
                Obs.episode(ANA, "b", "purchased an automobile recently").at(day(0)),
                Obs.episode(ANA, "c", "I adopted a cat").at(day(0)));
        nightOf(0);

        DreamReport report = cycle.run(ANA);

        assertThat(report.duplicates()).isEqualTo(1);
        assertThat(active(ANA)).allSatisfy(m -> assertThat(m.embedding()).isNotNull());
    }

    @Test
    void the_survivor_is_the_first_party_statement_when_there_is_one() {
        Obs.write(store,
                Obs.fact(ANA, "tool", "user.allergy", "latex", "allergic to latex").thirdParty().at(day(1)),
                Obs.fact(ANA, "user", "user.allergy", "latex", "I'm allergic to latex").at(day(0)));
        nightOf(1);

        cycle.run(ANA);

        assertThat(observation(ANA, "user").status()).isEqualTo(ObservationStatus.CONSOLIDATED);
        assertThat(observation(ANA, "tool").status()).isEqualTo(ObservationStatus.DISCARDED);
        Memory latex = only(ANA, "user.allergy");
        assertThat(latex.provenance().trust()).isEqualTo(Trust.FIRST_PARTY);
        assertThat(latex.permanent()).isTrue();
    }

    private static Embedder constant(float... v) {
        return new FixedDimension(text -> v.clone(), v.length);
    }

    /** An embedder from a function, with a fixed dimension. */
    record FixedDimension(java.util.function.Function<String, float[]> f, int dimension) implements Embedder {
        @Override
        public float[] embed(String text) {
            return f.apply(text);
        }
    }
}
