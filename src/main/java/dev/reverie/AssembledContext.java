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

    /**
     * The system text for a chat API that takes one system message: {@code hostSystem} (may be
     * {@code null} or empty) followed by every SYSTEM message of the context, joined by blank lines.
     * Chat integrations send this once, then {@link #dialogue()}, then the user's own message.
     */
    public String systemText(String hostSystem) {
        StringBuilder folded = new StringBuilder(hostSystem == null ? "" : hostSystem);
        for (ContextMessage m : messages) {
            if (m.role() == Role.SYSTEM) {
                if (!folded.isEmpty()) {
                    folded.append("\n\n");
                }
                folded.append(m.content());
            }
        }
        return folded.toString();
    }

    /**
     * The user and assistant messages before the query, in order: the PERSISTENT layer's block of
     * recalled third-party lines, when there is one (a USER message: third-party text is never SYSTEM
     * text), then the session's turns (and replayed tool output) of the TEMPORAL layer. The TRANSIENT
     * query is left out: the caller sends the request's own message verbatim.
     */
    public List<ContextMessage> dialogue() {
        return messages.stream().filter(m -> m.role() != Role.SYSTEM && m.layer() != Layer.TRANSIENT).toList();
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
