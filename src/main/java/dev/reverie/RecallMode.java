package dev.reverie;

/**
 * How durable memory reaches the model. Thread-safe (an enum).
 */
public enum RecallMode {
    /** The default: profile, pinned facts and the most relevant memories are injected into the context. */
    INJECT,
    /** Only pinned identity facts and the style profile are injected; the model searches with {@link MemoryTool}. */
    ON_DEMAND
}
