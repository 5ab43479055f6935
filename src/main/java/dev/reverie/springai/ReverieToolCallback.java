package dev.reverie.springai;

import dev.reverie.ContextManager;
import dev.reverie.MemoryTool;
import dev.reverie.RecallMode;
import dev.reverie.Scope;
import dev.reverie.internal.Checks;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;

/**
 * Reverie's recall tool ({@link MemoryTool}) as a Spring AI {@link ToolCallback}, for
 * {@link RecallMode#ON_DEMAND}: the model sees the tool's name, description and JSON schema, and its
 * arguments go to {@link MemoryTool#call(String)}, which answers JSON (an error result, never an
 * exception, for bad arguments).
 *
 * <p>The scope is never taken from the model. {@link #of(MemoryTool)} seals one end user's scope
 * (build it per request: {@code .tools(ReverieToolCallback.of(manager.recallTool(scope)))});
 * {@link #fromToolContext(ContextManager)} serves many users from one callback by reading the scope
 * the host put in the tool context ({@code .toolContext(Map.of(ReverieAdvisor.SCOPE, scope))}), which
 * the model cannot write. Immutable and thread-safe.
 */
public final class ReverieToolCallback implements ToolCallback {

    /** A scope used only to read the tool's name, description and schema, which no scope changes. */
    private static final Scope DESCRIBE_ONLY = Scope.of("reverie", "spring-ai", "tool-description");

    private final ToolDefinition definition;
    private final MemoryTool sealed;
    private final ContextManager manager;

    private ReverieToolCallback(MemoryTool describing, MemoryTool sealed, ContextManager manager) {
        this.definition = ToolDefinition.builder()
                .name(describing.name())
                .description(describing.description())
                .inputSchema(describing.parametersJsonSchema())
                .build();
        this.sealed = sealed;
        this.manager = manager;
    }

    /** The recall tool sealed to {@code tool}'s scope, whatever the tool context says. */
    public static ReverieToolCallback of(MemoryTool tool) {
        Checks.notNull("tool", tool);
        return new ReverieToolCallback(tool, tool, null);
    }

    /**
     * One callback for every user: each call searches the {@link Scope} found in the tool context
     * under {@link ReverieAdvisor#SCOPE} (a {@code Scope} or {@code "tenant/agent/user"}). A call
     * without one gets a JSON error result, so the model learns the tool is unavailable.
     */
    public static ReverieToolCallback fromToolContext(ContextManager manager) {
        Checks.notNull("manager", manager);
        return new ReverieToolCallback(manager.recallTool(DESCRIBE_ONLY), null, manager);
    }

    @Override
    public ToolDefinition getToolDefinition() {
        return definition;
    }

    /** The scope this callback is sealed to, or {@code null} when it reads the tool context. */
    public Scope scope() {
        return sealed == null ? null : sealed.scope();
    }

    @Override
    public String call(String toolInput) {
        return call(toolInput, null);
    }

    @Override
    public String call(String toolInput, ToolContext toolContext) {
        if (sealed != null) {
            return sealed.call(toolInput);
        }
        Object value = toolContext == null ? null : toolContext.getContext().get(ReverieAdvisor.SCOPE);
        Scope scope;
        if (value instanceof Scope s) {
            scope = s;
        } else if (value instanceof CharSequence text && text.toString().split("/", -1).length == 3) {
            String[] p = text.toString().split("/", -1);
            scope = Scope.of(p[0], p[1], p[2]);
        } else {
            return "{\"error\":\"memory is not available in this conversation\"}";
        }
        return manager.recallTool(scope).call(toolInput);
    }

    /** The name the recall tool is registered under. */
    static String recallToolName(ContextManager manager) {
        return manager.recallTool(DESCRIBE_ONLY).name();
    }

    @Override
    public String toString() {
        return "ReverieToolCallback[" + definition.name() + (sealed == null ? ", scope from tool context" : "") + "]";
    }
}
