package dev.reverie.dream;

import dev.reverie.Memory;
import dev.reverie.MemoryEvent;
import dev.reverie.MemoryEventType;
import dev.reverie.MemoryKind;
import dev.reverie.MemoryPolicy;
import dev.reverie.MemoryStatus;
import dev.reverie.ObservationStatus;
import dev.reverie.Outcome;
import dev.reverie.Polarity;
import dev.reverie.Trust;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** End-to-end behaviour of the cycle over simulated weeks and months, on a real SQLite store. */
class DreamScenarioTest extends DreamFixture {

    @Test
    void same_preference_in_three_sessions_is_promoted_once_and_reinforced_once_per_session() {
        for (int week = 0; week < 3; week++) {
            Obs.write(store, Obs.fact(ANA, "jazz-" + week, "user.likes", "jazz", "I really like jazz")
                    .kind(MemoryKind.PREFERENCE).session("s" + week).at(day(7 * week)));
            nightOf(7 * week);
            DreamReport report = cycle.run(ANA);
            assertThat(report.promoted()).isEqualTo(1);
            assertThat(report.reinforced()).isEqualTo(week == 0 ? 0 : 1);
        }

        Memory jazz = only(ANA, "user.likes");
        assertThat(all(ANA)).hasSize(1);
        assertThat(jazz.reinforcementCount()).isEqualTo(3);
        assertThat(jazz.lastReinforcedAt()).isEqualTo(day(14));
        assertThat(jazz.sourceTurnIds()).containsExactly("t-jazz-0", "t-jazz-1", "t-jazz-2");
        assertThat(jazz.sourceObservationIds()).containsExactly("jazz-0", "jazz-1", "jazz-2");
        assertThat(store.history(ANA, jazz.id())).extracting(MemoryEvent::type)
                .containsExactly(MemoryEventType.CREATED, MemoryEventType.REINFORCED, MemoryEventType.REINFORCED);
        assertThat(jazz.importance()).as("reinforcement raises importance")
                .isGreaterThan(MemoryPolicy.defaults().importanceSignals().likes());
    }

    @Test
    void the_same_thing_said_in_three_sessions_of_one_night_is_one_memory_with_three_turns() {
        Obs.write(store,
                Obs.fact(ANA, "a", "user.likes", "jazz", "I like jazz").session("s1").at(day(0)),
                Obs.fact(ANA, "b", "user.likes", "Jazz", "jazz is my thing").session("s2").at(day(1)),
                Obs.fact(ANA, "c", "user.likes", "jazz ", "I like jazz").session("s3").at(day(2)));
        nightOf(2);

        DreamReport report = cycle.run(ANA);

        assertThat(report.duplicates()).isEqualTo(2);
        assertThat(report.considered()).isEqualTo(1);
        assertThat(report.promoted()).isEqualTo(1);
        Memory jazz = only(ANA, "user.likes");
        assertThat(jazz.reinforcementCount()).isEqualTo(3);
        assertThat(jazz.sourceTurnIds()).containsExactly("t-a", "t-b", "t-c");
        assertThat(jazz.sourceObservationIds()).containsExactlyInAnyOrder("a", "b", "c");
        assertThat(jazz.lastReinforcedAt()).isEqualTo(day(2));
        assertThat(observations(ANA, ObservationStatus.DISCARDED)).hasSize(2);
        assertThat(observations(ANA, ObservationStatus.CONSOLIDATED)).hasSize(1);
    }

    @Test
    void small_talk_and_resolved_logistics_are_discarded() {
        Obs.write(store,
                Obs.episode(ANA, "late", "I'll be 10 minutes late").at(day(0)),
                Obs.episode(ANA, "running", "running late, sorry!").at(day(0)),
                Obs.episode(ANA, "bye", "ok see you").at(day(0)),
                Obs.episode(ANA, "thanks", "Thanks, Marina!").at(day(0)),
                Obs.fact(ANA, "plan", "user.plan", "late", "I'll be 10 minutes late").kind(MemoryKind.EVENT).at(day(0)));
        nightOf(0);

        DreamReport report = cycle.run(ANA);

        assertThat(report.considered()).isEqualTo(5);
        assertThat(report.discarded()).isEqualTo(5);
        assertThat(report.promoted()).isZero();
        assertThat(all(ANA)).isEmpty();
        assertThat(observations(ANA, ObservationStatus.DISCARDED)).hasSize(5)
                .allSatisfy(o -> assertThat(o.consolidatedAt()).isEqualTo(clock.instant()));
    }

    @Test
    void ordinary_life_events_of_the_user_are_kept() {
        Obs.write(store,
                Obs.episode(ANA, "group", "I went to a support group yesterday").at(day(0)),
                Obs.episode(ANA, "paint", "I'm painting a sunrise").at(day(0)),
                Obs.episode(ANA, "race", "I ran a half marathon for the food bank last Saturday").at(day(0)));
        nightOf(0);

        DreamReport report = cycle.run(ANA);

        assertThat(report.promoted()).isEqualTo(3);
        assertThat(active(ANA)).extracting(Memory::text).containsExactlyInAnyOrder(
                "I went to a support group yesterday", "I'm painting a sunrise",
                "I ran a half marathon for the food bank last Saturday");
    }

    @Test
    void a_name_said_once_is_permanent_and_never_decays() {
        Obs.write(store, Obs.fact(ANA, "name", "user.address_as", "Dra. Marina", "Please call me Dra. Marina")
                .single().at(day(0)));
        nightOf(0);
        cycle.run(ANA);
        Memory name = only(ANA, "user.address_as");
        assertThat(name.permanent()).isTrue();
        assertThat(name.expiresAt()).isNull();
        assertThat(name.importance()).isGreaterThanOrEqualTo(90);

        for (int month = 1; month <= 12; month++) {
            nightOf(30 * month);
            DreamReport report = cycle.run(ANA);
            assertThat(report.decayed()).isZero();
            assertThat(report.forgotten()).isZero();
        }

        Memory later = only(ANA, "user.address_as");
        assertThat(later.status()).isEqualTo(MemoryStatus.ACTIVE);
        assertThat(later.importance()).isEqualTo(name.importance());
        assertThat(later).isEqualTo(name);
    }

    @Test
    void a_contradiction_supersedes_the_older_fact_and_keeps_it_for_audit() {
        Obs.write(store, Obs.fact(ANA, "recife", "user.location", "Recife", "I live in Recife").single().at(day(0)));
        nightOf(0);
        cycle.run(ANA);
        Memory recife = only(ANA, "user.location");

        Obs.write(store, Obs.fact(ANA, "lisbon", "user.location", "Lisbon", "I moved to Lisbon").single().at(day(40)));
        nightOf(40);
        DreamReport report = cycle.run(ANA);

        assertThat(report.superseded()).isEqualTo(1);
        Memory lisbon = only(ANA, "user.location");
        assertThat(lisbon.value()).isEqualTo("Lisbon");
        Memory old = store.memory(ANA, recife.id()).orElseThrow();
        assertThat(old.status()).isEqualTo(MemoryStatus.SUPERSEDED);
        assertThat(old.supersededBy()).isEqualTo(lisbon.id());
        assertThat(store.history(ANA, recife.id())).last().satisfies(e -> {
            assertThat(e.type()).isEqualTo(MemoryEventType.SUPERSEDED);
            assertThat(e.cause()).isEqualTo("contradicted by " + lisbon.id());
        });
    }

    @Test
    void within_one_night_the_latest_value_of_a_single_subject_wins() {
        Obs.write(store,
                Obs.fact(ANA, "a", "user.job", "nurse", "I work as a nurse").single().at(day(0)),
                Obs.fact(ANA, "b", "user.job", "teacher", "I'm a teacher now").single().at(day(2)));
        nightOf(2);

        cycle.run(ANA);

        assertThat(only(ANA, "user.job").value()).isEqualTo("teacher");
        assertThat(count(ANA, MemoryStatus.SUPERSEDED)).isEqualTo(1);
    }

    @Test
    void a_late_older_statement_does_not_override_a_newer_fact() {
        Obs.write(store, Obs.fact(ANA, "new", "user.job", "teacher", "I'm a teacher").single().at(day(10)));
        nightOf(10);
        cycle.run(ANA);
        Obs.write(store, Obs.fact(ANA, "old", "user.job", "nurse", "I work as a nurse").single().at(day(1)));
        nightOf(11);

        cycle.run(ANA);

        assertThat(only(ANA, "user.job").value()).isEqualTo("teacher");
        assertThat(all(ANA)).filteredOn(m -> m.value().equals("nurse")).singleElement()
                .satisfies(m -> assertThat(m.status()).isEqualTo(MemoryStatus.SUPERSEDED));
    }

    @Test
    void a_negation_supersedes_only_that_value_of_a_multi_valued_subject() {
        Obs.write(store,
                Obs.fact(ANA, "pen", "user.allergy", "penicillin", "I'm allergic to penicillin").at(day(0)),
                Obs.fact(ANA, "dip", "user.allergy", "dipyrone", "I'm allergic to dipyrone").at(day(0)));
        nightOf(0);
        cycle.run(ANA);
        Obs.write(store, Obs.fact(ANA, "nopen", "user.allergy", "penicillin",
                "turns out I'm not allergic to penicillin after all").negative().at(day(20)));
        nightOf(20);

        DreamReport report = cycle.run(ANA);

        assertThat(report.superseded()).isEqualTo(1);
        assertThat(active(ANA)).extracting(Memory::value, Memory::polarity).containsExactlyInAnyOrder(
                org.assertj.core.groups.Tuple.tuple("dipyrone", Polarity.POSITIVE),
                org.assertj.core.groups.Tuple.tuple("penicillin", Polarity.NEGATIVE));
    }

    @Test
    void different_subjects_never_merge_however_similar_the_wording() {
        Obs.write(store,
                Obs.fact(ANA, "dip", "user.allergy", "dipyrone", "I am allergic to dipyrone").at(day(0)),
                Obs.fact(ANA, "pen", "user.allergy", "penicillin", "I am allergic to penicillin").at(day(0)),
                Obs.fact(ANA, "likes", "user.likes", "jazz", "I love jazz so much").at(day(0)),
                Obs.fact(ANA, "dislikes", "user.dislikes", "jazz", "I love jazz so much").at(day(0)));
        nightOf(0);

        DreamReport report = cycle.run(ANA);

        assertThat(report.duplicates()).isZero();
        assertThat(active(ANA)).filteredOn(m -> m.kind() != MemoryKind.SYNTHESIS).hasSize(4);
        assertThat(active(ANA)).filteredOn(m -> m.subject().equals("user.allergy")).extracting(Memory::value)
                .containsExactlyInAnyOrder("dipyrone", "penicillin");
        assertThat(active(ANA)).filteredOn(m -> m.subject().equals("user.allergy"))
                .allSatisfy(m -> assertThat(m.permanent()).isTrue());
    }

    @Test
    void a_memory_unseen_for_months_is_forgotten_while_a_recurring_one_stays() {
        Obs.write(store,
                Obs.fact(ANA, "guitar", "user.likes", "guitar", "I like playing guitar").kind(MemoryKind.PREFERENCE)
                        .at(day(0)),
                Obs.fact(ANA, "sushi", "user.likes", "sushi", "I like sushi").kind(MemoryKind.PREFERENCE).at(day(0)));
        nightOf(0);
        cycle.run(ANA);
        Memory sushi = activeWith(ANA, "sushi").orElseThrow();

        long forgotten = 0;
        long decayed = 0;
        for (int week = 1; week <= 26; week++) {
            if (week % 4 == 0) {
                Obs.write(store, Obs.fact(ANA, "guitar-" + week, "user.likes", "guitar", "I like playing guitar")
                        .kind(MemoryKind.PREFERENCE).session("s" + week).at(day(7 * week)));
            }
            nightOf(7 * week);
            DreamReport report = cycle.run(ANA);
            forgotten += report.forgotten();
            decayed += report.decayed();
        }

        assertThat(decayed).isPositive();
        assertThat(forgotten).isEqualTo(1);
        assertThat(store.memory(ANA, sushi.id())).isEmpty();
        assertThat(store.history(ANA, sushi.id())).last().satisfies(e -> {
            assertThat(e.type()).isEqualTo(MemoryEventType.FORGOTTEN);
            assertThat(e.cause()).isEqualTo("decay");
        });
        assertThat(store.history(ANA, sushi.id())).extracting(MemoryEvent::type).contains(MemoryEventType.DECAYED);
        Memory guitar = activeWith(ANA, "guitar").orElseThrow();
        assertThat(guitar.reinforcementCount()).isEqualTo(7);
        assertThat(guitar.importance()).isGreaterThan(MemoryPolicy.defaults().forgetFloor());
    }

    @Test
    void a_memory_past_its_ttl_is_forgotten_with_cause_ttl() {
        cycle = cycle(MemoryPolicy.defaults().toBuilder().ttl(MemoryKind.PREFERENCE, Duration.ofDays(10)).build());
        Obs.write(store, Obs.fact(ANA, "tea", "user.likes", "tea", "I like green tea").kind(MemoryKind.PREFERENCE)
                .at(day(0)));
        nightOf(0);
        cycle.run(ANA);
        Memory tea = only(ANA, "user.likes");
        assertThat(tea.expiresAt()).isEqualTo(clock.instant().plus(Duration.ofDays(10)));

        nightOf(11);
        DreamReport report = cycle.run(ANA);

        assertThat(report.forgotten()).isEqualTo(1);
        assertThat(store.history(ANA, tea.id())).last().extracting(MemoryEvent::cause).isEqualTo("ttl");
    }

    @Test
    void identical_sentences_of_two_users_never_merge() {
        Obs.write(store, Obs.fact(ANA, "x", "user.allergy", "dipyrone", "I'm allergic to dipyrone").at(day(0)));
        Obs.write(store, Obs.fact(BRUNO, "x", "user.allergy", "dipyrone", "I'm allergic to dipyrone").at(day(0)));
        nightOf(0);

        DreamReport report = cycle.runAll("clinic-42", "receptionist", DreamListener.NONE);

        assertThat(report.endUsers()).isEqualTo(2);
        assertThat(report.promoted()).isEqualTo(2);
        assertThat(report.duplicates()).isZero();
        Memory a = only(ANA, "user.allergy");
        Memory b = only(BRUNO, "user.allergy");
        assertThat(a.scope()).isEqualTo(ANA);
        assertThat(b.scope()).isEqualTo(BRUNO);
        assertThat(a.reinforcementCount()).isEqualTo(1);
        assertThat(b.reinforcementCount()).isEqualTo(1);
    }

    @Test
    void third_party_content_is_never_permanent_and_weighs_less() {
        Obs.write(store, Obs.fact(ANA, "tool", "user.allergy", "latex", "Record says: allergic to latex")
                .thirdParty().at(day(0)));
        nightOf(0);

        cycle.run(ANA);

        Memory latex = only(ANA, "user.allergy");
        assertThat(latex.permanent()).isFalse();
        assertThat(latex.expiresAt()).isNotNull();
        assertThat(latex.importance()).isLessThanOrEqualTo(MemoryPolicy.defaults().importanceSignals().allergy() * 0.5);
    }

    @Test
    void first_hand_confirmation_makes_third_party_content_first_party() {
        Obs.write(store, Obs.fact(ANA, "tool", "user.allergy", "latex", "Record says: allergic to latex")
                .thirdParty().at(day(0)));
        nightOf(0);
        cycle.run(ANA);
        Obs.write(store, Obs.fact(ANA, "me", "user.allergy", "latex", "I'm allergic to latex").at(day(1)));
        nightOf(1);

        cycle.run(ANA);

        Memory latex = only(ANA, "user.allergy");
        assertThat(latex.permanent()).isTrue();
        assertThat(latex.reinforcementCount()).isEqualTo(2);
    }

    @Test
    void only_the_users_own_words_supersede_a_permanent_allergy() {
        Obs.write(store, Obs.fact(ANA, "me", "user.allergy", "dipyrone", "I'm allergic to dipyrone").at(day(0)));
        nightOf(0);
        cycle.run(ANA);
        Memory allergy = only(ANA, "user.allergy");
        Obs.write(store,
                Obs.fact(ANA, "tool", "user.allergy", "dipyrone", "The patient is not allergic to dipyrone")
                        .negative().thirdParty().session("s2").at(day(1)),
                Obs.fact(ANA, "bot", "user.allergy", "dipyrone", "Not allergic to dipyrone anymore").negative()
                        .assistant().session("s2").at(day(1)));
        nightOf(1);

        cycle.run(ANA);

        assertThat(store.memory(ANA, allergy.id()).orElseThrow().status()).isEqualTo(MemoryStatus.ACTIVE);
        assertThat(all(ANA)).filteredOn(m -> m.status() == MemoryStatus.SUPERSEDED).isEmpty();
        assertThat(all(ANA)).filteredOn(m -> !m.id().equals(allergy.id())).noneMatch(Memory::permanent);

        Obs.write(store, Obs.fact(ANA, "me2", "user.allergy", "dipyrone", "I'm not allergic to dipyrone anymore")
                .negative().session("s3").at(day(2)));
        nightOf(2);
        cycle.run(ANA);

        assertThat(store.memory(ANA, allergy.id()).orElseThrow().status()).isEqualTo(MemoryStatus.SUPERSEDED);
    }

    /**
     * "I don't live in Porto anymore" ends Porto, not Lisbon: a negative single-valued fact contradicts
     * only the memory of its own value, while a positive one replaces whatever value was there.
     */
    @Test
    void a_negative_single_fact_ends_only_its_own_value() {
        Obs.write(store, Obs.fact(ANA, "lisbon", "user.location", "Lisbon", "I live in Lisbon").single().at(day(0)),
                Obs.fact(ANA, "google", "user.employer", "Google", "I work at Google").single().at(day(0)));
        nightOf(0);
        cycle.run(ANA);
        Memory lisbon = only(ANA, "user.location");
        Memory google = only(ANA, "user.employer");

        Obs.write(store,
                Obs.fact(ANA, "porto", "user.location", "Porto", "I don't live in Porto anymore").single().negative()
                        .at(day(3)),
                Obs.fact(ANA, "google2", "user.employer", "Google", "I got fired from Google").single().negative()
                        .at(day(3)));
        nightOf(3);
        DreamReport report = cycle.run(ANA);

        assertThat(store.memory(ANA, lisbon.id()).orElseThrow().status()).isEqualTo(MemoryStatus.ACTIVE);
        assertThat(store.memory(ANA, google.id()).orElseThrow().status()).isEqualTo(MemoryStatus.SUPERSEDED);
        assertThat(report.superseded()).isEqualTo(1);
        assertThat(active(ANA)).filteredOn(m -> m.subject().equals("user.location"))
                .extracting(Memory::value, Memory::polarity)
                .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("Lisbon", Polarity.POSITIVE),
                        org.assertj.core.groups.Tuple.tuple("Porto", Polarity.NEGATIVE));
    }

    /**
     * A negative fact ends the positive memory whose value contains its own ("I'm no longer a teacher"
     * ends "high school teacher"); a positive one ends the negative of its own value only ("call me
     * Johnny" ends "don't call me Johnny", never "don't call me Jack").
     */
    @Test
    void a_negative_ends_a_value_that_contains_its_own_and_a_positive_only_its_own_negative() {
        Obs.write(store,
                Obs.fact(ANA, "job", "user.job", "high school teacher", "I'm a high school teacher").single()
                        .at(day(0)),
                Obs.fact(ANA, "jack", "user.address_as", "Jack", "Don't call me Jack").single().negative().at(day(0)),
                Obs.fact(ANA, "johnny0", "user.address_as", "Johnny", "Don't call me Johnny").single().negative()
                        .at(day(0)));
        nightOf(0);
        cycle.run(ANA);
        Memory teacher = only(ANA, "user.job");

        Obs.write(store,
                Obs.fact(ANA, "nojob", "user.job", "teacher", "I'm no longer a teacher").single().negative().at(day(3)),
                Obs.fact(ANA, "johnny", "user.address_as", "Johnny", "Call me Johnny").single().at(day(3)));
        nightOf(3);
        cycle.run(ANA);

        assertThat(store.memory(ANA, teacher.id()).orElseThrow().status()).isEqualTo(MemoryStatus.SUPERSEDED);
        assertThat(active(ANA)).filteredOn(m -> m.subject().equals("user.address_as"))
                .extracting(Memory::value, Memory::polarity)
                .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("Jack", Polarity.NEGATIVE),
                        org.assertj.core.groups.Tuple.tuple("Johnny", Polarity.POSITIVE));
    }

    @Test
    void a_named_speakers_facts_never_supersede_another_speakers() {
        Obs.write(store,
                Obs.fact(ANA, "c1", "priya.location", "Boston", "Priya lives in Boston").single().at(day(0)),
                Obs.fact(ANA, "m1", "lena.location", "Denver", "Lena lives in Denver").single().at(day(1)),
                Obs.episode(ANA, "c2", "Priya: I painted a lake sunrise with my kids last weekend")
                        .subject("priya.episode.1").at(day(1)),
                Obs.episode(ANA, "m2", "Lena: I painted a lake sunrise with my kids last weekend")
                        .subject("lena.episode.1").at(day(1)));
        nightOf(1);

        DreamReport report = cycle.run(ANA);

        assertThat(report.superseded()).isZero();
        assertThat(report.duplicates()).isZero();
        assertThat(only(ANA, "priya.location").value()).isEqualTo("Boston");
        assertThat(only(ANA, "lena.location").value()).isEqualTo("Denver");
        assertThat(active(ANA)).extracting(Memory::subject).contains("priya.episode.1", "lena.episode.1");
    }

    @Test
    void a_synthesis_of_third_party_content_stays_third_party() {
        for (int week = 0; week < 3; week++) {
            Obs.write(store, Obs.fact(ANA, "rec-" + week, "tool.episode.rec", "",
                    "ehr: referral for the knee to Okafor at the Lisbon clinic").kind(MemoryKind.EVENT)
                    .thirdParty().session("s" + week).at(day(7 * week)));
            nightOf(7 * week);
            cycle.run(ANA);
        }
        Obs.write(store, Obs.fact(ANA, "knee", "user.health", "knee pain",
                "I have knee pain and I see Okafor next week").session("s9").at(day(15)));
        nightOf(15);

        cycle.run(ANA);

        assertThat(only(ANA, "tool.episode.rec").provenance().trust()).isEqualTo(Trust.THIRD_PARTY);
        Memory synthesis = active(ANA).stream().filter(m -> m.kind() == MemoryKind.SYNTHESIS).findFirst()
                .orElseThrow();
        assertThat(synthesis.text()).contains("Okafor");
        assertThat(synthesis.provenance().trust()).as("a synthesis takes the weakest trust of its sources")
                .isEqualTo(Trust.THIRD_PARTY);
        assertThat(synthesis.permanent()).isFalse();
    }

    @Test
    void a_synthesis_takes_the_failed_outcome_of_a_source() {
        Obs.write(store,
                Obs.fact(ANA, "sis", "user.family.sister", "Marta", "My sister Marta lives in Porto").at(day(0)),
                Obs.fact(ANA, "trip", "user.plan", "visit", "I will visit Marta in Porto next month")
                        .kind(MemoryKind.EVENT).at(day(0)));
        nightOf(0);
        cycle.run(ANA);
        Memory plan = only(ANA, "user.plan");
        store.write(dev.reverie.spi.WriteBatch.of(ANA).put(plan.toBuilder()
                .provenance(plan.provenance().withOutcome(Outcome.FAILED)).build()));
        Memory old = active(ANA).stream().filter(m -> m.kind() == MemoryKind.SYNTHESIS).findFirst().orElseThrow();
        store.write(dev.reverie.spi.WriteBatch.of(ANA).deleteMemory(old.id()));
        nightOf(1);

        cycle.run(ANA);

        assertThat(active(ANA)).filteredOn(m -> m.kind() == MemoryKind.SYNTHESIS).singleElement()
                .satisfies(m -> assertThat(m.provenance().outcome()).isEqualTo(Outcome.FAILED));
    }

    @Test
    void content_of_a_failed_run_alone_is_never_promoted() {
        Obs.write(store,
                Obs.fact(ANA, "f1", "user.allergy", "aspirin", "I'm allergic to aspirin").failed().session("s1").at(day(0)),
                Obs.fact(ANA, "f2", "user.job", "pilot", "I'm a pilot").single().failed().session("s1").at(day(0)),
                Obs.fact(ANA, "f3", "user.job", "pilot", "I'm a pilot").single().failed().session("s2").at(day(1)),
                Obs.fact(ANA, "f4", "user.job", "pilot", "I'm a pilot").single().failed().session("s3").at(day(2)));
        nightOf(2);

        DreamReport report = cycle.run(ANA);

        assertThat(report.promoted()).isZero();
        assertThat(all(ANA)).isEmpty();

        Obs.write(store, Obs.fact(ANA, "ok", "user.allergy", "aspirin", "I'm allergic to aspirin").session("s4")
                .at(day(3)));
        nightOf(3);
        cycle.run(ANA);
        assertThat(only(ANA, "user.allergy").value()).isEqualTo("aspirin");
    }

    @Test
    void a_weak_statement_said_in_three_sessions_across_nights_is_always_promoted() {
        MemoryPolicy strict = MemoryPolicy.defaults().toBuilder().importanceCutoff(60).build();
        cycle = cycle(strict);
        String text = "we had pizza for dinner";
        assertThat(new Importance(strict).signal(MemoryKind.EVENT, "user.event", text))
                .as("the statement alone is below the cutoff").isLessThan(60);
        for (int night = 0; night < 3; night++) {
            Obs.write(store, Obs.fact(ANA, "p" + night, "user.event", "pizza dinner", text).kind(MemoryKind.EVENT)
                    .session("s" + night).at(day(night)));
            nightOf(night);
            DreamReport report = cycle.run(ANA);
            assertThat(report.promoted()).as("night %d", night).isEqualTo(night < 2 ? 0 : 1);
        }

        Memory pizza = active(ANA).get(0);
        assertThat(active(ANA)).hasSize(1);
        assertThat(pizza.text()).isEqualTo(text);
        assertThat(pizza.reinforcementCount()).as("every time it was said").isEqualTo(3);
        assertThat(pizza.sourceTurnIds()).containsExactly("t-p0", "t-p1", "t-p2");
    }

    @Test
    void consolidated_and_discarded_observations_are_pruned_after_the_retention_period() {
        Obs.write(store,
                Obs.fact(ANA, "keep", "user.likes", "tea", "I like tea").at(day(0)),
                Obs.episode(ANA, "drop", "ok see you").at(day(0)));
        nightOf(0);
        assertThat(cycle.run(ANA).pruned()).isZero();
        nightOf(7);
        assertThat(cycle.run(ANA).pruned()).isZero();

        nightOf(8);
        DreamReport report = cycle.run(ANA);

        assertThat(report.pruned()).isEqualTo(2);
        assertThat(store.observations(ANA, dev.reverie.ObservationFilter.all())).isEmpty();
        assertThat(only(ANA, "user.likes").sourceTurnIds()).containsExactly("t-keep");
    }

    @Test
    void pending_observations_are_never_pruned_however_old() {
        Obs.write(store, Obs.fact(ANA, "old", "user.likes", "tea", "I like tea").at(day(0)));
        clock.set(day(100));

        DreamReport report = cycle.run(ANA);

        assertThat(report.pruned()).isZero();
        assertThat(report.promoted()).isEqualTo(1);
        assertThat(observation(ANA, "old").status()).isEqualTo(ObservationStatus.CONSOLIDATED);
        assertThat(observation(ANA, "old").consolidatedAt()).isEqualTo(day(100));
    }
}
