package dev.reverie.dream;

import dev.reverie.Memory;
import dev.reverie.MemoryEvent;
import dev.reverie.MemoryEventType;
import dev.reverie.MemoryKind;
import dev.reverie.MemoryPolicy;
import dev.reverie.MemoryStatus;
import dev.reverie.ObservationStatus;
import dev.reverie.Provenance;
import dev.reverie.Role;
import dev.reverie.StyleProfile;
import dev.reverie.spi.SessionTurn;
import dev.reverie.spi.WriteBatch;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** REM: decay, forgetting, deprecation, syntheses and the style profile. */
class RemTest extends DreamFixture {

    @Test
    void decay_follows_the_half_life_from_the_last_reinforcement_and_does_not_compound() {
        Obs.write(store, Obs.fact(ANA, "tea", "user.likes", "tea", "I like green tea").kind(MemoryKind.PREFERENCE)
                .at(day(0)));
        clock.set(day(0));
        cycle.run(ANA);
        Memory fresh = only(ANA, "user.likes");
        assertThat(fresh.importance()).isEqualTo(MemoryPolicy.defaults().importanceSignals().likes());

        for (int d = 1; d <= 30; d++) {
            clock.set(day(d));
            cycle.run(ANA);
        }
        Memory daily = only(ANA, "user.likes");

        assertThat(daily.importance()).isCloseTo(MemoryPolicy.defaults().importanceSignals().likes() / 2, within(0.01));
        List<MemoryEvent> decays = store.history(ANA, fresh.id()).stream()
                .filter(e -> e.type() == MemoryEventType.DECAYED).toList();
        assertThat(decays).as("one write per point lost, not one per night").hasSizeBetween(20, 30);
        assertThat(decays).allSatisfy(e -> assertThat(e.cause()).isEqualTo("decay"));
    }

    @Test
    void running_twice_at_the_same_clock_changes_nothing_the_second_time() {
        Obs.write(store,
                Obs.fact(ANA, "tea", "user.likes", "tea", "I like green tea with Marta").kind(MemoryKind.PREFERENCE)
                        .at(day(0)),
                Obs.fact(ANA, "marta", "user.family.sister", "Marta", "My sister Marta lives in Porto").at(day(0)),
                Obs.of(ANA, "short").kind(MemoryKind.STYLE).subject("user.style.length").value("short")
                        .text("keep it short please").at(day(0)));
        nightOf(0);
        cycle.run(ANA);
        nightOf(45);
        DreamReport first = cycle.run(ANA);
        Snapshot before = Snapshot.of(store, ANA);

        DreamReport second = cycle.run(ANA);

        assertThat(first.decayed()).isPositive();
        assertThat(second.changedNothing()).as("second report %s", second).isTrue();
        assertThat(Snapshot.of(store, ANA)).isEqualTo(before);
    }

    @Test
    void a_reference_that_no_longer_exists_deprecates_the_memory_with_its_reason() {
        cycle = DreamCycle.builder(store).clock(clock).referenceValidator(m -> m.text().contains("config.yml")
                ? Optional.of("file config.yml was deleted") : Optional.empty()).build();
        Obs.write(store,
                Obs.fact(ANA, "cfg", "user.skill", "config", "I keep my settings in config.yml").kind(MemoryKind.SKILL)
                        .at(day(0)),
                Obs.fact(ANA, "ok", "user.skill", "java", "I program in Java").kind(MemoryKind.SKILL).at(day(0)));
        nightOf(0);

        DreamReport report = cycle.run(ANA);

        assertThat(report.deprecated()).isEqualTo(1);
        assertThat(report.remAfter()).isEqualTo(1);
        Memory cfg = all(ANA).stream().filter(m -> m.text().contains("config")).findFirst().orElseThrow();
        assertThat(cfg.status()).isEqualTo(MemoryStatus.DEPRECATED);
        assertThat(store.history(ANA, cfg.id())).last().satisfies(e -> {
            assertThat(e.type()).isEqualTo(MemoryEventType.DEPRECATED);
            assertThat(e.cause()).isEqualTo("file config.yml was deleted");
        });
        assertThat(cycle.run(ANA).deprecated()).isZero();
    }

    @Test
    void a_memory_not_used_in_the_last_sessions_is_deprecated_but_identity_stays() {
        cycle = cycle(MemoryPolicy.defaults().toBuilder().unusedSessions(3).build());
        Obs.write(store,
                Obs.fact(ANA, "tea", "user.likes", "tea", "I like green tea").at(day(0)),
                Obs.fact(ANA, "jazz", "user.likes", "jazz", "I like jazz").at(day(0)),
                Obs.fact(ANA, "name", "user.name", "Ana", "My name is Ana").single().at(day(0)));
        nightOf(0);
        cycle.run(ANA);
        Memory jazz = activeWith(ANA, "jazz").orElseThrow();
        store.write(WriteBatch.of(ANA).put(jazz.toBuilder().retrievalCount(1).lastRetrievedAt(day(3)).build()));
        for (int s = 1; s <= 3; s++) {
            store.write(WriteBatch.of(ANA).append(new SessionTurn(ANA, "session-" + s, 0, "turn-" + s, Role.USER,
                    null, "hello again", day(s))));
        }
        nightOf(3);

        DreamReport report = cycle.run(ANA);

        assertThat(report.deprecated()).isEqualTo(1);
        assertThat(all(ANA)).filteredOn(m -> m.text().contains("tea")).singleElement()
                .satisfies(m -> assertThat(m.status()).isEqualTo(MemoryStatus.DEPRECATED));
        assertThat(store.history(ANA, all(ANA).stream().filter(m -> m.text().contains("tea")).findFirst()
                .orElseThrow().id())).last().extracting(MemoryEvent::cause)
                .isEqualTo("not recalled in the last 3 sessions");
        assertThat(activeWith(ANA, "jazz")).as("recalled during the last sessions").isPresent();
        assertThat(only(ANA, "user.name").permanent()).isTrue();
    }

    @Test
    void without_any_recorded_recall_nothing_is_deprecated_as_unused() {
        cycle = cycle(MemoryPolicy.defaults().toBuilder().unusedSessions(2).build());
        Obs.write(store, Obs.fact(ANA, "tea", "user.likes", "tea", "I like green tea").at(day(0)));
        nightOf(0);
        cycle.run(ANA);
        for (int s = 1; s <= 5; s++) {
            store.write(WriteBatch.of(ANA).append(new SessionTurn(ANA, "session-" + s, 0, "turn-" + s, Role.USER,
                    null, "hello", day(s))));
        }
        nightOf(5);

        assertThat(cycle.run(ANA).deprecated()).isZero();
        assertThat(only(ANA, "user.likes").status()).isEqualTo(MemoryStatus.ACTIVE);
    }

    @Test
    void a_recent_recall_keeps_a_memory_from_being_deprecated_as_unused() {
        cycle = cycle(MemoryPolicy.defaults().toBuilder().unusedSessions(2).build());
        Obs.write(store, Obs.fact(ANA, "tea", "user.likes", "tea", "I like green tea").at(day(0)));
        nightOf(0);
        cycle.run(ANA);
        Memory tea = only(ANA, "user.likes");
        store.write(WriteBatch.of(ANA).put(tea.toBuilder().retrievalCount(1).lastRetrievedAt(day(3)).build()));
        for (int s = 1; s <= 2; s++) {
            store.write(WriteBatch.of(ANA).append(new SessionTurn(ANA, "session-" + s, 0, "turn-" + s, Role.USER,
                    null, "hello", day(1 + s))));
        }
        nightOf(3);

        assertThat(cycle.run(ANA).deprecated()).isZero();
    }

    @Test
    void memories_sharing_a_name_get_one_synthesis_that_is_never_duplicated() {
        Obs.write(store,
                Obs.fact(ANA, "sis", "user.family.sister", "Marta", "My sister Marta lives in Porto").turns("D1:2")
                        .at(day(0)),
                Obs.episode(ANA, "trip", "I visited Marta last weekend and we cooked together").turns("D1:5")
                        .at(day(0)),
                Obs.fact(ANA, "job", "user.job", "nurse", "I work as a nurse").single().turns("D1:6").at(day(0)));
        nightOf(0);

        DreamReport report = cycle.run(ANA);

        assertThat(report.synthesized()).isEqualTo(1);
        Memory synthesis = active(ANA).stream().filter(m -> m.kind() == MemoryKind.SYNTHESIS).findFirst().orElseThrow();
        assertThat(synthesis.text()).startsWith("Marta: ").contains("My sister Marta lives in Porto")
                .contains("I visited Marta last weekend");
        assertThat(synthesis.sourceTurnIds()).containsExactlyInAnyOrder("D1:2", "D1:5");
        assertThat(synthesis.provenance().source()).isEqualTo(dev.reverie.Source.DREAM);
        assertThat(synthesis.sourceObservationIds()).hasSize(2).isSorted();
        assertThat(synthesis.id()).isEqualTo(Ids.synthesis(synthesis.sourceObservationIds()));

        nightOf(1);
        assertThat(cycle.run(ANA).synthesized()).isZero();
        assertThat(active(ANA)).filteredOn(m -> m.kind() == MemoryKind.SYNTHESIS).hasSize(1);
    }

    @Test
    void memories_from_one_single_turn_are_not_synthesized() {
        Obs.write(store,
                Obs.fact(ANA, "sis", "user.family.sister", "Marta", "My sister Marta lives in Porto").turns("D1:2")
                        .at(day(0)),
                Obs.episode(ANA, "trip", "I visited Marta last weekend and we cooked together").turns("D1:2")
                        .at(day(0)));
        nightOf(0);

        DreamReport report = cycle.run(ANA);

        assertThat(report.synthesized()).isZero();
        assertThat(active(ANA)).noneMatch(m -> m.kind() == MemoryKind.SYNTHESIS);
    }

    @Test
    void a_sentence_initial_word_is_not_an_entity_even_after_a_speaker_prefix() {
        Obs.write(store,
                Obs.episode(ANA, "a", "Priya: Here is the painting I finished for the gallery show").turns("D1:1")
                        .at(day(0)),
                Obs.episode(ANA, "b", "Lena: Here is my new clay bowl from the class").turns("D1:2")
                        .subject("lena.episode.b").at(day(0)),
                Obs.episode(ANA, "c", "Life is busy with the kids and the new job these days. Thanks for asking")
                        .turns("D1:3").at(day(0)),
                Obs.episode(ANA, "d", "I keep telling myself every morning on the beach (\"Life is good\")")
                        .turns("D1:4").at(day(0)));
        nightOf(0);

        DreamReport report = cycle.run(ANA);

        assertThat(active(ANA)).hasSizeGreaterThanOrEqualTo(3);
        assertThat(active(ANA)).filteredOn(m -> m.kind() == MemoryKind.SYNTHESIS).extracting(Memory::text)
                .noneMatch(t -> t.startsWith("Here") || t.startsWith("Life") || t.startsWith("Thanks"));
        assertThat(report.synthesized()).isZero();
    }

    @Test
    void a_name_spoken_to_is_not_an_entity_but_the_same_name_spoken_about_is() {
        Obs.write(store,
                Obs.episode(ANA, "a", "Lena: Thanks, Priya, for listening to me rant about the move").turns("D1:1")
                        .at(day(0)),
                Obs.episode(ANA, "b", "Lena: Hey Priya, since we last spoke the twins started school")
                        .turns("D1:2").subject("lena.episode.b").at(day(0)),
                Obs.episode(ANA, "c", "Lena: Way to go, Priya! The bakery looks lovely").turns("D1:3")
                        .subject("lena.episode.c").at(day(0)),
                Obs.episode(ANA, "y", "Lena: Yep Priya, a little help goes a long way")
                        .turns("D1:4").subject("lena.episode.y").at(day(0)));
        nightOf(0);

        DreamReport addressed = cycle.run(ANA);

        assertThat(addressed.synthesized()).isZero();

        Obs.write(store,
                Obs.episode(ANA, "d", "I went hiking with Priya, who knows every trail in the park").turns("D2:1")
                        .at(day(1)),
                Obs.episode(ANA, "e", "My sister met Priya at the gallery opening").turns("D2:2")
                        .subject("user.episode.e").at(day(1)));
        nightOf(1);

        DreamReport spokenAbout = cycle.run(ANA);

        assertThat(spokenAbout.synthesized()).isEqualTo(1);
        Memory synthesis = active(ANA).stream().filter(m -> m.kind() == MemoryKind.SYNTHESIS).findFirst()
                .orElseThrow();
        assertThat(synthesis.text()).startsWith("Priya: ").contains("hiking").contains("gallery")
                .doesNotContain("vent").doesNotContain("school");
    }

    /**
     * A word of two different names is no entity: the Smoky and the Rocky Mountains share a word, not
     * a subject (even when "Rocky" starts its sentence), while two memories naming the same Rocky
     * Mountains are connected, under that name.
     */
    @Test
    void a_word_of_two_different_names_is_no_entity() {
        Obs.write(store,
                Obs.episode(ANA, "a", "Priya: I took that photo on my trip to the Smoky Mountains last year")
                        .turns("D1:1").subject("priya.episode.a").at(day(0)),
                Obs.episode(ANA, "b", "Lena: Rocky Mountains were stunning on my hike, and it was worth it")
                        .turns("D1:2").subject("lena.episode.b").at(day(0)));
        nightOf(0);

        assertThat(cycle.run(ANA).synthesized()).isZero();

        Obs.write(store,
                Obs.episode(ANA, "c", "Lena: We are going back to the Rocky Mountains with the twins in May")
                        .turns("D2:1").subject("lena.episode.c").at(day(1)),
                Obs.fact(ANA, "d", "user.favorite.place", "Rocky Mountains",
                        "My favorite place is the Rocky Mountains").turns("D2:2").at(day(1)));
        nightOf(1);

        cycle.run(ANA);

        assertThat(active(ANA)).filteredOn(m -> m.kind() == MemoryKind.SYNTHESIS).extracting(Memory::text)
                .singleElement().satisfies(t -> assertThat(t).startsWith("Rocky Mountains: ")
                        .contains("stunning on my hike").contains("going back").doesNotContain("Smoky"));
    }

    /**
     * The value of a like in the infinitive ("to help") is an activity, not an entity: it would gather
     * every memory that uses the verb. A noun value ("hiking") still connects the memories naming it.
     */
    @Test
    void an_infinitive_value_is_no_entity_and_a_noun_value_is() {
        Obs.write(store,
                Obs.fact(ANA, "like", "user.likes", "to help", "User loves to help").turns("D1:1").at(day(0)),
                Obs.episode(ANA, "a", "Lena: Having a peaceful presence around could help relieve stress")
                        .turns("D1:2").subject("lena.episode.a").at(day(0)),
                Obs.episode(ANA, "b", "I hope the new schedule will help me get through the week").turns("D1:3")
                        .at(day(0)));
        nightOf(0);

        assertThat(cycle.run(ANA).synthesized()).isZero();

        Obs.write(store,
                Obs.fact(ANA, "hike", "user.likes", "hiking", "User loves hiking").turns("D2:1").at(day(1)),
                Obs.episode(ANA, "c", "Lena: We went hiking along the coast with the twins").turns("D2:2")
                        .subject("lena.episode.c").at(day(1)));
        nightOf(1);
        cycle.run(ANA);

        assertThat(active(ANA)).filteredOn(m -> m.kind() == MemoryKind.SYNTHESIS).extracting(Memory::text)
                .singleElement().satisfies(t -> assertThat(t).startsWith("hiking: ").contains("along the coast")
                        .doesNotContain("help"));
    }

    /** A name's short form, and a name whose first word starts a sentence, still connect to the full name. */
    @Test
    void a_name_connects_its_short_and_full_forms() {
        Obs.write(store,
                Obs.episode(ANA, "a", "Lena: Taylor Swift was amazing at the stadium").turns("D1:1")
                        .subject("lena.episode.a").at(day(0)),
                Obs.episode(ANA, "b", "I finally saw Taylor Swift live with my cousin").turns("D1:2").at(day(0)));
        nightOf(0);

        cycle.run(ANA);

        assertThat(active(ANA)).filteredOn(m -> m.kind() == MemoryKind.SYNTHESIS).extracting(Memory::text)
                .singleElement().satisfies(t -> assertThat(t).startsWith("Taylor Swift: ").contains("stadium")
                        .contains("cousin"));
    }

    @Test
    void a_quoted_sentence_start_and_a_weekday_abbreviation_are_not_entities() {
        Obs.write(store,
                Obs.fact(ANA, "horse", "user.pet", "horse", "Ana has a horse (\"Here's a sketch of my horse grazing\")")
                        .turns("D1:1").at(day(0)),
                Obs.episode(ANA, "b", "Lena: Here is my new clay bowl from the class").turns("D1:2")
                        .subject("lena.episode.b").at(day(0)),
                Obs.episode(ANA, "c", "Lena: Last Fri I finally took the twins to a clay workshop")
                        .turns("D1:3").at(day(0)),
                Obs.episode(ANA, "d", "Priya: See you on Fri at the gallery then").turns("D1:4")
                        .subject("priya.episode.d").at(day(0)),
                Obs.episode(ANA, "e", "Priya: She wrote \"Here we go again\" on the birthday card").turns("D1:5")
                        .subject("priya.episode.e").at(day(0)));
        nightOf(0);

        cycle.run(ANA);

        assertThat(active(ANA)).filteredOn(m -> m.kind() == MemoryKind.SYNTHESIS).extracting(Memory::text)
                .noneMatch(t -> t.startsWith("Here") || t.startsWith("Fri"));
    }

    @Test
    void a_synthesis_is_replaced_when_its_entity_gains_a_memory_and_deprecated_when_its_sources_go() {
        Obs.write(store,
                Obs.fact(ANA, "sis", "user.family.sister", "Marta", "My sister Marta lives in Porto").at(day(0)),
                Obs.episode(ANA, "trip", "I visited Marta last weekend and we cooked together").at(day(0)));
        nightOf(0);
        cycle.run(ANA);
        Memory first = active(ANA).stream().filter(m -> m.kind() == MemoryKind.SYNTHESIS).findFirst().orElseThrow();

        Obs.write(store, Obs.fact(ANA, "gift", "user.plan", "gift", "I will buy Marta a birthday gift next week")
                .kind(MemoryKind.EVENT).at(day(1)));
        nightOf(1);
        DreamReport grown = cycle.run(ANA);

        assertThat(grown.synthesized()).isEqualTo(1);
        assertThat(grown.superseded()).isEqualTo(1);
        assertThat(store.memory(ANA, first.id()).orElseThrow().status()).isEqualTo(MemoryStatus.SUPERSEDED);
        Memory second = active(ANA).stream().filter(m -> m.kind() == MemoryKind.SYNTHESIS).findFirst().orElseThrow();
        assertThat(second.sourceObservationIds()).hasSize(3);

        Obs.write(store,
                Obs.fact(ANA, "sis2", "user.family.sister", "Joana", "My sister is Joana, not Marta").single()
                        .at(day(2)));
        Memory sister = only(ANA, "user.family.sister");
        store.write(WriteBatch.of(ANA).put(sister.toBuilder().status(MemoryStatus.DEPRECATED).build()));
        Memory trip = activeWith(ANA, "visited").orElseThrow();
        store.write(WriteBatch.of(ANA).put(trip.toBuilder().status(MemoryStatus.DEPRECATED).build()));
        nightOf(2);

        DreamReport shrunk = cycle.run(ANA);

        assertThat(store.memory(ANA, second.id()).orElseThrow().status()).isEqualTo(MemoryStatus.DEPRECATED);
        assertThat(shrunk.deprecated()).isGreaterThanOrEqualTo(1);
    }

    @Test
    void style_observations_update_the_single_profile_never_one_row_each() {
        Obs.write(store,
                Obs.of(ANA, "s1").kind(MemoryKind.STYLE).subject("user.style.length").value("short")
                        .text("short answers please").at(day(0)),
                Obs.of(ANA, "s2").kind(MemoryKind.STYLE).subject("user.style.formality").value("informal")
                        .text("no need to be formal").at(day(0)),
                Obs.of(ANA, "s3").kind(MemoryKind.STYLE).subject("user.style.emoji").value("yes").text("👍 😀")
                        .at(day(0)),
                Obs.of(ANA, "tool").kind(MemoryKind.STYLE).subject("user.style.formality").value("formal")
                        .text("Respond formally").thirdParty().at(day(0)));
        nightOf(0);

        DreamReport report = cycle.run(ANA);

        assertThat(report.styled()).isEqualTo(3);
        assertThat(report.discarded()).isEqualTo(1);
        assertThat(all(ANA)).as("style never becomes L4 rows").isEmpty();
        StyleProfile profile = store.styleProfile(ANA).orElseThrow();
        assertThat(profile.preferredLength()).isEqualTo("short");
        assertThat(profile.formality()).isEqualTo("informal");
        assertThat(profile.emoji()).isTrue();
        assertThat(profile.observations()).isEqualTo(3);
        assertThat(profile.description()).isEqualTo("Prefers short answers; informal; uses emoji.");

        Obs.write(store, Obs.of(ANA, "s4").kind(MemoryKind.STYLE).subject("user.style.length").value("long")
                .text("give me the details").session("s2").at(day(1)));
        nightOf(1);
        cycle.run(ANA);

        StyleProfile updated = store.styleProfile(ANA).orElseThrow();
        assertThat(updated.preferredLength()).isEqualTo("long");
        assertThat(updated.formality()).isEqualTo("informal");
        assertThat(updated.observations()).isEqualTo(4);
        assertThat(observations(ANA, ObservationStatus.CONSOLIDATED)).hasSize(4);
    }

    @Test
    void operator_memories_keep_their_importance_and_expire_only_by_ttl() {
        Memory operator = Memory.builder("op-1", ANA, MemoryKind.FACT, "Prefers morning appointments", day(0))
                .subject("user.preference").importance(33).expiresAt(day(100)).provenance(Provenance.operator(day(0)))
                .build();
        store.write(WriteBatch.of(ANA).put(operator));
        nightOf(90);
        assertThat(cycle.run(ANA).decayed()).isZero();
        assertThat(store.memory(ANA, "op-1").orElseThrow().importance()).isEqualTo(33);

        nightOf(100);
        assertThat(cycle.run(ANA).forgotten()).isEqualTo(1);
        assertThat(store.history(ANA, "op-1")).last().extracting(MemoryEvent::cause).isEqualTo("ttl");
    }

    @Test
    void rem_before_and_after_count_active_memories() {
        cycle = cycle(MemoryPolicy.defaults().toBuilder().ttl(MemoryKind.FACT, Duration.ofDays(5)).build());
        Obs.write(store,
                Obs.fact(ANA, "a", "user.job", "nurse", "I work as a nurse").single().at(day(0)),
                Obs.fact(ANA, "b", "user.name", "Ana", "My name is Ana").single().at(day(0)));
        nightOf(0);
        DreamReport first = cycle.run(ANA);
        assertThat(first.remBefore()).isEqualTo(2);
        assertThat(first.remAfter()).isEqualTo(2);

        nightOf(6);
        DreamReport second = cycle.run(ANA);

        assertThat(second.remBefore()).isEqualTo(2);
        assertThat(second.forgotten()).isEqualTo(1);
        assertThat(second.remAfter()).isEqualTo(1).isEqualTo(count(ANA, MemoryStatus.ACTIVE));
    }
}
