package dev.reverie.springai;

import dev.reverie.Scope;
import dev.reverie.internal.Checks;

/**
 * Where a Spring AI conversation id points in Reverie: the end user's {@link Scope} and the
 * session. {@link ReverieChatMemory} reads conversation ids in the form
 * {@code "tenant/agent/user/session"} with {@link #parse(String)}; {@link #toString()} writes that
 * form, so a host builds ids with {@code ConversationId.of(scope, "s1").toString()}. Immutable and
 * thread-safe.
 *
 * @param scope     the end user's scope
 * @param sessionId the session id (letters, digits and {@code . _ : @ -})
 */
public record ConversationId(Scope scope, String sessionId) {

    public ConversationId {
        Checks.notNull("scope", scope);
        Checks.id("sessionId", sessionId);
    }

    /** The conversation of {@code scope} in session {@code sessionId}. */
    public static ConversationId of(Scope scope, String sessionId) {
        return new ConversationId(scope, sessionId);
    }

    /**
     * Parses {@code "tenant/agent/user/session"}, each part a valid id; anything else fails with an
     * {@link IllegalArgumentException} saying what was expected (a request without a
     * conversation id, which {@code MessageChatMemoryAdvisor} calls {@code "default"}, is refused:
     * pass {@code a.param(ChatMemory.CONVERSATION_ID, id)} on each request).
     */
    public static ConversationId parse(String conversationId) {
        Checks.notNull("conversationId", conversationId);
        String[] parts = conversationId.split("/", -1);
        if (parts.length != 4) {
            throw new IllegalArgumentException("conversation id must read \"tenant/agent/user/session\" (4 parts "
                    + "separated by '/'), was '" + Checks.abbreviate(conversationId) + "' with " + parts.length
                    + " part" + (parts.length == 1 ? "" : "s") + "; pass it with chatClient.prompt().advisors(a -> "
                    + "a.param(ChatMemory.CONVERSATION_ID, ConversationId.of(scope, session).toString()))");
        }
        return new ConversationId(Scope.of(parts[0], parts[1], parts[2]), parts[3]);
    }

    /** The form {@code "tenant/agent/user/session"}, which {@link #parse} reads back. */
    @Override
    public String toString() {
        return scope.tenantId() + "/" + scope.agentId() + "/" + scope.endUserId() + "/" + sessionId;
    }
}
