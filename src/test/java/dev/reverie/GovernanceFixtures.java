package dev.reverie;

import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.SessionSummary;
import dev.reverie.spi.SessionTurn;
import dev.reverie.spi.WriteBatch;

import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Builders for governance tests: memories and observations written straight into a store. */
final class GovernanceFixtures {

    static final Instant T0 = Instant.parse("2026-03-01T09:00:00Z");

    private GovernanceFixtures() {
    }

    /** An ACTIVE USER memory derived from {@code turnIds}, its provenance naming the first turn. */
    static Memory memory(Scope scope, String id, String text, List<String> turnIds, Instant at) {
        String first = turnIds.isEmpty() ? null : turnIds.get(0);
        return Memory.builder(id, scope, MemoryKind.FACT, text, at)
                .subject("user.fact." + id)
                .importance(60)
                .provenance(new Provenance(Source.USER, "s1", first, at, Outcome.UNKNOWN, Trust.FIRST_PARTY))
                .sourceTurnIds(turnIds)
                .build();
    }

    /** A PENDING observation said in {@code turnId}. */
    static Observation observation(Scope scope, String id, String text, String turnId, Instant at) {
        return new Observation(id, scope, MemoryKind.FACT, text, "user.fact." + id, text.toLowerCase(),
                Cardinality.MULTI, Polarity.POSITIVE, 0.9, at, "s1",
                new Provenance(Source.USER, "s1", turnId, at, Outcome.UNKNOWN, Trust.FIRST_PARTY), List.of(turnId), 1,
                ObservationStatus.PENDING, null, null);
    }

    static void put(MemoryStore store, Scope scope, Object... items) {
        WriteBatch b = WriteBatch.of(scope);
        for (Object o : items) {
            if (o instanceof Memory m) {
                b.put(m);
            } else if (o instanceof Observation ob) {
                b.put(ob);
            } else if (o instanceof MemoryEvent e) {
                b.append(e);
            } else if (o instanceof StyleProfile p) {
                b.put(p);
            } else if (o instanceof SessionSummary s) {
                b.put(s);
            } else {
                throw new IllegalArgumentException("cannot put " + o);
            }
        }
        store.write(b);
    }

    /**
     * Every record the store holds for a scope, read through the SPI independently of the export
     * code: observations, memories, the history of each id in {@code memoryIds} (which may name
     * deleted memories), sessions with turns, summary and archive, and the style profile.
     */
    record Snapshot(List<Observation> observations, List<Memory> memories, Map<String, List<MemoryEvent>> history,
                    Map<String, List<SessionTurn>> turns, Map<String, Optional<SessionSummary>> summaries,
                    Map<String, List<SessionTurn>> archive, Optional<StyleProfile> style) {

        boolean isEmpty() {
            return observations.isEmpty() && memories.isEmpty() && history.values().stream().allMatch(List::isEmpty)
                    && turns.isEmpty() && style.isEmpty();
        }
    }

    static Snapshot snapshot(MemoryStore store, Scope scope, List<String> memoryIds) {
        Map<String, List<MemoryEvent>> history = new LinkedHashMap<>();
        for (String id : memoryIds) {
            history.put(id, store.history(scope, id));
        }
        Map<String, List<SessionTurn>> turns = new LinkedHashMap<>();
        Map<String, Optional<SessionSummary>> summaries = new LinkedHashMap<>();
        Map<String, List<SessionTurn>> archive = new LinkedHashMap<>();
        for (String s : store.sessions(scope)) {
            turns.put(s, store.sessionTurns(scope, s, 0, 100_000));
            summaries.put(s, store.sessionSummary(scope, s));
            archive.put(s, store.archivedTurns(scope, s));
        }
        return new Snapshot(store.observations(scope, ObservationFilter.all()),
                store.memories(scope, MemoryFilter.all()), history, turns, summaries, archive,
                store.styleProfile(scope));
    }

    /** Ids of every memory of the scope, any status, plus {@code extra} (deleted ones). */
    static List<String> memoryIds(MemoryStore store, Scope scope, String... extra) {
        List<String> ids = new ArrayList<>();
        for (Memory m : store.memories(scope, MemoryFilter.all())) {
            ids.add(m.id());
        }
        ids.addAll(List.of(extra));
        return ids;
    }

    static long count(MemoryStore store, Scope scope) {
        return store.countMemories(scope, EnumSet.allOf(MemoryStatus.class));
    }
}
