package dev.reverie;

import dev.reverie.internal.Checks;

import java.util.List;

/**
 * A memory, recent observation or verbatim past turn that was put into the PERSISTENT layer, with
 * its score and the parts of the score, and the turns it was derived from — how a caller or an evaluation traces a
 * recalled item back to the conversation. Immutable and thread-safe.
 *
 * @param memoryId      the memory's or observation's id; for a verbatim turn, the turn's id
 * @param kind          its kind
 * @param text          its text as stored (before rendering)
 * @param score         the final score (after the trust factor); pinned items score 1
 * @param relevance     the fused lexical/vector relevance, 0 to 1
 * @param importance    importance, 0 to 100
 * @param recency       0.5^(age / half-life), 0 to 1
 * @param trustFactor   the multiplier for third-party or failed-run content (1 otherwise)
 * @param pinned        whether it was pinned (identity facts, style profile)
 * @param observation   whether it is an L3 observation rather than an L4 memory
 * @param sourceTurnIds the turns it was derived from (the caller's ids when given); a turn names itself
 * @param origin        where it comes from: an L4 memory, an L3 observation or a verbatim past turn
 */
public record RecalledMemory(String memoryId, MemoryKind kind, String text, double score, double relevance,
                             double importance, double recency, double trustFactor, boolean pinned,
                             boolean observation, List<String> sourceTurnIds, Origin origin) {

    /** Where a recalled item comes from. */
    public enum Origin {
        /** An L4 durable memory. */
        MEMORY,
        /** An L3 observation the dream cycle has not judged yet. */
        OBSERVATION,
        /** A verbatim turn of a past session (episodic recall). */
        TURN
    }

    public RecalledMemory {
        Checks.notNull("memoryId", memoryId);
        Checks.notNull("kind", kind);
        Checks.notNull("text", text);
        Checks.notNull("origin", origin);
        sourceTurnIds = List.copyOf(sourceTurnIds);
        if (observation != (origin == Origin.OBSERVATION)) {
            throw new IllegalArgumentException("observation (" + observation + ") must agree with origin " + origin);
        }
    }

    /** A recalled memory or observation (the 0.1.0 shape). */
    public RecalledMemory(String memoryId, MemoryKind kind, String text, double score, double relevance,
                          double importance, double recency, double trustFactor, boolean pinned,
                          boolean observation, List<String> sourceTurnIds) {
        this(memoryId, kind, text, score, relevance, importance, recency, trustFactor, pinned, observation,
                sourceTurnIds, observation ? Origin.OBSERVATION : Origin.MEMORY);
    }

    /** Whether it is a verbatim past turn rather than a memory or observation. */
    public boolean episode() {
        return origin == Origin.TURN;
    }
}
