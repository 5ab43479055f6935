package dev.reverie.examples.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.reverie.ContextManager;
import dev.reverie.Memory;
import dev.reverie.MemoryKind;
import dev.reverie.Scope;
import dev.reverie.langchain4j.LangChain4jEmbedder;
import dev.reverie.langchain4j.ReverieChatMemoryProvider;
import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.MemoryStores;
import dev.reverie.spi.WriteBatch;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Reverie as the memory of an unchanged LangChain4j {@code AiServices} assistant, offline: the local
 * all-MiniLM-L6-v2 model embeds memories and questions, and {@link OfflineModel} stands in for the
 * remote chat model (it prints every request it receives, so you see exactly what a provider would
 * be sent). Run with
 * {@code mvn -q -Pexamples compile exec:java -Dexec.mainClass=dev.reverie.examples.langchain4j.LangChain4jClinic};
 * docs/langchain4j.md shows how to put a real provider in its place.
 */
public final class LangChain4jClinic {

    /** The AI service: LangChain4j implements it; Reverie is its chat memory. */
    interface Receptionist {
        @dev.langchain4j.service.SystemMessage("You are the clinic's receptionist. Be brief and kind. "
                + "Never give medical advice; book, move and cancel appointments.")
        String chat(@MemoryId String conversation, @dev.langchain4j.service.UserMessage String message);
    }

    private LangChain4jClinic() {
    }

    public static void main(String[] args) throws Exception {
        Path data = args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("reverie-langchain4j");
        LangChain4jEmbedder miniLm = LangChain4jEmbedder.of(new AllMiniLmL6V2EmbeddingModel());
        try (MemoryStore store = MemoryStores.open("sqlite:" + data);
             ContextManager memory = ContextManager.builder().store(store).embedder(miniLm).build()) {

            importPatientRecords(store, miniLm);

            ReverieChatMemoryProvider memories = ReverieChatMemoryProvider.builder(memory).budgetTokens(2_000).build();
            OfflineModel model = new OfflineModel();
            Receptionist receptionist = AiServices.builder(Receptionist.class)
                    .chatModel(model)                                            // your provider's ChatModel
                    .chatMemoryProvider(memories)                                // Reverie is the memory
                    .chatRequestTransformer(memories.chatRequestTransformer())   // recall for each new message
                    .tools(memories.recallTool())                                // the model may search memory too
                    .build();

            String marina = "clinic-42/receptionist/patient-123/";
            String joao = "clinic-42/receptionist/patient-456/";
            ask(receptionist, marina + "session-1", "Hi, I'd like a check-up next week.");
            ask(receptionist, marina + "session-1", "Mornings are best for me.");
            // a new session: the session-1 turns are not replayed, the durable facts are recalled by meaning
            ask(receptionist, marina + "session-2", "What should the doctor avoid prescribing me?");
            // the model asks for the recall tool; the call and its result stay paired
            ask(receptionist, marina + "session-2", "What do you remember about me?");
            // another patient of the same clinic asks the same question: nothing of Marina's reaches him
            ask(receptionist, joao + "session-1", "What should the doctor avoid prescribing me?");

            memory.flush();
            System.out.println("Data kept in " + data.toAbsolutePath());
        }
    }

    private static void ask(Receptionist receptionist, String conversation, String question) {
        System.out.println();
        System.out.println("##### " + conversation + " — user: " + question);
        System.out.println("##### assistant: " + receptionist.chat(conversation, question));
    }

    /**
     * The clinic's existing patient files, imported as operator-written durable memories with their
     * vectors (conversations add to them through extraction and the dream cycle).
     */
    private static void importPatientRecords(MemoryStore store, LangChain4jEmbedder embedder) {
        Instant now = Instant.now();
        record Fact(Scope scope, String id, MemoryKind kind, String text) {
        }
        Scope marina = Scope.of("clinic-42", "receptionist", "patient-123");
        Scope joao = Scope.of("clinic-42", "receptionist", "patient-456");
        List<Fact> facts = List.of(
                new Fact(marina, "rec-1", MemoryKind.FACT, "Allergic to dipyrone (metamizole)"),
                new Fact(marina, "rec-2", MemoryKind.PREFERENCE, "Prefers to be called Dra. Marina"),
                new Fact(marina, "rec-3", MemoryKind.FACT, "Lives in Recife"),
                new Fact(joao, "rec-4", MemoryKind.FACT, "Allergic to penicillin"));
        List<float[]> vectors = embedder.embedAll(facts.stream().map(Fact::text).toList());
        for (int i = 0; i < facts.size(); i++) {
            Fact f = facts.get(i);
            store.write(WriteBatch.of(f.scope()).put(Memory.builder(f.id(), f.scope(), f.kind(), f.text(), now)
                    .importance(70).embedding(dev.reverie.Embedding.of(vectors.get(i))).build()));
        }
    }

    /**
     * Stands in for a remote chat model so the example runs offline: prints each request, asks for the
     * recall tool when the user asks what it remembers, and otherwise answers from the memory block
     * it was sent.
     */
    static final class OfflineModel implements ChatModel {
        @Override
        public ChatResponse doChat(ChatRequest request) {
            print(request);
            List<ChatMessage> messages = request.messages();
            ChatMessage last = messages.get(messages.size() - 1);
            AiMessage answer;
            if (last instanceof ToolExecutionResultMessage result) {
                answer = AiMessage.from("Here is what I found in my notes: " + result.text());
            } else if (last instanceof UserMessage user && user.singleText().contains("remember")
                    && !request.toolSpecifications().isEmpty()) {
                answer = AiMessage.from(ToolExecutionRequest.builder().id("call-" + System.nanoTime())
                        .name(request.toolSpecifications().get(0).name())
                        .arguments("{\"query\":\"patient preferences allergies address\"}").build());
            } else {
                List<String> remembered = memoryLines(((SystemMessage) messages.get(0)).text());
                answer = AiMessage.from(remembered.isEmpty() ? "Noted."
                        : "Noted. From your file: " + String.join("; ", remembered) + ".");
            }
            return ChatResponse.builder().aiMessage(answer).build();
        }

        private static List<String> memoryLines(String system) {
            List<String> out = new ArrayList<>();
            boolean inside = false;
            for (String line : system.split("\n")) {
                if (line.equals("<memory>")) {
                    inside = true;
                } else if (line.equals("</memory>")) {
                    inside = false;
                } else if (inside && line.startsWith("- ")) {
                    out.add(line.replaceFirst("^- \\[[0-9-]+\\] \\([a-z]+\\) ", ""));
                }
            }
            return out;
        }

        private static void print(ChatRequest request) {
            System.out.println("  --- request to the model (" + request.messages().size() + " messages, tools: "
                    + request.toolSpecifications().stream().map(t -> t.name()).toList() + ")");
            for (ChatMessage m : request.messages()) {
                String text;
                if (m instanceof SystemMessage s) {
                    text = s.text();
                } else if (m instanceof UserMessage u) {
                    text = u.singleText();
                } else if (m instanceof AiMessage a) {
                    text = a.hasToolExecutionRequests() ? "calls " + a.toolExecutionRequests().get(0).name() + " "
                            + a.toolExecutionRequests().get(0).arguments() : a.text();
                } else if (m instanceof ToolExecutionResultMessage r) {
                    text = r.text();
                } else {
                    text = m.toString();
                }
                System.out.println("  [" + m.type() + "] " + text.replace("\n", "\n      "));
            }
        }
    }
}
