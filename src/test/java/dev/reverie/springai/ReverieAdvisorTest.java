package dev.reverie.springai;

import dev.reverie.ContextManager;
import dev.reverie.ImmutableLayer;
import dev.reverie.MutableClock;
import dev.reverie.RecallMode;
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
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static dev.reverie.springai.ScriptedChatModel.allText;
import static dev.reverie.springai.ScriptedChatModel.callTool;
import static dev.reverie.springai.ScriptedChatModel.hasToolResults;
import static dev.reverie.springai.ScriptedChatModel.lastUserText;
import static dev.reverie.springai.ScriptedChatModel.say;
import static dev.reverie.springai.ScriptedChatModel.systemText;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A real Spring AI {@code ChatClient} with {@link ReverieAdvisor}, two users and two sessions, a
 * scripted model standing in for the remote LLM, and a SQLite store under a temporary folder.
 */
class ReverieAdvisorTest {

    static final Instant T0 = Instant.parse("2026-03-02T09:00:00Z");
    static final String PERSONA = "You are the clinic's receptionist. Be brief and kind.";
    static final String RULES = "Never give medical advice; refer to a doctor.";
    static final Scope ALICE = Scope.of("clinic-42", "receptionist", "alice");
    static final Scope BOB = Scope.of("clinic-42", "receptionist", "bob");

    @TempDir
    Path dir;
    MemoryStore store;
    MutableClock clock;
    ContextManager memory;
    ScriptedChatModel model;
    ChatClient chat;

    @BeforeEach
    void setUp() {
        store = MemoryStores.open("sqlite:" + dir);
        clock = new MutableClock(T0);
        memory = ContextManager.builder().store(store).clock(clock).immutable(ImmutableLayer.of(RULES)).build();
        model = new ScriptedChatModel(prompt -> {
            String said = lastUserText(prompt);
            if (said.startsWith("When is the doctor free") && !hasToolResults(prompt)) {
                return callTool("call-1", "calendar", "{}");
            }
            if (hasToolResults(prompt)) {
                return say("Dr. Costa is free on Friday at 10:00.");
            }
            return say("Noted.");
        });
        chat = ChatClient.builder(model).defaultSystem(PERSONA)
                .defaultAdvisors(ReverieAdvisor.builder(memory).budgetTokens(2_000).build())
                .defaultTools(calendar())
                .build();
    }

    @AfterEach
    void tearDown() {
        memory.close();
        store.close();
    }

    static ToolCallback calendar() {
        ToolDefinition definition = ToolDefinition.builder().name("calendar").description("The doctor's free slots")
                .inputSchema("{\"type\":\"object\",\"properties\":{}}").build();
        return new ToolCallback() {
            @Override
            public ToolDefinition getToolDefinition() {
                return definition;
            }

            @Override
            public String call(String toolInput) {
                return "Dr. Costa: Friday 10:00 free";
            }
        };
    }

    String ask(Scope scope, String session, String question) {
        return chat.prompt().user(question)
                .advisors(a -> a.param(ReverieAdvisor.SCOPE, scope).param(ReverieAdvisor.SESSION, session))
                .call().content();
    }

    String askStreaming(Scope scope, String session, String question) {
        List<String> parts = chat.prompt().user(question)
                .advisors(a -> a.param(ReverieAdvisor.SCOPE, scope).param(ReverieAdvisor.SESSION, session))
                .stream().content().collectList().block(Duration.ofSeconds(30));
        return String.join("", parts);
    }

    static void assertSystemFirstOnceAndUserLast(Prompt prompt, String question) {
        List<Message> m = prompt.getInstructions();
        assertThat(m.get(0)).isInstanceOf(SystemMessage.class);
        assertThat(m).filteredOn(x -> x instanceof SystemMessage).hasSize(1);
        assertThat(systemText(prompt)).startsWith(PERSONA).contains(RULES);
        assertThat(systemText(prompt).indexOf(PERSONA, 1)).as("the persona appears once").isEqualTo(-1);
        assertThat(systemText(prompt).indexOf(RULES, systemText(prompt).indexOf(RULES) + 1)).isEqualTo(-1);
        int lastUser = -1;
        for (int i = 0; i < m.size(); i++) {
            if (m.get(i) instanceof UserMessage) {
                lastUser = i;
            }
        }
        assertThat(m.get(lastUser).getText()).isEqualTo(question);
        assertThat(m).filteredOn(x -> question.equals(x.getText())).as("the question is never duplicated").hasSize(1);
        assertThat(m.subList(lastUser + 1, m.size()))
                .allMatch(x -> x instanceof ToolResponseMessage || (x instanceof AssistantMessage a && a.hasToolCalls()));
    }

    @Test
    void a_second_session_recalls_the_first_sessions_fact_for_the_same_user_only() {
        assertThat(ask(ALICE, "s1", "Hi, I'm Marina. I'm allergic to dipyrone.")).isEqualTo("Noted.");
        assertThat(ask(BOB, "s1", "Hello, I'm Bruno. I'm allergic to penicillin.")).isEqualTo("Noted.");
        clock.advance(Duration.ofDays(3));

        ask(ALICE, "s2", "Can I take dipyrone for my headache?");
        Prompt alice = model.last();
        ask(BOB, "s2", "Can I take dipyrone or penicillin?");
        Prompt bob = model.last();

        assertThat(systemText(alice)).contains("allergic to dipyrone");
        assertThat(allText(alice)).doesNotContain("penicillin").doesNotContain("Bruno");
        assertThat(systemText(bob)).contains("allergic to penicillin").doesNotContain("allergic to dipyrone");
        assertThat(allText(bob)).doesNotContain("Marina");
        assertSystemFirstOnceAndUserLast(alice, "Can I take dipyrone for my headache?");
        assertSystemFirstOnceAndUserLast(bob, "Can I take dipyrone or penicillin?");
        for (Prompt p : model.prompts()) {
            assertSystemFirstOnceAndUserLast(p, lastUserText(p));
        }
        assertThat(store.sessionTurns(ALICE, "s2", 0, 10)).extracting(SessionTurn::role)
                .containsExactly(Role.USER, Role.ASSISTANT);
        assertThat(store.sessionTurns(ALICE, "s1", 0, 10)).extracting(SessionTurn::text)
                .containsExactly("Hi, I'm Marina. I'm allergic to dipyrone.", "Noted.");
    }

    @Test
    void the_session_so_far_comes_back_as_user_and_assistant_messages_before_the_new_question() {
        ask(ALICE, "s1", "I'd like an appointment on Friday.");
        ask(ALICE, "s1", "In the morning, please.");

        List<Message> sent = model.last().getInstructions();
        assertThat(sent).hasSize(4);
        assertThat(sent.get(1)).isInstanceOf(UserMessage.class);
        assertThat(sent.get(1).getText()).isEqualTo("I'd like an appointment on Friday.");
        assertThat(sent.get(2)).isInstanceOf(AssistantMessage.class);
        assertThat(sent.get(2).getText()).isEqualTo("Noted.");
        assertThat(sent.get(3).getText()).isEqualTo("In the morning, please.");
    }

    @Test
    void streaming_records_the_same_turns_once_the_stream_completes() {
        assertThat(askStreaming(ALICE, "s1", "Hi, I'm Marina. I'm allergic to dipyrone.")).isEqualTo("Noted.");
        clock.advance(Duration.ofDays(1));
        assertThat(askStreaming(ALICE, "s2", "Can I take dipyrone?")).isEqualTo("Noted.");

        assertThat(systemText(model.last())).contains("allergic to dipyrone");
        assertSystemFirstOnceAndUserLast(model.last(), "Can I take dipyrone?");
        assertThat(store.sessionTurns(ALICE, "s1", 0, 10)).extracting(SessionTurn::text)
                .containsExactly("Hi, I'm Marina. I'm allergic to dipyrone.", "Noted.");
        assertThat(store.sessionTurns(ALICE, "s2", 0, 10)).extracting(SessionTurn::text)
                .containsExactly("Can I take dipyrone?", "Noted.");
    }

    @Test
    void tool_calls_and_results_are_recorded_as_such() {
        assertThat(ask(ALICE, "s1", "When is the doctor free?")).isEqualTo("Dr. Costa is free on Friday at 10:00.");

        Prompt second = model.last();
        assertSystemFirstOnceAndUserLast(second, "When is the doctor free?");
        assertThat(second.getInstructions().get(second.getInstructions().size() - 1)).isInstanceOf(ToolResponseMessage.class);
        List<SessionTurn> turns = store.sessionTurns(ALICE, "s1", 0, 10);
        assertThat(turns).extracting(SessionTurn::role).containsExactly(Role.USER, Role.TOOL, Role.ASSISTANT);
        assertThat(turns.get(1).text()).isEqualTo("Dr. Costa: Friday 10:00 free");
        assertThat(turns.get(2).text()).isEqualTo("Dr. Costa is free on Friday at 10:00.");
    }

    @Test
    void streaming_tool_calls_are_recorded_once_with_their_results() {
        assertThat(askStreaming(ALICE, "s1", "When is the doctor free?")).isEqualTo("Dr. Costa is free on Friday at 10:00.");

        assertThat(store.sessionTurns(ALICE, "s1", 0, 10)).extracting(SessionTurn::role)
                .containsExactly(Role.USER, Role.TOOL, Role.ASSISTANT);
    }

    @Test
    void a_missing_scope_fails_with_how_to_pass_it() {
        assertThatThrownBy(() -> chat.prompt().user("Hello").call().content())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("a.param(ReverieAdvisor.SCOPE, Scope.of(tenant, agent, user))");
        assertThatThrownBy(() -> chat.prompt().user("Hello").advisors(a -> a.param(ReverieAdvisor.SCOPE, 42))
                .call().content())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("java.lang.Integer");
        assertThat(model.prompts()).isEmpty();
    }

    @Test
    void the_scope_may_be_given_in_its_string_form_and_the_session_defaults() {
        chat.prompt().user("Hi, I'm Marina.").advisors(a -> a.param(ReverieAdvisor.SCOPE, "clinic-42/receptionist/alice"))
                .call().content();

        assertThat(store.sessionTurns(ALICE, ReverieAdvisor.DEFAULT_SESSION, 0, 10)).hasSize(2);
    }

    @Test
    void on_demand_recall_injects_no_memories_and_the_sealed_recall_tool_reaches_them_unrecorded() {
        ask(ALICE, "s1", "Hi, I'm Marina. I'm allergic to dipyrone.");
        ask(BOB, "s1", "Hello, I'm Bruno. I'm allergic to penicillin.");
        clock.advance(Duration.ofDays(3));
        ScriptedChatModel searching = new ScriptedChatModel(prompt -> hasToolResults(prompt)
                ? say("Your file says you are allergic to dipyrone.")
                : callTool("call-9", "recall_memory", "{\"query\":\"allergic\"}"));
        ChatClient onDemand = ChatClient.builder(searching)
                .defaultAdvisors(ReverieAdvisor.builder(memory).recallMode(RecallMode.ON_DEMAND).build()).build();

        String answer = onDemand.prompt().user("Can I take dipyrone?")
                .advisors(a -> a.param(ReverieAdvisor.SCOPE, ALICE).param(ReverieAdvisor.SESSION, "s2"))
                .tools(ReverieToolCallback.of(memory.recallTool(ALICE)))
                .call().content();

        assertThat(answer).isEqualTo("Your file says you are allergic to dipyrone.");
        assertThat(systemText(searching.prompts().get(0))).doesNotContain("allergic to dipyrone");
        List<Message> second = searching.last().getInstructions();
        ToolResponseMessage result = (ToolResponseMessage) second.get(second.size() - 1);
        assertThat(result.getResponses().get(0).responseData()).contains("dipyrone").doesNotContain("penicillin");
        assertThat(store.sessionTurns(ALICE, "s2", 0, 10)).extracting(SessionTurn::role)
                .as("the recall tool's results are memory already: not recorded again")
                .containsExactly(Role.USER, Role.ASSISTANT);
    }

    @Test
    void the_builder_fails_fast_on_bad_settings() {
        assertThatThrownBy(() -> ReverieAdvisor.builder(memory).budgetTokens(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("budgetTokens");
        assertThatThrownBy(() -> ReverieAdvisor.builder(memory).defaultSession("bad session"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("defaultSession");
        assertThatThrownBy(() -> ReverieAdvisor.builder(null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ReverieAdvisor.builder(memory)
                .order(org.springframework.core.Ordered.LOWEST_PRECEDENCE).build())
                .isInstanceOf(dev.reverie.ConfigurationException.class).hasMessageContaining("pass a smaller order");
        ReverieAdvisor advisor = ReverieAdvisor.builder(memory).order(10).build();
        assertThat(advisor.getOrder()).isEqualTo(10);
        assertThat(advisor.getName()).isEqualTo("ReverieAdvisor");
    }
}
