package dev.reverie.langchain4j;

import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.service.tool.ToolExecutor;
import dev.reverie.ContextManager;
import dev.reverie.MemoryTool;
import dev.reverie.Scope;
import dev.reverie.internal.Checks;

import java.util.Map;
import java.util.function.Function;

/**
 * Reverie's recall tool ({@link MemoryTool}) as a LangChain4j tool, for
 * {@link dev.reverie.RecallMode#ON_DEMAND}: a {@link ToolSpecification} built from the tool's name,
 * description and JSON schema, and a {@link ToolExecutor} that passes the model's arguments to
 * {@link MemoryTool#call(String)}. Register the map with
 * {@code AiServices.builder(...).tools(ReverieRecallTool.forConversations(...))}.
 *
 * <p>The scope is never taken from the model: {@link #of(MemoryTool)} seals one end user's scope,
 * and {@link #forConversations} resolves it on every call from the LangChain4j memory id (the same
 * mapping the chat memory uses), so one AI service can serve many users and the model still cannot
 * name another user. Stateless and thread-safe.
 */
public final class ReverieRecallTool {

    /** A scope used only to read the tool's name, description and schema, which no scope changes. */
    private static final Scope DESCRIBE_ONLY = Scope.of("reverie", "langchain4j", "tool-description");

    private ReverieRecallTool() {
    }

    /** The LangChain4j specification of {@code tool}: same name and description, its schema converted. */
    public static ToolSpecification specification(MemoryTool tool) {
        Checks.notNull("tool", tool);
        return ToolSpecification.builder()
                .name(tool.name())
                .description(tool.description())
                .parameters(JsonSchemas.objectSchema(tool.parametersJsonSchema()))
                .build();
    }

    /** The tool sealed to {@code tool}'s scope, whatever memory id the AI service is called with. */
    public static Map<ToolSpecification, ToolExecutor> of(MemoryTool tool) {
        Checks.notNull("tool", tool);
        ToolExecutor executor = (request, memoryId) -> tool.call(request.arguments());
        return Map.of(specification(tool), executor);
    }

    /**
     * The tool for a multi-user AI service: each call searches the scope that {@code conversations}
     * maps the invocation's memory id to (use the same function as the chat memory provider, e.g.
     * {@link ReverieChatMemoryProvider#conversations()}).
     */
    public static Map<ToolSpecification, ToolExecutor> forConversations(ContextManager manager,
                                                                         Function<Object, Conversation> conversations) {
        Checks.notNull("manager", manager);
        Checks.notNull("conversations", conversations);
        ToolExecutor executor = (request, memoryId) -> {
            Conversation c = conversations.apply(memoryId);
            if (c == null) {
                throw new IllegalArgumentException("no conversation for memory id " + memoryId);
            }
            return manager.recallTool(c.scope()).call(request.arguments());
        };
        return Map.of(specification(manager.recallTool(DESCRIBE_ONLY)), executor);
    }

    /** The name the recall tool is registered under. */
    static String name(ContextManager manager) {
        return manager.recallTool(DESCRIBE_ONLY).name();
    }
}
