package dev.reverie;

/** Who produced a recorded {@link Turn}. Thread-safe (an enum). */
public enum TurnRole {
    /** The end user. */
    USER,
    /** The assistant (the LLM's answer). */
    ASSISTANT,
    /** A tool or document: third-party content, never trusted as first-party. */
    TOOL
}
