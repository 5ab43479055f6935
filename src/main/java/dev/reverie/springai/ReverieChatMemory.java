package dev.reverie.springai;

import dev.reverie.AssembledContext;
import dev.reverie.ContextBudgetException;
import dev.reverie.ContextManager;
import dev.reverie.ContextRequest;
import dev.reverie.RecallMode;
import dev.reverie.Turn;
import dev.reverie.internal.Checks;
import dev.reverie.spi.TokenCounter;
import org.springframework.ai.chat.client.advisor.MessageChatMemoryAdvisor;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * A Spring AI {@link ChatMemory} backed by Reverie, for applications that already use
 * {@link MessageChatMemoryAdvisor}: conversation ids map to a scope and a session (by default
 * {@code "tenant/agent/user/session"}, see {@link ConversationId}), what the advisor adds is
 * recorded as Reverie turns, and what {@link #get} returns is Reverie's assembled context.
 *
 * <p><b>{@link #get}</b> returns a fresh list: one {@link SystemMessage} folding Reverie's SYSTEM
 * layers (IMMUTABLE, pinned and recalled memories, session summary), the session's turns as user
 * and assistant messages, then the open turn's messages (a user message and tool exchange added but
 * not yet answered). {@code MessageChatMemoryAdvisor} reads the memory before it adds the user
 * message, so the recall it gets is query-independent (pinned facts, style, the session); prefer
 * {@link ReverieAdvisor}, which assembles the context for the user's actual question.
 *
 * <p><b>{@link #add}</b>: a {@link UserMessage} opens a turn (recording any turn still open); tool
 * results are kept as {@link Turn#tool} (third-party; the recall tool's own results are skipped);
 * an {@link AssistantMessage} without tool calls closes the turn, recorded with one atomic
 * {@code recordTurn}. System messages are not stored: they are the IMMUTABLE layer's business.
 *
 * <p><b>{@link #clear}</b> forgets the open turn only. It never deletes recorded turns or long-term
 * memory: that is the operator's job ({@code MemoryAdmin}), not a chat framework's.
 *
 * <p>Thread-safe: each conversation's open turn is updated atomically; different conversations
 * never wait for each other.
 */
public final class ReverieChatMemory implements ChatMemory {

    private final ContextManager manager;
    private final int budgetTokens;
    private final RecallMode recallMode;
    private final TokenCounter tokens;
    private final Function<String, ConversationId> conversations;
    private final String recallToolName;
    private final Map<String, OpenTurn> open = new ConcurrentHashMap<>();

    private ReverieChatMemory(Builder b) {
        this.manager = b.manager;
        this.budgetTokens = b.budgetTokens;
        this.recallMode = b.recallMode;
        this.tokens = b.tokenCounter != null ? b.tokenCounter : TokenCounter.o200k();
        this.conversations = b.conversations;
        this.recallToolName = ReverieToolCallback.recallToolName(b.manager);
    }

    /** A builder over {@code manager}, which the caller keeps ownership of. */
    public static Builder builder(ContextManager manager) {
        return new Builder(manager);
    }

    @Override
    public void add(String conversationId, List<Message> messages) {
        Checks.notNull("messages", messages);
        ConversationId conversation = conversation(conversationId);
        List<List<Turn>> finished = new ArrayList<>(1);
        open.compute(conversationId, (id, turn) -> {
            OpenTurn t = turn == null ? new OpenTurn() : turn;
            for (Message m : messages) {
                t.accept(Checks.notNull("message", m), finished, recallToolName);
            }
            return t.isEmpty() ? null : t;
        });
        for (List<Turn> turns : finished) {
            manager.recordTurn(conversation.scope(), conversation.sessionId(), turns);
        }
    }

    @Override
    public List<Message> get(String conversationId) {
        ConversationId conversation = conversation(conversationId);
        List<Message> pending = new ArrayList<>();
        open.computeIfPresent(conversationId, (id, turn) -> {
            pending.addAll(turn.messages);
            return turn;
        });
        String query = pending.isEmpty() || !(pending.get(0) instanceof UserMessage u) ? "" : ReverieAdvisor.text(u);
        int reserved = Messages.tokens(tokens, pending);
        int budget = budgetTokens - reserved;
        if (budget <= 0) {
            throw new ContextBudgetException("the open turn needs " + reserved + " tokens but the chat memory's budget is "
                    + budgetTokens + " tokens: raise the chat memory's budgetTokens well above " + reserved
                    + " (the rest holds the recalled context)", budgetTokens, reserved);
        }
        ContextRequest.Builder request = ContextRequest.builder(conversation.scope(), conversation.sessionId())
                .query(query).budgetTokens(budget);
        if (recallMode != null) {
            request.recallMode(recallMode);
        }
        AssembledContext context = manager.buildContext(request.build());
        List<Message> out = Messages.fold("", context);
        out.addAll(pending);
        return out;
    }

    /** Forgets the open turn of the conversation; recorded turns and long-term memory stay. */
    @Override
    public void clear(String conversationId) {
        conversation(conversationId);
        open.remove(conversationId);
    }

    private ConversationId conversation(String conversationId) {
        Checks.notNull("conversationId", conversationId);
        ConversationId c = conversations.apply(conversationId);
        if (c == null) {
            throw new IllegalArgumentException("no Reverie conversation for conversation id '"
                    + Checks.abbreviate(conversationId) + "'");
        }
        return c;
    }

    /** The messages of a turn not answered yet, and the turns they will be recorded as. */
    private static final class OpenTurn {
        final List<Message> messages = new ArrayList<>();
        final List<Turn> turns = new ArrayList<>();

        void accept(Message m, List<List<Turn>> finished, String recallToolName) {
            if (m instanceof SystemMessage) {
                return;
            }
            if (m instanceof UserMessage u) {
                if (!isEmpty()) {
                    finished.add(drain());
                }
                messages.add(u);
                String text = ReverieAdvisor.text(u);
                if (!text.isBlank()) {
                    turns.add(Turn.user(Messages.fit(text)));
                }
            } else if (m instanceof AssistantMessage a) {
                if (a.getText() != null && !a.getText().isBlank()) {
                    turns.add(Turn.assistant(Messages.fit(a.getText())));
                }
                if (a.hasToolCalls()) {
                    messages.add(a);
                } else {
                    finished.add(drain());
                }
            } else if (m instanceof ToolResponseMessage r) {
                messages.add(r);
                Messages.toolTurns(List.of(r), recallToolName, turns);
            } else {
                throw new IllegalArgumentException("ReverieChatMemory keeps system, user, assistant and tool response "
                        + "messages; got a " + m.getMessageType() + " message (" + m.getClass().getName() + ")");
            }
        }

        List<Turn> drain() {
            List<Turn> out = List.copyOf(turns);
            turns.clear();
            messages.clear();
            return out;
        }

        boolean isEmpty() {
            return messages.isEmpty() && turns.isEmpty();
        }
    }

    /** Configures a {@link ReverieChatMemory}; setters fail fast. Not thread-safe. */
    public static final class Builder {
        private final ContextManager manager;
        private int budgetTokens = ContextRequest.DEFAULT_BUDGET;
        private RecallMode recallMode;
        private TokenCounter tokenCounter;
        private Function<String, ConversationId> conversations = ConversationId::parse;

        private Builder(ContextManager manager) {
            this.manager = Checks.notNull("manager", manager);
        }

        /** The token budget of what {@link #get} returns (default {@value ContextRequest#DEFAULT_BUDGET}). */
        public Builder budgetTokens(int tokens) {
            this.budgetTokens = Checks.positive("budgetTokens", tokens);
            return this;
        }

        /** The recall mode for every read; the manager's default when not set. */
        public Builder recallMode(RecallMode mode) {
            this.recallMode = Checks.notNull("recallMode", mode);
            return this;
        }

        /** The counter for the open turn's messages; JTokkit o200k by default. */
        public Builder tokenCounter(TokenCounter counter) {
            this.tokenCounter = Checks.notNull("tokenCounter", counter);
            return this;
        }

        /** Maps the host's conversation ids to scope and session; {@link ConversationId#parse} by default. */
        public Builder conversations(Function<String, ConversationId> mapping) {
            this.conversations = Checks.notNull("conversations", mapping);
            return this;
        }

        public ReverieChatMemory build() {
            return new ReverieChatMemory(this);
        }
    }
}
