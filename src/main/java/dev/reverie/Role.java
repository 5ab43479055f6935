package dev.reverie;

/** The chat role of an assembled {@link ContextMessage}. Thread-safe (an enum). */
public enum Role {
    /** Instructions and memory blocks addressed to the model. */
    SYSTEM,
    /** What the end user said. */
    USER,
    /** What the assistant answered. */
    ASSISTANT
}
