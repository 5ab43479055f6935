package dev.reverie.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.SystemMessage;
import dev.langchain4j.service.TokenStream;
import dev.reverie.ContextManager;
import dev.reverie.Memory;
import dev.reverie.MemoryKind;
import dev.reverie.MutableClock;
import dev.reverie.Outcome;
import dev.reverie.Provenance;
import dev.reverie.RecallMode;
import dev.reverie.Role;
import dev.reverie.Scope;
import dev.reverie.Source;
import dev.reverie.Trust;
import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.MemoryStores;
import dev.reverie.spi.SessionTurn;
import dev.reverie.spi.WriteBatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static dev.reverie.langchain4j.ScriptedChatModel.allText;
import static dev.reverie.langchain4j.ScriptedChatModel.assertWellFormed;
import static dev.reverie.langchain4j.ScriptedChatModel.hasToolResults;
import static dev.reverie.langchain4j.ScriptedChatModel.lastUserText;
import static dev.reverie.langchain4j.ScriptedChatModel.systemText;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * An unchanged {@code AiServices} conversation over several sessions and two users, with Reverie as
 * the chat memory and a scripted model standing in for the remote LLM.
 */
class AiServicesLangChain4jTest {

    static final Instant T0 = Instant.parse("2026-03-02T09:00:00Z");
    static final String PERSONA = "You are the clinic's receptionist. Be brief and kind.";
    static final Scope ALICE = Scope.of("clinic-42", "receptionist", "alice");
    static final Scope BOB = Scope.of("clinic-42", "receptionist", "bob");

    interface Receptionist {
        @SystemMessage(PERSONA)
        String chat(@MemoryId String conversation, @dev.langchain4j.service.UserMessage String message);
    }

    interface StreamingReceptionist {
        @SystemMessage(PERSONA)
        TokenStream chat(@MemoryId String conversation, @dev.langchain4j.service.UserMessage String message);
    }

    /** The streaming stand-in: streams the scripted answer in two parts. */
    static final class StreamingScript implements StreamingChatModel {
        final ScriptedChatModel script;

        StreamingScript(ScriptedChatModel script) {
            this.script = script;
        }

        @Override
        public void doChat(ChatRequest request, StreamingChatResponseHandler handler) {
            ChatResponse response = script.doChat(request);
            String text = response.aiMessage().text();
            if (text != null) {
                handler.onPartialResponse(text.substring(0, text.length() / 2));
                handler.onPartialResponse(text.substring(text.length() / 2));
            }
            handler.onCompleteResponse(response);
        }
    }

    @TempDir
    Path dir;
    MemoryStore store;
    MutableClock clock;
    ContextManager memory;
    ReverieChatMemoryProvider memories;
    ScriptedChatModel model;
    int ids;

    @BeforeEach
    void setUp() {
        store = MemoryStores.open("sqlite:" + dir);
        clock = new MutableClock(T0);
        // the default write path extracts what users say into L3 observations: the durable facts' real path
        memory = ContextManager.builder().store(store).clock(clock).build();
        memories = ReverieChatMemoryProvider.builder(memory).budgetTokens(2_000).build();
        model = new ScriptedChatModel(request -> {
            String said = lastUserText(request);
            if (said.startsWith("What do you remember") && !hasToolResults(request)) {
                return AiMessage.from(ToolExecutionRequest.builder().id("call-1").name("recall_memory")
                        .arguments("{\"query\":\"dipyrone\"}").build());
            }
            if (hasToolResults(request)) {
                return AiMessage.from("From my notes: you are allergic to dipyrone.");
            }
            return AiMessage.from("Noted.");
        });
    }

    @AfterEach
    void tearDown() {
        memory.close();
        store.close();
    }

    Receptionist receptionist(boolean transformer) {
        AiServices<Receptionist> b = AiServices.builder(Receptionist.class).chatModel(model)
                .chatMemoryProvider(memories).tools(memories.recallTool());
        if (transformer) {
            b.chatRequestTransformer(memories.chatRequestTransformer());
        }
        return b.build();
    }

    /**
     * A durable L4 fact as the dream cycle (not on this branch yet) would leave it, with the session-1
     * turn as its provenance: needed where only L4 can serve, i.e. pinned permanent facts.
     */
    void durableFact(Scope scope, String text, boolean permanent) {
        String turnId = store.sessionTurns(scope, "s1", 0, 10).get(0).turnId();
        store.write(WriteBatch.of(scope).put(Memory.builder("m" + (++ids), scope, MemoryKind.FACT, text, clock.instant())
                .subject("user.allergy").importance(80).permanent(permanent)
                .provenance(new Provenance(Source.USER, "s1", turnId, clock.instant(), Outcome.UNKNOWN, Trust.FIRST_PARTY))
                .sourceTurnIds(List.of(turnId)).build()));
    }

    @Test
    void a_second_session_recalls_the_first_sessions_fact_for_the_same_user_only() {
        Receptionist receptionist = receptionist(true);
        assertThat(receptionist.chat("clinic-42/receptionist/alice/s1", "Hi, I'm Marina. I'm allergic to dipyrone."))
                .isEqualTo("Noted.");
        assertThat(receptionist.chat("clinic-42/receptionist/bob/s1", "Hello, I'm Bruno. I'm allergic to penicillin."))
                .isEqualTo("Noted.");
        clock.advance(Duration.ofDays(3));

        receptionist.chat("clinic-42/receptionist/alice/s2", "Can I take dipyrone for my headache?");
        ChatRequest alice = model.last();
        receptionist.chat("clinic-42/receptionist/bob/s2", "Can I take dipyrone or penicillin?");
        ChatRequest bob = model.last();

        // said in session 1, recalled in session 2 with its date: the verbatim turn (episodic recall)
        // carries the fact extracted from it, so only the turn is packed
        assertThat(systemText(alice)).startsWith(PERSONA).contains("<memory>")
                .contains("[2026-03-02] user: Hi, I'm Marina. I'm allergic to dipyrone.")
                .doesNotContain("(fact) User is allergic to dipyrone");
        assertThat(allText(alice)).doesNotContain("penicillin").doesNotContain("Bruno");
        assertThat(systemText(bob)).contains("I'm allergic to penicillin").doesNotContain("allergic to dipyrone");
        assertThat(allText(bob)).doesNotContain("Marina");
        assertThat(alice.messages().get(alice.messages().size() - 1))
                .isEqualTo(UserMessage.from("Can I take dipyrone for my headache?"));
        for (ChatRequest r : model.requests()) {
            assertWellFormed(r);
            assertThat(systemText(r)).startsWith(PERSONA);
            assertThat(systemText(r).indexOf(PERSONA, 1)).as("the persona appears once").isEqualTo(-1);
        }
        assertThat(store.sessionTurns(ALICE, "s2", 0, 10)).extracting(SessionTurn::role)
                .containsExactly(Role.USER, Role.ASSISTANT);
        assertThat(store.sessionTurns(ALICE, "s1", 0, 10)).extracting(SessionTurn::text)
                .containsExactly("Hi, I'm Marina. I'm allergic to dipyrone.", "Noted.");
    }

    @Test
    void the_session_so_far_comes_back_as_user_and_ai_messages_before_the_new_question() {
        Receptionist receptionist = receptionist(true);
        receptionist.chat("clinic-42/receptionist/alice/s1", "I'd like an appointment on Friday.");
        receptionist.chat("clinic-42/receptionist/alice/s1", "In the morning, please.");

        List<ChatMessage> sent = model.last().messages();
        assertThat(sent).hasSize(4);
        assertThat(sent.get(1)).isEqualTo(UserMessage.from("I'd like an appointment on Friday."));
        assertThat(sent.get(2)).isEqualTo(AiMessage.from("Noted."));
        assertThat(sent.get(3)).isEqualTo(UserMessage.from("In the morning, please."));
    }

    @Test
    void tool_calls_and_results_stay_paired_and_the_recall_tool_is_sealed_to_the_user() {
        Receptionist receptionist = receptionist(true);
        receptionist.chat("clinic-42/receptionist/alice/s1", "Hi, I'm allergic to dipyrone.");
        receptionist.chat("clinic-42/receptionist/bob/s1", "Hi. I'm allergic to dipyrone. I'm allergic to penicillin.");

        String answer = receptionist.chat("clinic-42/receptionist/alice/s2", "What do you remember about my allergies?");
        assertThat(answer).isEqualTo("From my notes: you are allergic to dipyrone.");

        List<ChatRequest> requests = model.requests();
        ChatRequest withResults = requests.get(requests.size() - 1);
        List<ChatMessage> m = withResults.messages();
        assertThat(m.get(m.size() - 3)).isEqualTo(UserMessage.from("What do you remember about my allergies?"));
        assertThat(((AiMessage) m.get(m.size() - 2)).toolExecutionRequests()).extracting(ToolExecutionRequest::id)
                .containsExactly("call-1");
        ToolExecutionResultMessage result = (ToolExecutionResultMessage) m.get(m.size() - 1);
        assertThat(result.id()).isEqualTo("call-1");
        assertThat(result.text()).contains("User is allergic to dipyrone").doesNotContain("penicillin");
        assertThat(requests.get(requests.size() - 2).toolSpecifications()).extracting(s -> s.name())
                .contains("recall_memory");

        receptionist.chat("clinic-42/receptionist/alice/s2", "Thanks!");
        List<ChatMessage> next = model.last().messages();
        for (ChatRequest r : model.requests()) {
            assertWellFormed(r);
        }
        // the finished exchange is history now: the question and the answer, no dangling tool call
        assertThat(next).noneMatch(x -> x instanceof AiMessage a && a.hasToolExecutionRequests());
        assertThat(next).contains(UserMessage.from("What do you remember about my allergies?"),
                AiMessage.from("From my notes: you are allergic to dipyrone."));
        // the recall tool's output is memory already: it is not recorded again as a tool turn
        assertThat(store.sessionTurns(ALICE, "s2", 0, 10)).extracting(SessionTurn::role)
                .containsExactly(Role.USER, Role.ASSISTANT, Role.USER, Role.ASSISTANT);
    }

    @Test
    void on_demand_mode_injects_only_pinned_facts_and_the_model_searches_with_the_tool() {
        memories = ReverieChatMemoryProvider.builder(memory).budgetTokens(2_000).recallMode(RecallMode.ON_DEMAND).build();
        Receptionist receptionist = receptionist(true);
        receptionist.chat("clinic-42/receptionist/alice/s1", "Hi, I'm Marina. I'm allergic to dipyrone.");
        durableFact(ALICE, "Prefers to be called Dra. Marina", true);
        durableFact(ALICE, "Allergic to dipyrone", false);

        receptionist.chat("clinic-42/receptionist/alice/s2", "What do you remember about dipyrone?");
        List<ChatRequest> requests = model.requests();
        ChatRequest first = requests.get(requests.size() - 2);
        assertThat(systemText(first)).contains("Prefers to be called Dra. Marina").doesNotContain("Allergic to dipyrone");
        ToolExecutionResultMessage result = (ToolExecutionResultMessage) model.last().messages()
                .get(model.last().messages().size() - 1);
        assertThat(result.text()).contains("Allergic to dipyrone");
    }

    @Test
    void without_the_transformer_the_first_request_of_a_turn_carries_pinned_facts_and_the_session() {
        // LangChain4j 1.x reads the memory before it adds the user message: recall by relevance needs
        // the request transformer; pinned identity and safety facts do not
        Receptionist receptionist = receptionist(false);
        receptionist.chat("clinic-42/receptionist/alice/s1", "Hi, I'm Marina. I'm allergic to dipyrone.");
        durableFact(ALICE, "Prefers to be called Dra. Marina", true);
        durableFact(ALICE, "Allergic to dipyrone", false);

        receptionist.chat("clinic-42/receptionist/alice/s2", "Can I take dipyrone for my headache?");
        assertThat(systemText(model.last())).startsWith(PERSONA).contains("Prefers to be called Dra. Marina")
                .doesNotContain("Allergic to dipyrone");
        assertWellFormed(model.last());

        memories = ReverieChatMemoryProvider.builder(memory).budgetTokens(2_000).build();
        receptionist(true).chat("clinic-42/receptionist/alice/s3", "Can I take dipyrone for my headache?");
        // the durable fact or the verbatim turn it came from (which carries it)
        assertThat(systemText(model.last())).containsIgnoringCase("allergic to dipyrone");
    }

    @Test
    void a_streaming_service_gets_the_same_context_and_records_the_same_turns() throws Exception {
        StreamingReceptionist receptionist = AiServices.builder(StreamingReceptionist.class)
                .streamingChatModel(new StreamingScript(model)).chatMemoryProvider(memories)
                .chatRequestTransformer(memories.chatRequestTransformer()).tools(memories.recallTool()).build();
        stream(receptionist, "clinic-42/receptionist/alice/s1", "Hi, I'm allergic to dipyrone.");
        durableFact(ALICE, "Allergic to dipyrone", false);

        assertThat(stream(receptionist, "clinic-42/receptionist/alice/s2", "Can I take dipyrone?")).isEqualTo("Noted.");
        assertThat(systemText(model.last())).startsWith(PERSONA).containsIgnoringCase("allergic to dipyrone");
        assertThat(stream(receptionist, "clinic-42/receptionist/alice/s2", "What do you remember about my allergies?"))
                .isEqualTo("From my notes: you are allergic to dipyrone.");
        for (ChatRequest r : model.requests()) {
            assertWellFormed(r);
        }
        assertThat(store.sessionTurns(ALICE, "s2", 0, 10)).extracting(SessionTurn::role)
                .containsExactly(Role.USER, Role.ASSISTANT, Role.USER, Role.ASSISTANT);
    }

    static String stream(StreamingReceptionist receptionist, String conversation, String message) throws Exception {
        CompletableFuture<String> answer = new CompletableFuture<>();
        receptionist.chat(conversation, message)
                .onPartialResponse(part -> { })
                .onCompleteResponse(r -> answer.complete(r.aiMessage().text()))
                .onError(answer::completeExceptionally)
                .start();
        return answer.get(30, TimeUnit.SECONDS);
    }
}
