package dev.reverie.langchain4j;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.reverie.ContextManager;
import dev.reverie.MutableClock;
import dev.reverie.Scope;
import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.MemoryStores;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReverieChatMemoryProviderTest {

    MemoryStore store;
    ContextManager manager;

    @BeforeEach
    void setUp() {
        store = MemoryStores.open("sqlite::memory:");
        manager = ContextManager.builder().store(store).clock(new MutableClock(Instant.parse("2026-03-02T09:00:00Z")))
                .build();
    }

    @AfterEach
    void tearDown() {
        manager.close();
        store.close();
    }

    @Test
    void the_default_mapping_reads_tenant_agent_user_session() {
        ReverieChatMemoryProvider provider = ReverieChatMemoryProvider.builder(manager).budgetTokens(1_000).build();
        ReverieChatMemory memory = provider.get("clinic-42/receptionist/alice/s1");

        assertThat(memory.conversation()).isEqualTo(Conversation.of(Scope.of("clinic-42", "receptionist", "alice"), "s1"));
        assertThat(memory.id()).isEqualTo("clinic-42/receptionist/alice/s1");
        assertThat(memory.budgetTokens()).isEqualTo(1_000);
        assertThat(Conversation.parse(memory.conversation().toString())).isEqualTo(memory.conversation());
        assertThat(provider.get(Conversation.of(Scope.of("t", "a", "u"), "s")).conversation().sessionId()).isEqualTo("s");
    }

    @Test
    void ids_that_do_not_map_fail_with_what_was_expected() {
        ReverieChatMemoryProvider provider = ReverieChatMemoryProvider.builder(manager).build();
        assertThatThrownBy(() -> provider.get("default")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("\"tenant/agent/user/session\"").hasMessageContaining("was 'default' with 1 part");
        assertThatThrownBy(() -> provider.get("t/a/bad user/s")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("endUserId");
        assertThatThrownBy(() -> provider.get(42)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("java.lang.Integer");
    }

    @Test
    void a_host_mapping_turns_its_own_ids_into_conversations() {
        ReverieChatMemoryProvider provider = ReverieChatMemoryProvider.builder(manager)
                .conversations(id -> Conversation.of(Scope.of("shop", "support", "user-" + id), "web")).build();
        ReverieChatMemory memory = provider.get(1234L);
        memory.add(UserMessage.from("Where is my order?"));
        memory.add(AiMessage.from("It ships tomorrow."));

        assertThat(store.sessionTurns(Scope.of("shop", "support", "user-1234"), "web", 0, 10)).hasSize(2);
        ReverieChatMemoryProvider broken = ReverieChatMemoryProvider.builder(manager).conversations(id -> null).build();
        assertThatThrownBy(() -> broken.get("x")).hasMessageContaining("returned null for memory id x");
    }

    @Test
    void the_same_id_gets_the_same_live_memory_and_different_ids_different_ones() {
        ReverieChatMemoryProvider provider = ReverieChatMemoryProvider.builder(manager).build();
        ReverieChatMemory a = provider.get("t/a/alice/s1");
        a.add(UserMessage.from("Hello"));

        assertThat(provider.get("t/a/alice/s1")).isSameAs(a);
        assertThat(provider.get("t/a/alice/s2")).isNotSameAs(a);
        assertThat(provider.get("t/a/bob/s1")).isNotSameAs(a);
    }
}
