package dev.reverie.dream;

import dev.reverie.Memory;
import dev.reverie.MemoryKind;
import dev.reverie.Observation;
import dev.reverie.ObservationStatus;
import dev.reverie.internal.Terms;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where each observation of one end user already went, read from the data itself so that it
 * survives a crash between phases and a rerun: which observations a light-sleep survivor absorbed
 * (DISCARDED duplicates whose turn ids it holds), and which observations some memory already
 * reflects (its id among the memory's source observations, or its turns inside the memory's with
 * the same subject and value). Built from a snapshot at the start of a phase; not thread-safe.
 */
final class Lineage {

    private final LightSleep light;
    private final RunEmbeddings vectors;
    private final Map<String, List<Observation>> observationsByTurn = new HashMap<>();
    private final Set<String> sourceObservationIds = new HashSet<>();
    private final Map<String, List<Memory>> memoriesByTurn = new HashMap<>();

    Lineage(UserState state, LightSleep light, RunEmbeddings vectors) {
        this.light = light;
        this.vectors = vectors;
        for (Observation o : state.observations()) {
            for (String t : o.sourceTurnIds()) {
                observationsByTurn.computeIfAbsent(t, k -> new ArrayList<>()).add(o);
            }
        }
        for (Memory m : state.memories()) {
            if (m.kind() == MemoryKind.SYNTHESIS) {
                continue;
            }
            sourceObservationIds.addAll(m.sourceObservationIds());
            for (String t : m.sourceTurnIds()) {
                memoriesByTurn.computeIfAbsent(t, k -> new ArrayList<>()).add(m);
            }
        }
    }

    /** The DISCARDED duplicates that light sleep merged into {@code survivor}. */
    List<Observation> absorbedInto(Observation survivor) {
        if (survivor.reinforcementCount() < 2 || survivor.sourceTurnIds().isEmpty()) {
            return List.of();
        }
        List<Observation> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (String t : survivor.sourceTurnIds()) {
            for (Observation d : observationsByTurn.getOrDefault(t, List.of())) {
                if (seen.add(d.id()) && absorbs(survivor, d)) {
                    out.add(d);
                }
            }
        }
        return out;
    }

    /** Whether {@code o} was merged into another observation by light sleep. */
    boolean absorbed(Observation o) {
        if (o.status() != ObservationStatus.DISCARDED || o.sourceTurnIds().isEmpty()) {
            return false;
        }
        for (Observation s : observationsByTurn.getOrDefault(o.sourceTurnIds().get(0), List.of())) {
            if (absorbs(s, o)) {
                return true;
            }
        }
        return false;
    }

    private boolean absorbs(Observation survivor, Observation d) {
        return !d.id().equals(survivor.id()) && d.status() == ObservationStatus.DISCARDED
                && !d.sourceTurnIds().isEmpty()
                && (survivor.reinforcementCount() > d.reinforcementCount()
                    || survivor.sourceTurnIds().size() > d.sourceTurnIds().size())
                && new HashSet<>(survivor.sourceTurnIds()).containsAll(d.sourceTurnIds())
                && light.duplicates(d, survivor, vectors);
    }

    /** Whether some memory (of any status) already holds what {@code o} says. */
    boolean reflected(Observation o) {
        if (sourceObservationIds.contains(o.id())) {
            return true;
        }
        if (o.sourceTurnIds().isEmpty()) {
            return false;
        }
        for (Memory m : memoriesByTurn.getOrDefault(o.sourceTurnIds().get(0), List.of())) {
            boolean same = Text.episodic(o.subject()) && Text.sameFamily(o.subject(), m.subject())
                    || (o.subject().equals(m.subject()) && o.polarity() == m.polarity()
                        && Terms.normalizeValue(o.value()).equals(Terms.normalizeValue(m.value())));
            if (same && new HashSet<>(m.sourceTurnIds()).containsAll(o.sourceTurnIds())) {
                return true;
            }
        }
        return false;
    }
}
