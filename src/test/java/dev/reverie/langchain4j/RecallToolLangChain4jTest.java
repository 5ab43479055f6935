package dev.reverie.langchain4j;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.model.chat.request.json.JsonArraySchema;
import dev.langchain4j.model.chat.request.json.JsonEnumSchema;
import dev.langchain4j.model.chat.request.json.JsonIntegerSchema;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import dev.langchain4j.service.tool.ToolExecutor;
import dev.reverie.ContextManager;
import dev.reverie.Memory;
import dev.reverie.MemoryKind;
import dev.reverie.MemoryTool;
import dev.reverie.MutableClock;
import dev.reverie.Scope;
import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.MemoryStores;
import dev.reverie.spi.WriteBatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RecallToolLangChain4jTest {

    static final Instant T0 = Instant.parse("2026-03-02T09:00:00Z");
    static final Scope ALICE = Scope.of("t", "a", "alice");
    static final Scope BOB = Scope.of("t", "a", "bob");
    final ObjectMapper json = new ObjectMapper();
    MemoryStore store;
    ContextManager manager;

    @BeforeEach
    void setUp() {
        store = MemoryStores.open("sqlite::memory:");
        manager = ContextManager.builder().store(store).clock(new MutableClock(T0)).build();
        store.write(WriteBatch.of(ALICE).put(Memory.builder("a1", ALICE, MemoryKind.FACT, "Alice is allergic to dipyrone", T0)
                .build()));
        store.write(WriteBatch.of(BOB).put(Memory.builder("b1", BOB, MemoryKind.FACT, "Bob is allergic to penicillin", T0)
                .build()));
    }

    @AfterEach
    void tearDown() {
        manager.close();
        store.close();
    }

    static ToolExecutionRequest call(String arguments) {
        return ToolExecutionRequest.builder().id("c1").name("recall_memory").arguments(arguments).build();
    }

    @Test
    void the_specification_carries_the_tools_name_description_and_schema() {
        MemoryTool tool = manager.recallTool(ALICE);
        ToolSpecification spec = ReverieRecallTool.specification(tool);

        assertThat(spec.name()).isEqualTo(tool.name());
        assertThat(spec.description()).isEqualTo(tool.description());
        JsonObjectSchema p = spec.parameters();
        assertThat(p.required()).containsExactly("query");
        assertThat(p.additionalProperties()).isFalse();
        assertThat(p.properties()).containsOnlyKeys("query", "kinds", "limit");
        assertThat(p.properties().get("query")).isInstanceOf(JsonStringSchema.class);
        JsonArraySchema kinds = (JsonArraySchema) p.properties().get("kinds");
        assertThat(((JsonEnumSchema) kinds.items()).enumValues()).contains("FACT", "PREFERENCE", "SYNTHESIS");
        assertThat(((JsonIntegerSchema) p.properties().get("limit")).description())
                .contains("(minimum 1, maximum 20)");
    }

    @Test
    void a_sealed_tool_answers_for_its_scope_whatever_the_memory_id() throws Exception {
        Map<ToolSpecification, ToolExecutor> tools = ReverieRecallTool.of(manager.recallTool(ALICE));
        ToolExecutor executor = tools.values().iterator().next();

        JsonNode out = json.readTree(executor.execute(call("{\"query\":\"allergic\"}"), "t/a/bob/s1"));
        assertThat(out.get("results")).hasSize(1);
        assertThat(out.get("results").get(0).get("text").asText()).contains("Alice");
    }

    @Test
    void the_conversation_tool_resolves_the_scope_from_the_memory_id_and_never_from_the_arguments() throws Exception {
        ToolExecutor executor = ReverieRecallTool.forConversations(manager, Conversation::from).values().iterator().next();

        JsonNode alice = json.readTree(executor.execute(call("{\"query\":\"allergic\"}"), "t/a/alice/s1"));
        JsonNode bob = json.readTree(executor.execute(call("{\"query\":\"allergic\"}"), Conversation.of(BOB, "s9")));
        JsonNode attempt = json.readTree(executor.execute(call("{\"query\":\"allergic\",\"user\":\"bob\"}"), "t/a/alice/s1"));

        assertThat(alice.get("results").get(0).get("text").asText()).contains("Alice");
        assertThat(bob.get("results").get(0).get("text").asText()).contains("Bob");
        assertThat(attempt.has("error")).isTrue();
        assertThat(attempt.has("results")).isFalse();
        assertThatThrownBy(() -> executor.execute(call("{\"query\":\"allergic\"}"), "default"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tenant/agent/user/session");
    }

    @Test
    void schema_constructs_langchain4j_cannot_carry_are_refused_not_dropped() {
        assertThatThrownBy(() -> JsonSchemas.objectSchema("{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\","
                + "\"pattern\":\"^a\"}}}")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'pattern' at $.q");
        assertThatThrownBy(() -> JsonSchemas.objectSchema("{\"type\":\"string\"}"))
                .hasMessageContaining("\"type\":\"object\" at its root");
        assertThatThrownBy(() -> JsonSchemas.objectSchema("{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"date\"}}}"))
                .hasMessageContaining("unsupported schema type 'date' at $.q");
        assertThatThrownBy(() -> JsonSchemas.objectSchema("{nope")).hasMessageContaining("not valid JSON");
    }
}
