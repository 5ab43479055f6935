package dev.reverie.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.Content;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.reverie.AssembledContext;
import dev.reverie.ContextBudgetException;
import dev.reverie.ContextManager;
import dev.reverie.ContextMessage;
import dev.reverie.ContextRequest;
import dev.reverie.RecallMode;
import dev.reverie.Role;
import dev.reverie.Turn;
import dev.reverie.internal.Checks;
import dev.reverie.spi.TokenCounter;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A LangChain4j {@link ChatMemory} backed by Reverie: what it returns is the context Reverie
 * assembles for the current user message (IMMUTABLE, PERSISTENT memories, the TEMPORAL session), and
 * what it is given is recorded as turns of one Reverie session, so the long-term memory grows from
 * an ordinary {@code AiServices} conversation. Get instances from {@link ReverieChatMemoryProvider},
 * or build one for a single conversation with {@link #builder(ContextManager, Conversation)}.
 *
 * <p><b>What {@link #add} does.</b> A {@link SystemMessage} replaces the memory's system message (it
 * is never stored: it is the IMMUTABLE layer). A {@link UserMessage} opens a turn. An
 * {@link AiMessage} that asks for tools and the {@link ToolExecutionResultMessage}s that answer it
 * are kept here, verbatim, until the final {@link AiMessage} of the turn arrives; then the user
 * message, any assistant text, the tool results (as {@link Turn#tool}, third-party) and the answer
 * are recorded with one {@link ContextManager#recordTurn} call, atomically. Results of the recall
 * tool itself are not recorded (they are memory already). The model's thinking is never stored. If a
 * new user message arrives while a turn is still open (the model call failed), the open turn is
 * recorded as it stands first.
 *
 * <p><b>What {@link #messages()} returns</b> (a fresh list each time): one leading
 * {@link SystemMessage} that folds, in order, the system message given by the host, Reverie's
 * IMMUTABLE layer, the PERSISTENT memory block, the session summary and past tool output (so the
 * system message stays first and appears once, whichever provider the list goes to); then the
 * TEMPORAL turns as {@link UserMessage}/{@link AiMessage}; then the open turn's user message and its
 * tool exchange, verbatim. A tool request is returned only together with all of its results, so
 * LangChain4j never sees an orphaned tool call. The whole list fits the configured token budget
 * (counted with the configured {@link TokenCounter}; the host's system message and the tool exchange
 * are reserved first).
 *
 * <p><b>LangChain4j 1.x reads the memory before it adds the user message</b>, so the first request of
 * a turn would carry only the query-independent part (pinned facts, style, the session). Install the
 * provider's {@link ReverieChatMemoryProvider#chatRequestTransformer()} (or {@link #transform} for a
 * single memory) on the AI service and every request is re-assembled for its user message.
 *
 * <p><b>{@link #clear()}</b> forgets what is held here and not yet recorded (system message, open
 * turn, tool exchange). It never deletes recorded turns or long-term memory: that is the operator's
 * job ({@code MemoryAdmin}), not something a chat framework's cache eviction should trigger.
 *
 * <p>Thread-safe: every method holds this memory's lock, so a tool loop and a concurrent reader see
 * whole turns. Two conversations running at once under one memory id would still interleave their
 * turns, as with any chat memory: give each its own session.
 */
public final class ReverieChatMemory implements ChatMemory {

    private final Object id;
    private final Conversation conversation;
    private final ContextManager manager;
    private final int budgetTokens;
    private final RecallMode recallMode;
    private final TokenCounter tokens;
    private final Set<String> unrecordedTools;
    private final Object lock = new Object();

    // guarded by lock
    private SystemMessage system;
    private UserMessage pendingUser;
    private final List<ToolGroup> groups = new ArrayList<>();
    private final List<Turn> pendingTurns = new ArrayList<>();
    private long generation;
    private Prefix cached;

    ReverieChatMemory(Object id, Conversation conversation, ContextManager manager, int budgetTokens,
                      RecallMode recallMode, TokenCounter tokens, Set<String> unrecordedTools) {
        this.id = id;
        this.conversation = conversation;
        this.manager = manager;
        this.budgetTokens = budgetTokens;
        this.recallMode = recallMode;
        this.tokens = tokens;
        this.unrecordedTools = Set.copyOf(unrecordedTools);
    }

    /** A builder for a memory of one conversation, outside a provider. */
    public static Builder builder(ContextManager manager, Conversation conversation) {
        return new Builder(manager, conversation);
    }

    @Override
    public Object id() {
        return id;
    }

    /** The Reverie scope and session this memory reads and writes. */
    public Conversation conversation() {
        return conversation;
    }

    /** The token budget of what {@link #messages()} returns. */
    public int budgetTokens() {
        return budgetTokens;
    }

    @Override
    public void add(ChatMessage message) {
        Checks.notNull("message", message);
        synchronized (lock) {
            accept(message);
        }
    }

    @Override
    public List<ChatMessage> messages() {
        synchronized (lock) {
            return assemble(pendingUser, completedExchange());
        }
    }

    /**
     * Re-assembles a chat request for its last user message: everything before that message is
     * replaced by this memory's context for it; the message and what follows it (this turn's tool
     * exchange) are kept verbatim. A request without a user message is returned unchanged. This is
     * what {@link ReverieChatMemoryProvider#chatRequestTransformer()} applies; register it directly
     * with {@code AiServices.builder(...).chatRequestTransformer(memory::transform)} when the service
     * uses this one memory.
     */
    public ChatRequest transform(ChatRequest request) {
        Checks.notNull("request", request);
        List<ChatMessage> in = request.messages();
        int u = lastUserMessage(in);
        if (u < 0) {
            return request;
        }
        UserMessage current = (UserMessage) in.get(u);
        List<ChatMessage> tail = List.copyOf(in.subList(u + 1, in.size()));
        List<ChatMessage> out;
        synchronized (lock) {
            out = assemble(current, tail);
        }
        return request.toBuilder().messages(out).build();
    }

    /**
     * Replaces the messages. When they contain the open turn's user message (LangChain4j does this
     * to rewrite the current tool results, e.g. after compensating a failed tool), what follows it
     * replaces the turn's tool exchange and nothing is recorded twice. Otherwise this is
     * {@link #clear()} followed by {@link #add} of each message: user and assistant messages in the
     * list are recorded as new turns of the session.
     */
    @Override
    public void set(Iterable<ChatMessage> messages) {
        Checks.notNull("messages", messages);
        List<ChatMessage> list = new ArrayList<>();
        for (ChatMessage m : messages) {
            list.add(Checks.notNull("message", m));
        }
        if (list.isEmpty()) {
            throw new IllegalArgumentException("messages must not be empty");
        }
        synchronized (lock) {
            int at = pendingUser == null ? -1 : list.lastIndexOf(pendingUser);
            if (at >= 0) {
                groups.clear();
                pendingTurns.clear();
                cached = null;
                for (ChatMessage m : list.subList(at + 1, list.size())) {
                    accept(m);
                }
            } else {
                forget();
                for (ChatMessage m : list) {
                    accept(m);
                }
            }
        }
    }

    /** Forgets what is held here and not yet recorded; recorded turns and long-term memory stay. */
    @Override
    public void clear() {
        synchronized (lock) {
            forget();
        }
    }

    // ------------------------------------------------------------------ writing

    private void accept(ChatMessage message) {
        if (message instanceof SystemMessage s) {
            system = s;
        } else if (message instanceof UserMessage u) {
            if (pendingUser != null || !pendingTurns.isEmpty() || !groups.isEmpty()) {
                recordOpenTurn();
            }
            pendingUser = u;
            cached = null;
        } else if (message instanceof AiMessage a) {
            if (a.text() != null && !a.text().isBlank()) {
                pendingTurns.add(Turn.assistant(fit(a.text())));
            }
            if (a.hasToolExecutionRequests()) {
                groups.add(new ToolGroup(a));
            } else {
                recordOpenTurn();
            }
        } else if (message instanceof ToolExecutionResultMessage r) {
            ToolGroup g = groupFor(r);
            if (g != null) {
                g.results.add(r);
            }
            String name = r.toolName() == null || r.toolName().isBlank() ? "tool" : r.toolName();
            if (!unrecordedTools.contains(name) && r.text() != null && !r.text().isBlank()) {
                pendingTurns.add(Turn.tool(name, fit(r.text())));
            }
        } else {
            throw new IllegalArgumentException("ReverieChatMemory keeps system, user, AI and tool result messages; "
                    + "got a " + message.type() + " message (" + message.getClass().getName() + ")");
        }
    }

    /** Records the open turn in one atomic call; on failure it stays open and is retried with the next turn. */
    private void recordOpenTurn() {
        List<Turn> turns = new ArrayList<>(pendingTurns.size() + 1);
        if (pendingUser != null) {
            String text = text(pendingUser);
            if (!text.isBlank()) {
                Turn t = Turn.user(fit(text));
                // a message's name is the caller's data: line breaks and other control characters (which
                // Turn refuses) become spaces, so one odd name never wedges the memory's later turns
                String name = pendingUser.name() == null ? null
                        : pendingUser.name().replaceAll("[\\p{Cntrl}\\u2028\\u2029]+", " ").strip();
                if (name != null && !name.isBlank() && name.length() <= 128) {
                    t = t.withSpeaker(name);
                }
                turns.add(t);
            }
        }
        turns.addAll(pendingTurns);
        if (!turns.isEmpty()) {
            manager.recordTurn(conversation.scope(), conversation.sessionId(), turns);
        }
        pendingUser = null;
        pendingTurns.clear();
        groups.clear();
        generation++;
        cached = null;
    }

    private void forget() {
        system = null;
        pendingUser = null;
        pendingTurns.clear();
        groups.clear();
        generation++;
        cached = null;
    }

    private ToolGroup groupFor(ToolExecutionResultMessage r) {
        if (r.id() != null) {
            for (int i = groups.size() - 1; i >= 0; i--) {
                if (groups.get(i).awaits(r.id())) {
                    return groups.get(i);
                }
            }
            return null; // answers no open request: recorded, never returned as an orphan
        }
        for (int i = groups.size() - 1; i >= 0; i--) {
            if (!groups.get(i).complete()) {
                return groups.get(i);
            }
        }
        return null;
    }

    private List<ChatMessage> completedExchange() {
        List<ChatMessage> out = new ArrayList<>();
        for (ToolGroup g : groups) {
            // a request without all of its results is withheld until they arrive
            if (g.complete()) {
                out.add(g.request);
                out.addAll(g.results);
            }
        }
        return out;
    }

    // ------------------------------------------------------------------ reading

    private List<ChatMessage> assemble(UserMessage current, List<ChatMessage> tail) {
        List<ChatMessage> out = new ArrayList<>(prefix(current, tail));
        if (current != null) {
            out.add(current);
        }
        out.addAll(tail);
        return out;
    }

    /** The folded system message and the TEMPORAL turns for {@code current}; cached within one turn. */
    private List<ChatMessage> prefix(UserMessage current, List<ChatMessage> tail) {
        String query = current == null ? "" : text(current);
        String systemText = system == null ? null : system.text();
        int systemTokens = systemText == null ? 0 : tokens.countMessage(systemText);
        int tailTokens = tokens(tail);
        int reserved = systemTokens + tailTokens;
        if (current != null && query.isBlank()) {
            reserved += tokens.messageOverhead(); // a user message without text is not counted by Reverie
        }
        int budget = budgetTokens - reserved;
        if (budget <= 0) {
            throw new ContextBudgetException("the system message (" + systemTokens + " tokens) and this turn's tool "
                    + "exchange (" + tailTokens + " tokens) need " + reserved + " tokens but the chat memory's budget is "
                    + budgetTokens + " tokens: raise the chat memory's budgetTokens well above " + reserved
                    + " (the rest holds the recalled context), or shorten the system message", budgetTokens, reserved);
        }
        PrefixKey key = new PrefixKey(systemText, query, budget, generation);
        if (cached != null && cached.key().equals(key)) {
            return cached.messages();
        }
        ContextRequest.Builder request = ContextRequest.builder(conversation.scope(), conversation.sessionId())
                .query(query).budgetTokens(budget);
        if (recallMode != null) {
            request.recallMode(recallMode);
        }
        AssembledContext context = manager.buildContext(request.build());
        List<ChatMessage> prefix = new ArrayList<>();
        String folded = context.systemText(systemText);
        if (!folded.isEmpty()) {
            prefix.add(SystemMessage.from(folded));
        }
        for (ContextMessage m : context.dialogue()) {
            prefix.add(m.role() == Role.ASSISTANT ? AiMessage.from(m.content()) : UserMessage.from(m.content()));
        }
        cached = new Prefix(key, List.copyOf(prefix));
        return cached.messages();
    }

    private int tokens(List<ChatMessage> messages) {
        int n = 0;
        for (ChatMessage m : messages) {
            if (m instanceof AiMessage a) {
                StringBuilder sb = new StringBuilder(a.text() == null ? "" : a.text());
                for (ToolExecutionRequest r : a.toolExecutionRequests()) {
                    sb.append('\n').append(r.name()).append(' ').append(r.arguments());
                }
                n += tokens.countMessage(sb.toString());
            } else if (m instanceof ToolExecutionResultMessage r) {
                n += tokens.countMessage(r.text() == null ? "" : r.text());
            } else if (m instanceof UserMessage u) {
                n += tokens.countMessage(text(u));
            } else if (m instanceof SystemMessage s) {
                n += tokens.countMessage(s.text());
            }
        }
        return n;
    }

    private static int lastUserMessage(List<ChatMessage> messages) {
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i) instanceof UserMessage) {
                return i;
            }
        }
        return -1;
    }

    /** The text parts of a user message, joined by newlines (empty for an image-only message). */
    static String text(UserMessage u) {
        if (u.hasSingleText()) {
            return u.singleText();
        }
        StringBuilder sb = new StringBuilder();
        for (Content c : u.contents()) {
            if (c instanceof TextContent t) {
                if (!sb.isEmpty()) {
                    sb.append('\n');
                }
                sb.append(t.text());
            }
        }
        return sb.toString();
    }

    /** Text cut to what a {@link Turn} accepts. */
    private static String fit(String text) {
        return text.length() <= Turn.MAX_TEXT_LENGTH ? text : text.substring(0, Turn.MAX_TEXT_LENGTH);
    }

    /** One AI message asking for tools and the results that answered it so far. */
    private static final class ToolGroup {
        final AiMessage request;
        final List<ToolExecutionResultMessage> results = new ArrayList<>();

        ToolGroup(AiMessage request) {
            this.request = request;
        }

        boolean complete() {
            return results.size() >= request.toolExecutionRequests().size();
        }

        boolean awaits(String resultId) {
            boolean asked = false;
            for (ToolExecutionRequest r : request.toolExecutionRequests()) {
                if (resultId.equals(r.id())) {
                    asked = true;
                    break;
                }
            }
            if (!asked) {
                return false;
            }
            for (ToolExecutionResultMessage r : results) {
                if (resultId.equals(r.id())) {
                    return false;
                }
            }
            return true;
        }
    }

    private record PrefixKey(String systemText, String query, int budget, long generation) {
    }

    private record Prefix(PrefixKey key, List<ChatMessage> messages) {
    }

    /**
     * Configures a {@link ReverieChatMemory} for one conversation; the provider's builder has the
     * same settings. Setters fail fast. Not thread-safe.
     */
    public static final class Builder {
        private final ContextManager manager;
        private final Conversation conversation;
        private Object id;
        private int budgetTokens = ContextRequest.DEFAULT_BUDGET;
        private RecallMode recallMode;
        private TokenCounter tokenCounter;

        private Builder(ContextManager manager, Conversation conversation) {
            this.manager = Checks.notNull("manager", manager);
            this.conversation = Checks.notNull("conversation", conversation);
        }

        /** The id {@link ChatMemory#id()} reports; the conversation's string form by default. */
        public Builder id(Object memoryId) {
            this.id = Checks.notNull("id", memoryId);
            return this;
        }

        /** The token budget of {@link #messages()} (default {@value ContextRequest#DEFAULT_BUDGET}). */
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

        public ReverieChatMemory build() {
            return new ReverieChatMemory(id != null ? id : conversation.toString(), conversation, manager,
                    budgetTokens, recallMode, tokenCounter != null ? tokenCounter : TokenCounter.o200k(),
                    Set.of(ReverieRecallTool.name(manager)));
        }
    }
}
