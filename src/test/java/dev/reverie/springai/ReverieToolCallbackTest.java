package dev.reverie.springai;

import dev.reverie.ContextManager;
import dev.reverie.MemoryDraft;
import dev.reverie.MemoryKind;
import dev.reverie.MemoryTool;
import dev.reverie.Scope;
import dev.reverie.spi.MemoryStores;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.model.ToolContext;

import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ReverieToolCallbackTest {

    static final Scope ALICE = Scope.of("clinic-42", "receptionist", "alice");
    static final Scope BOB = Scope.of("clinic-42", "receptionist", "bob");

    @TempDir
    Path dir;
    ContextManager memory;

    @BeforeEach
    void setUp() {
        memory = ContextManager.builder().store("sqlite:" + dir).build();
        memory.admin().remember(ALICE, MemoryDraft.of(MemoryKind.FACT, "Alice is allergic to dipyrone"));
        memory.admin().remember(BOB, MemoryDraft.of(MemoryKind.FACT, "Bob is allergic to penicillin"));
    }

    @AfterEach
    void tearDown() {
        memory.close();
    }

    @Test
    void the_definition_is_the_memory_tools_name_description_and_schema() {
        MemoryTool tool = memory.recallTool(ALICE);
        ReverieToolCallback callback = ReverieToolCallback.of(tool);

        assertThat(callback.getToolDefinition().name()).isEqualTo(tool.name());
        assertThat(callback.getToolDefinition().description()).isEqualTo(tool.description());
        assertThat(callback.getToolDefinition().inputSchema()).isEqualTo(tool.parametersJsonSchema());
        assertThat(callback.scope()).isEqualTo(ALICE);
    }

    @Test
    void a_sealed_callback_searches_its_scope_only_whatever_the_model_or_the_context_says() {
        ReverieToolCallback callback = ReverieToolCallback.of(memory.recallTool(ALICE));

        assertThat(callback.call("{\"query\":\"allergic\"}")).contains("dipyrone").doesNotContain("penicillin");
        assertThat(callback.call("{\"query\":\"allergic\"}", new ToolContext(Map.of(ReverieAdvisor.SCOPE, BOB))))
                .contains("dipyrone").doesNotContain("penicillin");
        assertThat(callback.call("{\"query\":\"allergic\",\"user\":\"bob\"}"))
                .contains("\"error\"").contains("unknown argument 'user'");
        assertThat(callback.call("not json")).contains("\"error\"");
    }

    @Test
    void a_tool_context_callback_searches_the_scope_the_host_put_in_the_context() {
        ReverieToolCallback callback = ReverieToolCallback.fromToolContext(memory);

        assertThat(callback.call("{\"query\":\"allergic\"}", new ToolContext(Map.of(ReverieAdvisor.SCOPE, BOB))))
                .contains("penicillin").doesNotContain("dipyrone");
        assertThat(callback.call("{\"query\":\"allergic\"}",
                new ToolContext(Map.of(ReverieAdvisor.SCOPE, "clinic-42/receptionist/alice"))))
                .contains("dipyrone").doesNotContain("penicillin");
        assertThat(callback.call("{\"query\":\"allergic\"}")).contains("\"error\"").doesNotContain("allergic to");
        assertThat(callback.scope()).isNull();
    }
}
