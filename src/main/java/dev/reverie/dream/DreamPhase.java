package dev.reverie.dream;

/** The phases of a dream cycle, in the order they run for each end user. Thread-safe (an enum). */
public enum DreamPhase {
    /** Dedup of pending observations: repetition becomes reinforcement. */
    LIGHT,
    /** Importance, then promotion into L4 (create, reinforce, supersede) or discard. */
    DEEP,
    /** On L4: deprecate stale and unused memories, decay, forget, synthesize, update the style profile. */
    REM,
    /** Deletion of judged observations older than the retention period. */
    PRUNE
}
