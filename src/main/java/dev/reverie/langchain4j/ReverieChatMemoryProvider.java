package dev.reverie.langchain4j;

import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.memory.chat.ChatMemoryProvider;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.service.tool.ToolExecutor;
import dev.reverie.ContextManager;
import dev.reverie.ContextRequest;
import dev.reverie.RecallMode;
import dev.reverie.internal.Checks;
import dev.reverie.spi.TokenCounter;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Gives LangChain4j one {@link ReverieChatMemory} per memory id, so an {@code AiServices} interface
 * with a {@code @MemoryId} parameter gets Reverie's layered context and long-term memory:
 *
 * <pre>{@code
 * ReverieChatMemoryProvider memories = ReverieChatMemoryProvider.builder(contextManager).budgetTokens(3_000).build();
 * Assistant assistant = AiServices.builder(Assistant.class)
 *     .chatModel(model)
 *     .chatMemoryProvider(memories)
 *     .chatRequestTransformer(memories.chatRequestTransformer())   // recall for the current message
 *     .build();
 * assistant.chat("clinic-42/receptionist/patient-123/session-7", "Can I move my appointment?");
 * }</pre>
 *
 * <p>A memory id maps to a {@link Conversation} (scope and session) through
 * {@link Builder#conversations}; the default, {@link Conversation#from}, accepts a
 * {@code Conversation} or the string {@code "tenant/agent/user/session"}. The mapping is the host's:
 * the model never chooses whose memory it reads. {@link #recallTool()} gives the ON_DEMAND recall
 * tool resolved through the same mapping.
 *
 * <p>The provider returns the same memory for the same id while someone (LangChain4j's own memory
 * cache) still holds it, and lets it be collected afterwards: it keeps only weak references, so its
 * footprint follows the AI service's, not the number of end users ever served. Thread-safe.
 */
public final class ReverieChatMemoryProvider implements ChatMemoryProvider {

    private final ContextManager manager;
    private final Function<Object, Conversation> conversations;
    private final int budgetTokens;
    private final RecallMode recallMode;
    private final TokenCounter tokens;
    private final Set<String> unrecordedTools;
    private final ConcurrentHashMap<Object, MemoryRef> live = new ConcurrentHashMap<>();
    private final ReferenceQueue<ReverieChatMemory> collected = new ReferenceQueue<>();

    private ReverieChatMemoryProvider(Builder b) {
        this.manager = b.manager;
        this.conversations = b.conversations;
        this.budgetTokens = b.budgetTokens;
        this.recallMode = b.recallMode;
        this.tokens = b.tokenCounter != null ? b.tokenCounter : TokenCounter.o200k();
        this.unrecordedTools = Set.of(ReverieRecallTool.name(manager));
    }

    /** A builder over {@code manager}, which the provider uses but does not close. */
    public static Builder builder(ContextManager manager) {
        return new Builder(manager);
    }

    /**
     * The memory for {@code memoryId}: the live one if there is one, else a new one for the
     * conversation the id maps to. Fails with {@link IllegalArgumentException} when the id maps to
     * nothing.
     */
    @Override
    public ReverieChatMemory get(Object memoryId) {
        Checks.notNull("memoryId", memoryId);
        expunge();
        MemoryRef ref = live.get(memoryId);
        ReverieChatMemory memory = ref == null ? null : ref.get();
        if (memory != null) {
            return memory;
        }
        ReverieChatMemory created = create(memoryId);
        ReverieChatMemory[] result = new ReverieChatMemory[1];
        live.compute(memoryId, (k, existing) -> {
            ReverieChatMemory other = existing == null ? null : existing.get();
            result[0] = other != null ? other : created;
            return other != null ? existing : new MemoryRef(k, created, collected);
        });
        return result[0];
    }

    private ReverieChatMemory create(Object memoryId) {
        Conversation conversation = conversations.apply(memoryId);
        if (conversation == null) {
            throw new IllegalArgumentException("the conversations mapping returned null for memory id " + memoryId);
        }
        return new ReverieChatMemory(memoryId, conversation, manager, budgetTokens, recallMode, tokens,
                unrecordedTools);
    }

    /**
     * A request transformer for {@code AiServices.builder(...).chatRequestTransformer(...)}: it
     * re-assembles each request for its last user message with the memory of the request's memory
     * id (see {@link ReverieChatMemory#transform}). LangChain4j 1.x reads a chat memory before adding
     * the new user message, so without this the first request of each turn recalls only pinned facts,
     * the style profile and the session. A request whose memory id has no live memory here passes
     * unchanged.
     */
    public BiFunction<ChatRequest, Object, ChatRequest> chatRequestTransformer() {
        return (request, memoryId) -> {
            MemoryRef ref = memoryId == null ? null : live.get(memoryId);
            ReverieChatMemory memory = ref == null ? null : ref.get();
            return memory == null ? request : memory.transform(request);
        };
    }

    /** The recall tool for ON_DEMAND mode, resolving each call's scope through this provider's mapping. */
    public Map<ToolSpecification, ToolExecutor> recallTool() {
        return ReverieRecallTool.forConversations(manager, conversations);
    }

    /** The memory-id mapping in force. */
    public Function<Object, Conversation> conversations() {
        return conversations;
    }

    private void expunge() {
        for (Object r; (r = collected.poll()) != null; ) {
            MemoryRef ref = (MemoryRef) r;
            live.remove(ref.key, ref);
        }
    }

    private static final class MemoryRef extends WeakReference<ReverieChatMemory> {
        final Object key;

        MemoryRef(Object key, ReverieChatMemory memory, ReferenceQueue<ReverieChatMemory> queue) {
            super(memory, queue);
            this.key = key;
        }
    }

    /**
     * Configures a {@link ReverieChatMemoryProvider}. Only the manager is required. Setters fail
     * fast. Not thread-safe.
     */
    public static final class Builder {
        private final ContextManager manager;
        private Function<Object, Conversation> conversations = Conversation::from;
        private int budgetTokens = ContextRequest.DEFAULT_BUDGET;
        private RecallMode recallMode;
        private TokenCounter tokenCounter;

        private Builder(ContextManager manager) {
            this.manager = Checks.notNull("manager", manager);
        }

        /**
         * How a memory id maps to a scope and session; {@link Conversation#from} by default. The
         * function must be deterministic and should throw {@link IllegalArgumentException} for ids it
         * does not know.
         */
        public Builder conversations(Function<Object, Conversation> mapping) {
            this.conversations = Checks.notNull("conversations", mapping);
            return this;
        }

        /** The token budget of each memory's messages (default {@value ContextRequest#DEFAULT_BUDGET}). */
        public Builder budgetTokens(int tokens) {
            this.budgetTokens = Checks.positive("budgetTokens", tokens);
            return this;
        }

        /** The recall mode for every request; the manager's default when not set. */
        public Builder recallMode(RecallMode mode) {
            this.recallMode = Checks.notNull("recallMode", mode);
            return this;
        }

        /** The counter for the host's system message and the tool exchange; JTokkit o200k by default. */
        public Builder tokenCounter(TokenCounter counter) {
            this.tokenCounter = Checks.notNull("tokenCounter", counter);
            return this;
        }

        public ReverieChatMemoryProvider build() {
            return new ReverieChatMemoryProvider(this);
        }
    }
}
