package dev.reverie.langchain4j;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.SystemMessage;
import dev.langchain4j.service.UserMessage;
import dev.reverie.AssembledContext;
import dev.reverie.ContextManager;
import dev.reverie.ContextRequest;
import dev.reverie.Embedding;
import dev.reverie.Memory;
import dev.reverie.MemoryKind;
import dev.reverie.MutableClock;
import dev.reverie.RecalledMemory;
import dev.reverie.Scope;
import dev.reverie.spi.Extractor;
import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.MemoryStores;
import dev.reverie.spi.WriteBatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static dev.reverie.langchain4j.ScriptedChatModel.systemText;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hybrid retrieval with a real local embedding model (all-MiniLM-L6-v2, shipped inside its jar):
 * a memory that shares no word with the question is found by meaning, where lexical retrieval over
 * the same data finds nothing.
 */
class HybridRetrievalLangChain4jTest {

    static final Instant T0 = Instant.parse("2026-03-02T09:00:00Z");
    static final Scope ALICE = Scope.of("clinic-42", "receptionist", "alice");
    static final String QUESTION = "What should I avoid prescribing?";
    static final List<String> FACTS = List.of("Allergic to dipyrone", "Prefers morning appointments",
            "Works as a primary school teacher", "Lives in Recife with two cats", "Likes jazz and long walks");

    static LangChain4jEmbedder miniLm;

    interface Receptionist {
        @SystemMessage("You are the clinic's receptionist.")
        String chat(@MemoryId String conversation, @UserMessage String message);
    }

    @TempDir
    Path dir;
    MemoryStore store;
    MutableClock clock;
    final List<ContextManager> managers = new ArrayList<>();

    @BeforeAll
    static void loadModel() {
        miniLm = LangChain4jEmbedder.of(new AllMiniLmL6V2EmbeddingModel());
    }

    @BeforeEach
    void setUp() {
        store = MemoryStores.open("sqlite:" + dir);
        clock = new MutableClock(T0);
    }

    @AfterEach
    void tearDown() {
        managers.forEach(ContextManager::close);
        store.close();
    }

    ContextManager manager(boolean embedder, Extractor extractor) {
        ContextManager.Builder b = ContextManager.builder().store(store).clock(clock);
        if (embedder) {
            b.embedder(miniLm);
        }
        if (extractor != null) {
            b.extractor(extractor);
        }
        ContextManager m = b.build();
        managers.add(m);
        return m;
    }

    static List<String> recalled(AssembledContext context) {
        return context.recalled().stream().map(RecalledMemory::text).toList();
    }

    @Test
    void a_memory_sharing_no_word_with_the_question_is_found_by_meaning_only() {
        List<float[]> vectors = miniLm.embedAll(FACTS);
        WriteBatch batch = WriteBatch.of(ALICE);
        for (int i = 0; i < FACTS.size(); i++) {
            // as the dream cycle leaves them: durable memories with their vectors
            batch.put(Memory.builder("m" + i, ALICE, MemoryKind.FACT, FACTS.get(i), T0).importance(60)
                    .embedding(Embedding.of(vectors.get(i))).build());
        }
        store.write(batch);
        ContextRequest request = ContextRequest.builder(ALICE, "s1").query(QUESTION).budgetTokens(1_000).build();

        AssembledContext hybrid = manager(true, null).buildContext(request);
        AssembledContext lexical = manager(false, null).buildContext(request);

        assertThat(recalled(hybrid)).first().isEqualTo("Allergic to dipyrone");
        assertThat(recalled(lexical)).doesNotContain("Allergic to dipyrone");
    }

    @Test
    void an_observation_embedded_on_write_is_recalled_in_the_next_session_through_ai_services() {
        for (boolean withEmbedder : new boolean[] {true, false}) {
            String user = withEmbedder ? "alice" : "bob";
            ContextManager memory = manager(withEmbedder, null);
            ReverieChatMemoryProvider memories = ReverieChatMemoryProvider.builder(memory).budgetTokens(1_500).build();
            ScriptedChatModel model = new ScriptedChatModel(r -> AiMessage.from("Noted."));
            Receptionist receptionist = AiServices.builder(Receptionist.class).chatModel(model)
                    .chatMemoryProvider(memories).chatRequestTransformer(memories.chatRequestTransformer()).build();

            receptionist.chat("clinic-42/receptionist/" + user + "/s1", "Hi! Just so you know, I'm allergic to dipyrone.");
            memory.flush();
            clock.advance(Duration.ofDays(2));
            receptionist.chat("clinic-42/receptionist/" + user + "/s2", QUESTION);

            if (withEmbedder) {
                // the observation or the verbatim turn it came from, both found by vector
                assertThat(systemText(model.last())).containsIgnoringCase("allergic to dipyrone");
            } else {
                assertThat(systemText(model.last())).doesNotContain("dipyrone");
            }
        }
    }
}
