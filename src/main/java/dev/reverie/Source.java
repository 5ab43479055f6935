package dev.reverie;

/** Where a piece of memory came from. Thread-safe (an enum). */
public enum Source {
    /** The end user said it. */
    USER,
    /** The assistant said it. */
    ASSISTANT,
    /** A tool returned it. */
    TOOL,
    /** A document or other third-party content. */
    THIRD_PARTY,
    /** An operator added or edited it through {@link MemoryAdmin}. */
    OPERATOR,
    /** The dream cycle wrote it (a synthesis). */
    DREAM
}
