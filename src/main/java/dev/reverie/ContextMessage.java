package dev.reverie;

import dev.reverie.internal.Checks;

/**
 * One message of an assembled context, ready to send to a chat model: its role, its content and
 * the layer it came from. Immutable and thread-safe.
 *
 * @param role    the chat role
 * @param content the text
 * @param layer   the context layer that produced it
 */
public record ContextMessage(Role role, String content, Layer layer) {
    public ContextMessage {
        Checks.notNull("role", role);
        Checks.notNull("content", content);
        Checks.notNull("layer", layer);
    }
}
