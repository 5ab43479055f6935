package dev.reverie.dream;

import dev.reverie.Memory;
import dev.reverie.MemoryEvent;
import dev.reverie.MemoryEventType;
import dev.reverie.MemoryFilter;
import dev.reverie.MemoryStatus;
import dev.reverie.Observation;
import dev.reverie.ObservationFilter;
import dev.reverie.Scope;
import dev.reverie.StyleProfile;
import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.WriteBatch;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One end user's L3 and L4 as read once at the start of a cycle, kept current in memory as each phase
 * records its writes. A phase stages its writes in {@link Changes}; they reach the store as one
 * {@link WriteBatch} for this user only, so a failed write leaves the store as it was before the
 * phase (the in-memory state is then dropped with the failed run). Not thread-safe: one cycle of
 * one user owns it.
 */
final class UserState {

    private static final Comparator<Observation> BY_TIME =
            Comparator.comparing(Observation::observedAt).thenComparing(Observation::id);

    final Scope scope;
    final Instant now;
    private final Map<String, Observation> observations = new LinkedHashMap<>();
    private final Map<String, Memory> memories = new LinkedHashMap<>();
    private StyleProfile style;

    private UserState(Scope scope, Instant now) {
        this.scope = scope;
        this.now = now;
    }

    /** Reads every observation and memory of the scope (paging through the store's page limit). */
    static UserState load(MemoryStore store, Scope scope, Instant now) {
        UserState s = new UserState(scope, now);
        int page = MemoryFilter.MAX_LIMIT;
        for (int offset = 0; ; offset += page) {
            List<Observation> rows = store.observations(scope, ObservationFilter.all().page(offset, page));
            for (Observation o : rows) {
                s.observations.put(o.id(), o);
            }
            if (rows.size() < page) {
                break;
            }
        }
        for (int offset = 0; ; offset += page) {
            List<Memory> rows = store.memories(scope, MemoryFilter.all().page(offset, page));
            for (Memory m : rows) {
                s.memories.put(m.id(), m);
            }
            if (rows.size() < page) {
                break;
            }
        }
        s.style = store.styleProfile(scope).orElse(null);
        return s;
    }

    Collection<Observation> observations() {
        return observations.values();
    }

    /** Observations with the given statuses, oldest first. */
    List<Observation> observations(Set<dev.reverie.ObservationStatus> statuses) {
        List<Observation> out = new ArrayList<>();
        for (Observation o : observations.values()) {
            if (statuses.contains(o.status())) {
                out.add(o);
            }
        }
        out.sort(BY_TIME);
        return out;
    }

    Observation observation(String id) {
        return observations.get(id);
    }

    Collection<Memory> memories() {
        return memories.values();
    }

    Optional<Memory> memory(String id) {
        return Optional.ofNullable(memories.get(id));
    }

    /** ACTIVE memories in creation order. */
    List<Memory> active() {
        List<Memory> out = new ArrayList<>();
        for (Memory m : memories.values()) {
            if (m.status() == MemoryStatus.ACTIVE) {
                out.add(m);
            }
        }
        return out;
    }

    Optional<StyleProfile> style() {
        return Optional.ofNullable(style);
    }

    /** A fresh set of staged writes for one phase. */
    Changes changes(DreamPhase phase) {
        return new Changes(phase);
    }

    /**
     * The writes of one phase. Each call updates the in-memory state at once (later steps of the same
     * phase see it) and stages the write; {@link #batch()} turns the staged writes into one batch,
     * keeping only the last write of each row.
     */
    final class Changes {
        private final DreamPhase phase;
        private final Map<String, Observation> observationPuts = new LinkedHashMap<>();
        private final Set<String> observationDeletes = new LinkedHashSet<>();
        private final Map<String, Memory> memoryPuts = new LinkedHashMap<>();
        private final Set<String> memoryDeletes = new LinkedHashSet<>();
        private final List<MemoryEvent> events = new ArrayList<>();
        private final Map<String, Integer> eventsPerMemory = new HashMap<>();
        /** id → the row as it was when this phase first changed it ({@code null}: it did not exist). */
        private final Map<String, Observation> observationsBefore = new HashMap<>();
        private final Map<String, Memory> memoriesBefore = new HashMap<>();
        private StyleProfile stylePut;
        private Instant purgeArchiveBefore;

        private Changes(DreamPhase phase) {
            this.phase = phase;
        }

        void put(Observation o) {
            Observation before = observations.put(o.id(), o);
            if (!observationsBefore.containsKey(o.id())) {
                observationsBefore.put(o.id(), before);
            }
            observationDeletes.remove(o.id());
            observationPuts.put(o.id(), o);
        }

        void deleteObservation(String id) {
            Observation before = observations.remove(id);
            if (!observationsBefore.containsKey(id)) {
                observationsBefore.put(id, before);
            }
            observationPuts.remove(id);
            observationDeletes.add(id);
        }

        void put(Memory m) {
            Memory before = memories.put(m.id(), m);
            if (!memoriesBefore.containsKey(m.id())) {
                memoriesBefore.put(m.id(), before);
            }
            memoryDeletes.remove(m.id());
            memoryPuts.put(m.id(), m);
        }

        void deleteMemory(String id) {
            Memory before = memories.remove(id);
            if (!memoriesBefore.containsKey(id)) {
                memoriesBefore.put(id, before);
            }
            memoryPuts.remove(id);
            memoryDeletes.add(id);
        }

        void put(StyleProfile p) {
            style = p;
            stylePut = p;
        }

        /** Deletes the archived turns said before {@code before}: their retention ended. */
        void purgeArchiveBefore(Instant before) {
            purgeArchiveBefore = before;
        }

        /**
         * Appends a history event. Its id derives from the memory, the phase, the time and the event's
         * rank among this phase's events of that memory, so a rerun of a failed phase writes the same ids.
         */
        void event(String memoryId, MemoryEventType type, String before, String after, String cause) {
            int rank = eventsPerMemory.merge(memoryId, 1, Integer::sum);
            String id = Ids.event(scope.toString(), memoryId, phase.name(), now.toString(), Integer.toString(rank));
            events.add(new MemoryEvent(id, scope, memoryId, type, now, before, after, cause));
        }

        boolean isEmpty() {
            return observationPuts.isEmpty() && observationDeletes.isEmpty() && memoryPuts.isEmpty()
                    && memoryDeletes.isEmpty() && events.isEmpty() && stylePut == null && purgeArchiveBefore == null;
        }

        /**
         * The staged writes as one batch for this user: rows first, then their history. A row that
         * differs from its version before the phase only in its status (and the status's time) is
         * written as a status change, not as the whole record, when {@code statusWrites} (the store
         * understands status changes, {@link dev.reverie.spi.MemoryStore#supportsStatusWrites()}).
         */
        WriteBatch batch(boolean statusWrites) {
            WriteBatch b = WriteBatch.of(scope);
            for (Observation o : observationPuts.values()) {
                Observation before = observationsBefore.get(o.id());
                if (statusWrites && before != null && o.equals(before.withStatus(o.status(), o.consolidatedAt()))) {
                    b.setStatus(o.id(), o.status(), o.consolidatedAt());
                } else {
                    b.put(o);
                }
            }
            observationDeletes.forEach(b::deleteObservation);
            for (Memory m : memoryPuts.values()) {
                Memory before = memoriesBefore.get(m.id());
                if (statusWrites && before != null && m.equals(before.toBuilder().status(m.status())
                        .supersededBy(m.supersededBy())
                        .updatedAt(m.updatedAt()).build())) {
                    b.setMemoryStatus(m.id(), m.status(), m.supersededBy(), m.updatedAt());
                } else {
                    b.put(m);
                }
            }
            memoryDeletes.forEach(b::deleteMemory);
            if (stylePut != null) {
                b.put(stylePut);
            }
            events.forEach(b::append);
            if (purgeArchiveBefore != null) {
                b.purgeArchiveBefore(purgeArchiveBefore);
            }
            return b;
        }
    }
}
