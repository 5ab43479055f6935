package dev.reverie.dream;

import dev.reverie.Memory;
import dev.reverie.MemoryEvent;
import dev.reverie.MemoryEventType;
import dev.reverie.MemoryKind;
import dev.reverie.MemoryStatus;
import dev.reverie.Observation;
import dev.reverie.ObservationStatus;
import dev.reverie.Scope;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Invariants over seeded random streams of observations for several users across simulated weeks:
 * idempotence, report counts equal to store deltas, no write outside the user being dreamed, and
 * different subjects never merged.
 */
class DreamPropertiesTest extends DreamFixture {

    private static final List<Scope> USERS = List.of(ANA, BRUNO, Scope.of("clinic-42", "receptionist", "carla"));

    /** A subject the generator draws from: key, kind, single-valued, possible values and sentence templates. */
    private record Subject(String key, MemoryKind kind, boolean single, List<String> values, List<String> templates) { }

    private static final List<Subject> SUBJECTS = List.of(
            new Subject("user.name", MemoryKind.FACT, true, List.of("Ana", "Bia"),
                    List.of("My name is %s", "Call me %s", "I'm %s")),
            new Subject("user.location", MemoryKind.FACT, true, List.of("Recife", "Lisbon", "Porto"),
                    List.of("I live in %s", "I moved to %s", "%s is home now")),
            new Subject("user.job", MemoryKind.FACT, true, List.of("nurse", "teacher"),
                    List.of("I work as a %s", "I'm a %s")),
            new Subject("user.family.sister", MemoryKind.FACT, true, List.of("Marta", "Joana"),
                    List.of("My sister %s lives nearby", "my sister is %s")),
            new Subject("user.allergy", MemoryKind.FACT, false, List.of("penicillin", "dipyrone", "latex"),
                    List.of("I'm allergic to %s", "allergic to %s", "I am allergic to %s")),
            new Subject("user.likes", MemoryKind.PREFERENCE, false, List.of("jazz", "tea", "sushi", "hiking"),
                    List.of("I like %s", "I really love %s", "%s is my favourite")),
            new Subject("user.dislikes", MemoryKind.PREFERENCE, false, List.of("jazz", "cilantro"),
                    List.of("I like %s", "I can't stand %s")),
            new Subject("user.pet", MemoryKind.FACT, false, List.of("dog Rex", "cat Tom"),
                    List.of("I have a %s", "my %s is great")),
            new Subject("user.plan", MemoryKind.EVENT, false, List.of("trip to Rome", "dentist on Friday"),
                    List.of("I have a %s next month", "planning a %s")),
            new Subject("user.style.length", MemoryKind.STYLE, true, List.of("short", "long"),
                    List.of("keep answers %s", "%s answers please")));
    private static final List<String> EPISODES = List.of("I went to a support group yesterday",
            "I went to a support group yesterday!", "I'm painting a sunrise", "I ran a charity race last Saturday",
            "ok see you", "I'll be 10 minutes late", "Thanks!", "We visited Marta and cooked together",
            "I bought a new bike for the trip to Rome", "running late", "I finished my first marathon in March");

    private int sequence;

    @ParameterizedTest
    @ValueSource(longs = {1, 7, 42})
    void the_cycle_is_idempotent_exact_in_its_counts_and_scoped(long seed) {
        Random random = new Random(seed);
        FaultyStore guarded = new FaultyStore(store);
        cycle = DreamCycle.builder(guarded).clock(clock).build();
        Map<String, Observation> written = new HashMap<>();
        Map<Scope, Set<String>> memoryIds = new HashMap<>();
        USERS.forEach(u -> memoryIds.put(u, new HashSet<>()));
        int observations = 0;

        for (int dayIndex = 0; dayIndex < 70; dayIndex += 1 + random.nextInt(4)) {
            for (Scope user : USERS) {
                if (random.nextInt(3) == 0) {
                    continue;
                }
                String session = "s" + dayIndex + "-" + random.nextInt(2);
                List<Observation> batch = new ArrayList<>();
                for (int i = 0, n = 1 + random.nextInt(8); i < n; i++) {
                    Observation o = generate(random, user, session, day(dayIndex).plusSeconds(60L * i));
                    batch.add(o);
                    written.put(user + "/" + o.id(), o);
                }
                Obs.write(store, batch.toArray(new Observation[0]));
                observations += batch.size();
            }
            nightOf(dayIndex);
            for (Scope user : USERS) {
                // every id a memory of this user may have: seen before, or about to be promoted tonight
                Set<String> known = memoryIds.get(user);
                for (Observation o : store.observations(user, dev.reverie.ObservationFilter.pending())) {
                    known.add(Ids.memory(o.id()));
                }
                Snapshot before = Snapshot.of(store, user, known);
                Map<Scope, Snapshot> othersBefore = others(user);
                guarded.expectOnly(user);
                DreamReport report = cycle.run(user);
                guarded.expectOnly(null);
                memoryIds.get(user).addAll(Snapshot.rows(store, user).memories().keySet());
                Snapshot after = Snapshot.of(store, user, memoryIds.get(user));

                assertCountsMatch(report, before, after, clock.instant());
                assertThat(others(user)).as("other users untouched by %s's cycle", user).isEqualTo(othersBefore);

                DreamReport again = cycle.run(user);
                assertThat(again.changedNothing()).as("rerun at the same clock: %s", again).isTrue();
                assertThat(Snapshot.of(store, user, memoryIds.get(user))).isEqualTo(after);
            }
        }

        assertThat(observations).isGreaterThan(150);
        for (Scope user : USERS) {
            for (Memory m : all(user)) {
                assertThat(m.scope()).isEqualTo(user);
                if (m.kind() == MemoryKind.SYNTHESIS) {
                    continue;
                }
                for (String source : m.sourceObservationIds()) {
                    Observation o = written.get(user + "/" + source);
                    assertThat(o).as("source %s of %s is %s's own", source, m.id(), user).isNotNull();
                    assertThat(Text.sameFamily(o.subject(), m.subject()))
                            .as("memory %s (%s) built from %s (%s)", m.id(), m.subject(), o.id(), o.subject()).isTrue();
                }
            }
        }
    }

    private Observation generate(Random random, Scope user, String session, Instant at) {
        String id = "o" + (sequence++);
        if (random.nextInt(3) == 0) {
            return Obs.episode(user, id, EPISODES.get(random.nextInt(EPISODES.size()))).session(session).at(at).build();
        }
        Subject s = SUBJECTS.get(random.nextInt(SUBJECTS.size()));
        String value = s.values().get(random.nextInt(s.values().size()));
        String text = String.format(s.templates().get(random.nextInt(s.templates().size())), value);
        Obs o = Obs.fact(user, id, s.key(), value, text).kind(s.kind()).session(session).at(at);
        if (s.single()) {
            o.single();
        }
        if (!s.single() && random.nextInt(8) == 0) {
            o.negative().text("I no longer " + text);
        }
        if (random.nextInt(10) == 0) {
            o.thirdParty();
        }
        if (random.nextInt(20) == 0) {
            o.failed();
        }
        return o.build();
    }

    private Map<Scope, Snapshot> others(Scope user) {
        Map<Scope, Snapshot> out = new HashMap<>();
        for (Scope u : USERS) {
            if (!u.equals(user)) {
                out.put(u, Snapshot.rows(store, u));
            }
        }
        return out;
    }

    private static void assertCountsMatch(DreamReport r, Snapshot before, Snapshot after, Instant now) {
        long newlyDiscarded = 0;
        long newlyConsolidated = 0;
        for (Observation o : after.observations().values()) {
            Observation was = before.observations().get(o.id());
            if (was != null && was.status() != o.status()) {
                newlyDiscarded += o.status() == ObservationStatus.DISCARDED ? 1 : 0;
                newlyConsolidated += o.status() == ObservationStatus.CONSOLIDATED ? 1 : 0;
            }
        }
        long prunedRows = before.observations().keySet().stream()
                .filter(id -> !after.observations().containsKey(id)).count();
        assertThat(newlyDiscarded).as("DISCARDED delta of %s", r).isEqualTo(r.duplicates() + r.discarded());
        assertThat(newlyConsolidated).as("CONSOLIDATED delta of %s", r).isEqualTo(r.promoted() + r.styled());
        assertThat(prunedRows).as("pruned of %s", r).isEqualTo(r.pruned());
        assertThat(r.considered()).isEqualTo(r.promoted() + r.styled() + r.discarded());
        assertThat(after.memories(MemoryStatus.ACTIVE)).as("rem_after of %s", r).isEqualTo(r.remAfter());

        long becameSuperseded = 0;
        long becameDeprecated = 0;
        long newSyntheses = 0;
        for (Memory m : after.memories().values()) {
            Memory was = before.memories().get(m.id());
            if ((was == null || was.status() != m.status())) {
                becameSuperseded += m.status() == MemoryStatus.SUPERSEDED ? 1 : 0;
                becameDeprecated += m.status() == MemoryStatus.DEPRECATED ? 1 : 0;
                newSyntheses += m.kind() == MemoryKind.SYNTHESIS && m.status() == MemoryStatus.ACTIVE ? 1 : 0;
            }
        }
        long forgottenEvents = events(after, MemoryEventType.FORGOTTEN, now);
        long vanished = before.memories().keySet().stream().filter(id -> !after.memories().containsKey(id)).count();
        assertThat(becameSuperseded).as("superseded of %s", r).isEqualTo(r.superseded());
        assertThat(becameDeprecated).as("deprecated of %s", r).isEqualTo(r.deprecated());
        assertThat(newSyntheses).as("synthesized of %s", r).isEqualTo(r.synthesized());
        assertThat(events(after, MemoryEventType.CREATED, now) + events(after, MemoryEventType.RESTORED, now)
                - r.synthesized())
                .as("created memories of %s", r).isEqualTo(r.promoted() - r.reinforced());
        assertThat(events(after, MemoryEventType.REINFORCED, now)).isEqualTo(r.reinforced());
        assertThat(events(after, MemoryEventType.DECAYED, now)).as("decayed of %s", r).isEqualTo(r.decayed());
        assertThat(forgottenEvents).as("forgotten of %s", r).isEqualTo(r.forgotten());
        assertThat(vanished).isLessThanOrEqualTo(forgottenEvents);
    }

    private static long events(Snapshot s, MemoryEventType type, Instant at) {
        return s.history().values().stream().flatMap(List::stream)
                .filter(e -> e.type() == type && e.at().equals(at)).count();
    }
}
