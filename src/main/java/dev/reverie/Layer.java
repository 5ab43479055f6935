package dev.reverie;

/**
 * The four context layers, in the order they appear in an assembled context: IMMUTABLE first,
 * then PERSISTENT and TEMPORAL, TRANSIENT last. Thread-safe (an enum).
 */
public enum Layer {
    /** System prompt, specs and rules: always first, byte-identical between calls. */
    IMMUTABLE,
    /** Durable memories, the style profile and recent observations, selected by relevance. */
    PERSISTENT,
    /** The session: a compacted summary of older turns plus the recent turns verbatim. */
    TEMPORAL,
    /** This turn's query and scratchpad: last, and never stored. */
    TRANSIENT
}
