package dev.reverie;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.MemoryStores;
import dev.reverie.spi.WriteBatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class MemoryToolTest {
    static final Instant T0 = Instant.parse("2026-03-01T09:00:00Z");
    static final Scope ALICE = Scope.of("t", "a", "alice");
    static final Scope BOB = Scope.of("t", "a", "bob");
    final ObjectMapper json = new ObjectMapper();
    MemoryStore store;
    ContextManager memory;

    @BeforeEach
    void setUp() {
        store = MemoryStores.open("sqlite::memory:");
        memory = ContextManager.builder().store(store).clock(new MutableClock(T0)).build();
        store.write(WriteBatch.of(ALICE).put(Memory.builder("a1", ALICE, MemoryKind.FACT, "Alice is allergic to dipyrone", T0)
                .subject("user.allergy").build()));
        store.write(WriteBatch.of(BOB).put(Memory.builder("b1", BOB, MemoryKind.FACT, "Bob is allergic to penicillin", T0)
                .subject("user.allergy").build()));
    }

    @AfterEach
    void tearDown() {
        memory.close();
        store.close();
    }

    @Test
    void describes_itself_as_a_function_with_a_json_schema() throws Exception {
        MemoryTool tool = memory.recallTool(ALICE);
        assertThat(tool.name()).isEqualTo("recall_memory");
        assertThat(tool.description()).isNotBlank();
        JsonNode schema = json.readTree(tool.parametersJsonSchema());
        assertThat(schema.get("required").get(0).asText()).isEqualTo("query");
        assertThat(schema.get("additionalProperties").asBoolean()).isFalse();
        assertThat(schema.get("properties").has("user")).isFalse();
    }

    @Test
    void the_scope_is_sealed_and_arguments_cannot_reach_another_user() throws Exception {
        MemoryTool tool = memory.recallTool(ALICE);
        JsonNode ok = json.readTree(tool.call("{\"query\":\"allergic\",\"limit\":5}"));
        assertThat(ok.get("results")).hasSize(1);
        assertThat(ok.get("results").get(0).get("text").asText()).contains("Alice");
        for (String attempt : new String[] {
                "{\"query\":\"allergic\",\"user\":\"bob\"}",
                "{\"query\":\"allergic\",\"endUserId\":\"bob\"}",
                "{\"query\":\"allergic\",\"scope\":{\"tenantId\":\"t\",\"agentId\":\"a\",\"endUserId\":\"bob\"}}",
                "{\"query\":\"penicillin bob\"}"}) {
            String out = tool.call(attempt);
            assertThat(out).doesNotContain("Bob is allergic");
        }
        assertThat(tool.call("{\"query\":\"allergic\",\"user\":\"bob\"}")).contains("error").contains("user");
    }

    @Test
    void malformed_arguments_get_a_json_error_not_an_exception() throws Exception {
        MemoryTool tool = memory.recallTool(ALICE);
        for (String bad : new String[] {null, "", "not json", "[1,2]", "{}", "{\"query\":\"\"}", "{\"query\":5}",
                "{\"query\":\"x\",\"limit\":0}", "{\"query\":\"x\",\"limit\":\"many\"}", "{\"query\":\"x\",\"limit\":2.5}",
                "{\"query\":\"x\",\"kinds\":[\"NOPE\"]}", "{\"query\":\"x\",\"kinds\":\"FACT\"}", "{\"query\":"}) {
            JsonNode out = json.readTree(tool.call(bad));
            assertThat(out.has("error")).as(String.valueOf(bad)).isTrue();
            assertThat(out.get("error").asText()).isNotBlank();
        }
        JsonNode kinds = json.readTree(tool.call("{\"query\":\"allergic\",\"kinds\":[\"event\"]}"));
        assertThat(kinds.get("results")).isEmpty();
    }
}
