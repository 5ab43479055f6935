package dev.reverie;

/**
 * Who speaks: the chat role of an assembled {@link ContextMessage} (SYSTEM, USER, ASSISTANT) and the
 * producer of a recorded {@link Turn} (USER, ASSISTANT, TOOL). A context message is never TOOL (a
 * replayed tool output speaks as USER inside a wrapper that marks it as third-party data), and a turn
 * is never SYSTEM (instructions belong in the {@link ImmutableLayer} or the request's scratchpad).
 * Thread-safe (an enum).
 */
public enum Role {
    /** Instructions and memory blocks addressed to the model; only in an assembled context. */
    SYSTEM,
    /** The end user: what they said. */
    USER,
    /** The assistant (the LLM's answer). */
    ASSISTANT,
    /** A tool or document: third-party content, never trusted as first-party; only in a recorded turn. */
    TOOL
}
