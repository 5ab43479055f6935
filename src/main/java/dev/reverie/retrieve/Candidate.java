package dev.reverie.retrieve;

import dev.reverie.Embedding;
import dev.reverie.Memory;
import dev.reverie.MemoryKind;
import dev.reverie.Observation;
import dev.reverie.Provenance;

import java.time.Instant;
import java.util.List;

/**
 * A memory or observation competing for the persistent layer, reduced to what scoring needs.
 * Immutable and thread-safe.
 *
 * @param id            memory or observation id
 * @param kind          its kind
 * @param text          its text
 * @param importance    0 to 100
 * @param lastSeen      when it was last reinforced (memories) or observed (observations)
 * @param provenance    where it came from
 * @param sourceTurnIds the turns behind it
 * @param observation   whether it is an L3 observation
 * @param embedding     its vector, or {@code null}
 */
public record Candidate(String id, MemoryKind kind, String text, double importance, Instant lastSeen,
                        Provenance provenance, List<String> sourceTurnIds, boolean observation, Embedding embedding) {

    /** The candidate for a durable memory. */
    public static Candidate of(Memory m) {
        return new Candidate(m.id(), m.kind(), m.text(), m.importance(), m.lastReinforcedAt(), m.provenance(),
                m.sourceTurnIds(), false, m.embedding());
    }

    /**
     * The candidate for a pending observation. Its importance is a proxy until the dream cycle
     * judges it: half the extractor's confidence on the 0–100 scale, plus a little per repetition.
     */
    public static Candidate of(Observation o) {
        double importance = Math.min(100, 50 * o.confidence() + 5 * (o.reinforcementCount() - 1));
        return new Candidate(o.id(), o.kind(), o.text(), importance, o.observedAt(), o.provenance(),
                o.sourceTurnIds(), true, o.embedding());
    }
}
