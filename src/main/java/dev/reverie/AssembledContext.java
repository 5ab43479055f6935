package dev.reverie;

import dev.reverie.internal.Checks;

import java.util.List;

/**
 * The result of {@code ContextManager.buildContext}: the messages to send (IMMUTABLE first,
 * TRANSIENT last), the token usage per layer, and the memories that were recalled. Immutable and
 * thread-safe.
 *
 * @param messages the messages in order
 * @param usage    tokens per layer against the budget
 * @param recalled the recalled memories, in the order they were rendered
 */
public record AssembledContext(List<ContextMessage> messages, TokenUsage usage, List<RecalledMemory> recalled) {
    public AssembledContext {
        messages = List.copyOf(Checks.notNull("messages", messages));
        Checks.notNull("usage", usage);
        recalled = List.copyOf(Checks.notNull("recalled", recalled));
    }

    /** The messages of one layer, in order. */
    public List<ContextMessage> messages(Layer layer) {
        return messages.stream().filter(m -> m.layer() == layer).toList();
    }

    /** All message contents joined by blank lines (for plain-completion models and logs). */
    public String asText() {
        StringBuilder sb = new StringBuilder();
        for (ContextMessage m : messages) {
            if (!sb.isEmpty()) {
                sb.append("\n\n");
            }
            sb.append(m.role().name()).append(": ").append(m.content());
        }
        return sb.toString();
    }
}
