package dev.reverie;

import dev.reverie.internal.Checks;

import java.util.List;

/**
 * A memory (or recent observation) that was put into the PERSISTENT layer, with its score and the
 * parts of the score, and the turns it was derived from — how a caller or an evaluation traces a
 * recalled item back to the conversation. Immutable and thread-safe.
 *
 * @param memoryId      the memory's (or observation's) id
 * @param kind          its kind
 * @param text          its text as stored (before rendering)
 * @param score         the final score (after the trust factor); pinned items score 1
 * @param relevance     the fused lexical/vector relevance, 0 to 1
 * @param importance    importance, 0 to 100
 * @param recency       0.5^(age / half-life), 0 to 1
 * @param trustFactor   the multiplier for third-party or failed-run content (1 otherwise)
 * @param pinned        whether it was pinned (identity facts, style profile)
 * @param observation   whether it is an L3 observation rather than an L4 memory
 * @param sourceTurnIds the turns it was derived from (the caller's ids when given)
 */
public record RecalledMemory(String memoryId, MemoryKind kind, String text, double score, double relevance,
                             double importance, double recency, double trustFactor, boolean pinned,
                             boolean observation, List<String> sourceTurnIds) {
    public RecalledMemory {
        Checks.notNull("memoryId", memoryId);
        Checks.notNull("kind", kind);
        Checks.notNull("text", text);
        sourceTurnIds = List.copyOf(sourceTurnIds);
    }
}
