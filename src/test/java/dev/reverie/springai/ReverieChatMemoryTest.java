package dev.reverie.springai;

import dev.reverie.ContextManager;
import dev.reverie.ImmutableLayer;
import dev.reverie.Role;
import dev.reverie.Scope;
import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.MemoryStores;
import dev.reverie.spi.SessionTurn;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.advisor.MessageChatMemoryAdvisor;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;

import java.nio.file.Path;
import java.util.List;

import static dev.reverie.springai.ScriptedChatModel.say;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReverieChatMemoryTest {

    static final String RULES = "You are the clinic's receptionist.";
    static final Scope ALICE = Scope.of("clinic-42", "receptionist", "alice");
    static final String S1 = "clinic-42/receptionist/alice/s1";

    @TempDir
    Path dir;
    MemoryStore store;
    ContextManager memory;
    ReverieChatMemory chatMemory;

    @BeforeEach
    void setUp() {
        store = MemoryStores.open("sqlite:" + dir);
        memory = ContextManager.builder().store(store).immutable(ImmutableLayer.of(RULES)).build();
        chatMemory = ReverieChatMemory.builder(memory).budgetTokens(2_000).build();
    }

    @AfterEach
    void tearDown() {
        memory.close();
        store.close();
    }

    @Test
    void a_turn_added_comes_back_after_the_system_layers_as_user_and_assistant_messages() {
        chatMemory.add(S1, new UserMessage("I'd like an appointment on Friday."));
        assertThat(store.sessionTurns(ALICE, "s1", 0, 10)).as("nothing recorded before the answer").isEmpty();
        chatMemory.add(S1, List.of(new AssistantMessage("Noted.")));

        List<Message> back = chatMemory.get(S1);
        assertThat(back.get(0)).isInstanceOf(SystemMessage.class);
        assertThat(back.get(0).getText()).contains(RULES);
        assertThat(back.subList(1, back.size())).extracting(Message::getText)
                .containsExactly("I'd like an appointment on Friday.", "Noted.");
        assertThat(store.sessionTurns(ALICE, "s1", 0, 10)).extracting(SessionTurn::text)
                .containsExactly("I'd like an appointment on Friday.", "Noted.");
        assertThat(chatMemory.get("clinic-42/receptionist/alice/s2")).hasSize(1);
    }

    @Test
    void tool_results_are_recorded_as_tool_turns_and_the_open_turn_is_returned_last() {
        chatMemory.add(S1, new UserMessage("When is the doctor free?"));
        chatMemory.add(S1, ScriptedChatModel.callTool("c1", "calendar", "{}"));
        chatMemory.add(S1, ToolResponseMessage.builder()
                .responses(List.of(new ToolResponseMessage.ToolResponse("c1", "calendar", "Friday 10:00 free"))).build());

        List<Message> open = chatMemory.get(S1);
        assertThat(open.subList(open.size() - 3, open.size()))
                .extracting(m -> m.getClass().getSimpleName())
                .containsExactly("UserMessage", "AssistantMessage", "ToolResponseMessage");

        chatMemory.add(S1, new AssistantMessage("Friday at 10:00."));
        assertThat(store.sessionTurns(ALICE, "s1", 0, 10)).extracting(SessionTurn::role)
                .containsExactly(Role.USER, Role.TOOL, Role.ASSISTANT);
    }

    @Test
    void clear_forgets_the_open_turn_but_never_recorded_turns() {
        chatMemory.add(S1, List.of(new UserMessage("Hi."), new AssistantMessage("Hello.")));
        chatMemory.add(S1, new UserMessage("Half a turn"));
        chatMemory.clear(S1);

        assertThat(chatMemory.get(S1)).extracting(Message::getText).doesNotContain("Half a turn").contains("Hi.");
        assertThat(store.sessionTurns(ALICE, "s1", 0, 10)).hasSize(2);
    }

    @Test
    void conversation_ids_must_read_tenant_agent_user_session() {
        assertThatThrownBy(() -> chatMemory.get("default"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tenant/agent/user/session");
        assertThat(ConversationId.parse(S1)).isEqualTo(ConversationId.of(ALICE, "s1"));
        assertThat(ConversationId.of(ALICE, "s1").toString()).isEqualTo(S1);
    }

    @Test
    void message_chat_memory_advisor_round_trip_through_a_chat_client() {
        ScriptedChatModel model = new ScriptedChatModel(prompt -> say("Noted."));
        ChatClient chat = ChatClient.builder(model)
                .defaultAdvisors(MessageChatMemoryAdvisor.builder(chatMemory).build()).build();

        chat.prompt().user("I'd like an appointment on Friday.")
                .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, S1)).call().content();
        chat.prompt().user("In the morning, please.")
                .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, S1)).call().content();

        List<Message> sent = model.last().getInstructions();
        assertThat(sent.get(0)).isInstanceOf(SystemMessage.class);
        assertThat(sent).extracting(Message::getText).containsSubsequence(
                "I'd like an appointment on Friday.", "Noted.", "In the morning, please.");
        assertThat(sent).filteredOn(m -> "In the morning, please.".equals(m.getText())).hasSize(1);
        assertThat(store.sessionTurns(ALICE, "s1", 0, 10)).extracting(SessionTurn::text).containsExactly(
                "I'd like an appointment on Friday.", "Noted.", "In the morning, please.", "Noted.");
    }
}
