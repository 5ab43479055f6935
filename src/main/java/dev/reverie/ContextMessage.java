package dev.reverie;

import dev.reverie.internal.Checks;

/**
 * One message of an assembled context, ready to send to a chat model: its role, its content and
 * the layer it came from. Immutable and thread-safe.
 *
 * @param role    the chat role: SYSTEM, USER or ASSISTANT (never TOOL)
 * @param content the text
 * @param layer   the context layer that produced it
 */
public record ContextMessage(Role role, String content, Layer layer) {
    public ContextMessage {
        if (Checks.notNull("role", role) == Role.TOOL) {
            throw new IllegalArgumentException("role must be SYSTEM, USER or ASSISTANT for a context message, was TOOL:"
                    + " chat models take tool output as a USER message that marks it as third-party data");
        }
        Checks.notNull("content", content);
        Checks.notNull("layer", layer);
    }
}
