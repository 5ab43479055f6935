package dev.reverie.langchain4j;

import dev.reverie.Scope;
import dev.reverie.internal.Checks;

/**
 * Where a LangChain4j chat memory id points in Reverie: the end user's {@link Scope} (whose
 * long-term memory it reads and writes) and the session (whose turns form the TEMPORAL layer).
 * {@link ReverieChatMemoryProvider} maps each {@code @MemoryId} to one of these; by default with
 * {@link #from(Object)}, which accepts a {@code Conversation} itself or its string form
 * {@code "tenant/agent/user/session"} ({@link #toString()} gives that form back, so a host may pass
 * either as the memory id). Immutable and thread-safe.
 *
 * @param scope     the end user's scope
 * @param sessionId the session id (letters, digits and {@code . _ : @ -})
 */
public record Conversation(Scope scope, String sessionId) {

    public Conversation {
        Checks.notNull("scope", scope);
        Checks.id("sessionId", sessionId);
    }

    /** A conversation of {@code scope} in session {@code sessionId}. */
    public static Conversation of(Scope scope, String sessionId) {
        return new Conversation(scope, sessionId);
    }

    /**
     * The default memory-id mapping: a {@code Conversation} is returned as is; a string must read
     * {@code "tenant/agent/user/session"}, each part a valid id. Anything else fails with an
     * {@link IllegalArgumentException} that says what was expected (AiServices uses the id
     * {@code "default"} when a method has no {@code @MemoryId} parameter: give it one, or configure
     * {@link ReverieChatMemoryProvider.Builder#conversations} to map your own ids).
     */
    public static Conversation from(Object memoryId) {
        if (memoryId instanceof Conversation c) {
            return c;
        }
        if (memoryId instanceof CharSequence text) {
            return parse(text.toString());
        }
        throw new IllegalArgumentException("memory id must be a Conversation or a String \"tenant/agent/user/session\", "
                + "was " + (memoryId == null ? "null" : memoryId.getClass().getName())
                + "; configure ReverieChatMemoryProvider.builder(...).conversations(...) to map other ids");
    }

    /** Parses {@code "tenant/agent/user/session"}; see {@link #from(Object)}. */
    public static Conversation parse(String memoryId) {
        Checks.notNull("memory id", memoryId);
        String[] parts = memoryId.split("/", -1);
        if (parts.length != 4) {
            throw new IllegalArgumentException("memory id must read \"tenant/agent/user/session\" (4 parts separated "
                    + "by '/'), was '" + Checks.abbreviate(memoryId) + "' with " + parts.length + " part"
                    + (parts.length == 1 ? "" : "s") + "; pass @MemoryId with that form or configure "
                    + "ReverieChatMemoryProvider.builder(...).conversations(...)");
        }
        return new Conversation(Scope.of(parts[0], parts[1], parts[2]), parts[3]);
    }

    /** The string form {@code "tenant/agent/user/session"}, which {@link #parse} reads back. */
    @Override
    public String toString() {
        return scope.tenantId() + "/" + scope.agentId() + "/" + scope.endUserId() + "/" + sessionId;
    }
}
