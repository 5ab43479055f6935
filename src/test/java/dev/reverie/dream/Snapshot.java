package dev.reverie.dream;

import dev.reverie.Memory;
import dev.reverie.MemoryEvent;
import dev.reverie.MemoryFilter;
import dev.reverie.MemoryStatus;
import dev.reverie.Observation;
import dev.reverie.ObservationFilter;
import dev.reverie.ObservationStatus;
import dev.reverie.Scope;
import dev.reverie.StyleProfile;
import dev.reverie.spi.MemoryStore;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/** Everything the store holds for one end user, comparable with equals (records all the way down). */
record Snapshot(Map<String, Observation> observations, Map<String, Memory> memories,
                Map<String, List<MemoryEvent>> history, Optional<StyleProfile> style) {

    /** Reads the user's rows; history is read for every memory id in {@code knownMemoryIds} and in the store. */
    static Snapshot of(MemoryStore store, Scope scope, Collection<String> knownMemoryIds) {
        Map<String, Observation> obs = store.observations(scope, ObservationFilter.all()).stream()
                .collect(Collectors.toMap(Observation::id, Function.identity(), (a, b) -> a, TreeMap::new));
        Map<String, Memory> mem = store.memories(scope, MemoryFilter.all()).stream()
                .collect(Collectors.toMap(Memory::id, Function.identity(), (a, b) -> a, TreeMap::new));
        Map<String, List<MemoryEvent>> history = new TreeMap<>();
        if (knownMemoryIds == null) {
            return new Snapshot(obs, mem, history, store.styleProfile(scope));
        }
        for (String id : mem.keySet()) {
            history.put(id, store.history(scope, id));
        }
        for (String id : knownMemoryIds) {
            List<MemoryEvent> h = store.history(scope, id);
            if (!h.isEmpty()) {
                history.put(id, h);
            }
        }
        return new Snapshot(obs, mem, history, store.styleProfile(scope));
    }

    static Snapshot of(MemoryStore store, Scope scope) {
        return of(store, scope, List.of());
    }

    /** The user's rows only (observations, memories, style profile), without history. */
    static Snapshot rows(MemoryStore store, Scope scope) {
        Snapshot full = of(store, scope, null);
        return new Snapshot(full.observations, full.memories, Map.of(), full.style);
    }

    long observations(ObservationStatus status) {
        return observations.values().stream().filter(o -> o.status() == status).count();
    }

    long memories(MemoryStatus status) {
        return memories.values().stream().filter(m -> m.status() == status).count();
    }

    List<Memory> active() {
        return memories.values().stream().filter(m -> m.status() == MemoryStatus.ACTIVE).toList();
    }

    long events() {
        return history.values().stream().mapToLong(List::size).sum();
    }
}
