package dev.reverie.springai;

import dev.reverie.AssembledContext;
import dev.reverie.ConfigurationException;
import dev.reverie.ContextBudgetException;
import dev.reverie.ContextManager;
import dev.reverie.ContextRequest;
import dev.reverie.RecallMode;
import dev.reverie.Scope;
import dev.reverie.Turn;
import dev.reverie.TurnReceipt;
import dev.reverie.internal.Checks;
import dev.reverie.spi.TokenCounter;
import org.springframework.ai.chat.client.ChatClientMessageAggregator;
import org.springframework.ai.chat.client.ChatClientRequest;
import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.client.advisor.ToolCallingAdvisor;
import org.springframework.ai.chat.client.advisor.api.CallAdvisor;
import org.springframework.ai.chat.client.advisor.api.CallAdvisorChain;
import org.springframework.ai.chat.client.advisor.api.StreamAdvisor;
import org.springframework.ai.chat.client.advisor.api.StreamAdvisorChain;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.core.Ordered;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Reverie as a Spring AI {@link CallAdvisor} and {@link StreamAdvisor}: before each model call it
 * assembles the end user's context ({@link ContextManager#buildContext}) for the request's user
 * message and rewrites the prompt; after the call it records the exchange
 * ({@link ContextManager#recordTurn}), so long-term memory grows from an ordinary
 * {@code ChatClient} conversation.
 *
 * <pre>{@code
 * ChatClient chat = ChatClient.builder(chatModel)
 *     .defaultAdvisors(ReverieAdvisor.builder(contextManager).build()).build();
 * chat.prompt().user(question)
 *     .advisors(a -> a.param(ReverieAdvisor.SCOPE, scope).param(ReverieAdvisor.SESSION, "s1"))
 *     .call().content();
 * }</pre>
 *
 * <p><b>The prompt sent to the model</b> is: one {@link SystemMessage} that folds, in order, the
 * request's own system message(s) and Reverie's SYSTEM layers (IMMUTABLE, PERSISTENT memories,
 * session summary), so it comes first and once; then the session's earlier turns (the TEMPORAL
 * layer) as user and assistant messages; then the request's user message, verbatim (media
 * included), last; then whatever followed it in the request (this turn's tool calls and results,
 * when the advisor runs inside Spring AI's tool-calling loop). Messages the request carried before
 * its user message other than system ones (history from another memory advisor) are dropped:
 * Reverie's TEMPORAL layer is the history, and keeping both would say everything twice. The whole
 * prompt fits {@link Builder#budgetTokens(int)}: the host's system text and the tool exchange are
 * reserved first, Reverie fills the rest.
 *
 * <p><b>What is recorded</b>, once the model answers without asking for a tool: the user message,
 * every tool result of the turn as a {@link Turn#tool} (third-party content; results of Reverie's
 * own recall tool are skipped, they are memory already) and the answer, in one atomic
 * {@code recordTurn} call. Tool results are visible to the advisor when it sits inside the tool
 * loop, which is where {@link #DEFAULT_ORDER} puts it (after Spring AI's auto-registered
 * {@link ToolCallingAdvisor}). For a stream, the aggregated answer is recorded when the stream
 * completes.
 *
 * <p><b>Scope and session</b> come from advisor parameters: {@link #SCOPE} (a {@link Scope}, or its
 * string form {@code "tenant/agent/user"}) is required, and its absence fails the call with an
 * {@link IllegalArgumentException} that says how to pass it; {@link #SESSION} (a {@code String})
 * defaults to {@link Builder#defaultSession(String)}. The model never chooses either.
 *
 * <p>Immutable and thread-safe: one instance serves every user and session at once.
 */
public final class ReverieAdvisor implements CallAdvisor, StreamAdvisor {

    /** Advisor parameter holding the end user's {@link Scope} (or {@code "tenant/agent/user"}). */
    public static final String SCOPE = "reverie.scope";
    /** Advisor parameter holding the session id, a {@code String}. */
    public static final String SESSION = "reverie.session";
    /**
     * Default order: inside Spring AI's tool-calling loop ({@link ToolCallingAdvisor#DEFAULT_ORDER}
     * + 100), so each round is assembled afresh and the turn's tool results can be recorded.
     */
    public static final int DEFAULT_ORDER = ToolCallingAdvisor.DEFAULT_ORDER + 100;
    /** Default session id when the request names none. */
    public static final String DEFAULT_SESSION = "default";

    private final ContextManager manager;
    private final int budgetTokens;
    private final RecallMode recallMode;
    private final int order;
    private final String defaultSession;
    private final TokenCounter tokens;
    private final String recallToolName;
    private final Operations operations;
    private final Scheduler scheduler;

    private ReverieAdvisor(Builder b) {
        this.manager = b.manager;
        this.budgetTokens = b.budgetTokens;
        this.recallMode = b.recallMode;
        this.order = b.order;
        this.defaultSession = b.defaultSession;
        this.tokens = b.tokenCounter != null ? b.tokenCounter : TokenCounter.o200k();
        this.recallToolName = ReverieToolCallback.recallToolName(b.manager);
        this.operations = b.operations != null ? b.operations : Operations.direct(b.manager);
        this.scheduler = b.scheduler != null ? b.scheduler : Schedulers.boundedElastic();
    }

    /** A builder over {@code manager}, which the caller keeps ownership of (and closes). */
    public static Builder builder(ContextManager manager) {
        return new Builder(manager);
    }

    @Override
    public String getName() {
        return "ReverieAdvisor";
    }

    @Override
    public int getOrder() {
        return order;
    }

    /** The token budget of the prompt this advisor assembles. */
    public int budgetTokens() {
        return budgetTokens;
    }

    /** The recall mode every request uses, or {@code null} for the manager's default. */
    public RecallMode recallMode() {
        return recallMode;
    }

    @Override
    public ChatClientResponse adviseCall(ChatClientRequest request, CallAdvisorChain chain) {
        Exchange exchange = before(request);
        ChatClientResponse response = chain.nextCall(exchange == null ? request : exchange.request());
        if (exchange != null) {
            after(exchange, response);
        }
        return response;
    }

    @Override
    public Flux<ChatClientResponse> adviseStream(ChatClientRequest request, StreamAdvisorChain chain) {
        // buildContext reads the store: keep it off the caller's (possibly event-loop) thread
        return Mono.fromCallable(() -> {
                    Exchange e = before(request);
                    return e == null ? new Exchange(request, null, null, null, List.of()) : e;
                })
                .subscribeOn(scheduler)
                .flatMapMany(exchange -> {
                    Flux<ChatClientResponse> responses = chain.nextStream(exchange.request());
                    if (exchange.scope() == null) {
                        return responses;
                    }
                    return new ChatClientMessageAggregator().aggregateChatClientResponse(responses,
                            aggregated -> after(exchange, aggregated));
                });
    }

    // ------------------------------------------------------------------ before

    /** The rewritten request and what to record after it, or {@code null} when there is no user message. */
    private Exchange before(ChatClientRequest request) {
        Map<String, Object> params = request.context();
        Scope scope = scope(params.get(SCOPE));
        String session = session(params.get(SESSION));
        List<Message> in = request.prompt().getInstructions();
        int u = lastUserMessage(in);
        if (u < 0) {
            return null;
        }
        UserMessage current = (UserMessage) in.get(u);
        List<Message> tail = List.copyOf(in.subList(u + 1, in.size()));
        StringBuilder hostSystem = new StringBuilder();
        for (Message m : in) {
            if (m instanceof SystemMessage s && s.getText() != null && !s.getText().isBlank()) {
                if (!hostSystem.isEmpty()) {
                    hostSystem.append("\n\n");
                }
                hostSystem.append(s.getText());
            }
        }
        String query = text(current);
        int reserved = (hostSystem.isEmpty() ? 0 : tokens.countMessage(hostSystem.toString()))
                + Messages.tokens(tokens, tail);
        if (query.isBlank()) {
            reserved += tokens.messageOverhead(); // Reverie does not count a user message without text
        }
        int budget = budgetTokens - reserved;
        if (budget <= 0) {
            throw new ContextBudgetException("the request's system message and this turn's tool exchange need "
                    + reserved + " tokens but the advisor's budget is " + budgetTokens + " tokens: raise the advisor's "
                    + "budgetTokens well above " + reserved + " (the rest holds the recalled context)", budgetTokens, reserved);
        }
        ContextRequest.Builder cr = ContextRequest.builder(scope, session).query(query).budgetTokens(budget);
        if (recallMode != null) {
            cr.recallMode(recallMode);
        }
        AssembledContext context = operations.buildContext(cr.build());
        List<Message> out = Messages.fold(hostSystem.toString(), context);
        out.add(current);
        out.addAll(tail);
        ChatClientRequest rewritten = request.mutate()
                .prompt(request.prompt().mutate().messages(out).build())
                .build();
        return new Exchange(rewritten, scope, session, query, tail);
    }

    private static Scope scope(Object value) {
        if (value instanceof Scope s) {
            return s;
        }
        if (value instanceof CharSequence text) {
            String[] parts = text.toString().split("/", -1);
            if (parts.length == 3) {
                return Scope.of(parts[0], parts[1], parts[2]);
            }
            throw new IllegalArgumentException("advisor parameter " + SCOPE + " must be a Scope or read "
                    + "\"tenant/agent/user\", was '" + Checks.abbreviate(text.toString()) + "'");
        }
        throw new IllegalArgumentException("ReverieAdvisor needs the end user's scope"
                + (value == null ? "" : " (advisor parameter " + SCOPE + " was a " + value.getClass().getName() + ")")
                + ": pass it with chatClient.prompt().advisors(a -> a.param(ReverieAdvisor.SCOPE, "
                + "Scope.of(tenant, agent, user)).param(ReverieAdvisor.SESSION, sessionId))");
    }

    private String session(Object value) {
        if (value == null) {
            return defaultSession;
        }
        if (value instanceof CharSequence text) {
            return Checks.id("advisor parameter " + SESSION, text.toString());
        }
        throw new IllegalArgumentException("advisor parameter " + SESSION + " must be a String, was a "
                + value.getClass().getName());
    }

    private static int lastUserMessage(List<Message> messages) {
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i) instanceof UserMessage) {
                return i;
            }
        }
        return -1;
    }

    static String text(UserMessage m) {
        return m.getText() == null ? "" : m.getText();
    }

    // ------------------------------------------------------------------ after

    private void after(Exchange exchange, ChatClientResponse response) {
        ChatResponse chat = response == null ? null : response.chatResponse();
        if (chat != null && chat.hasToolCalls()) {
            return; // the turn goes on: the tool loop calls again with the results, and records then
        }
        List<Turn> turns = new ArrayList<>();
        if (!exchange.query().isBlank()) {
            turns.add(Turn.user(Messages.fit(exchange.query())));
        }
        Messages.toolTurns(exchange.tail(), recallToolName, turns);
        String answer = Messages.answer(chat);
        if (!answer.isBlank()) {
            turns.add(Turn.assistant(Messages.fit(answer)));
        }
        if (!turns.isEmpty()) {
            operations.recordTurn(exchange.scope(), exchange.session(), turns);
        }
    }

    private record Exchange(ChatClientRequest request, Scope scope, String session, String query, List<Message> tail) {
    }

    /**
     * How the advisor reaches the manager: directly, or through a wrapper that times each call
     * (e.g. {@code dev.reverie.micrometer.ReverieMetrics}). Implementations must be thread-safe.
     */
    public interface Operations {
        /** Assembles a context, as {@link ContextManager#buildContext}. */
        AssembledContext buildContext(ContextRequest request);

        /** Records a turn, as {@link ContextManager#recordTurn(Scope, String, List)}. */
        TurnReceipt recordTurn(Scope scope, String sessionId, List<Turn> turns);

        /** Straight calls to {@code manager}. */
        static Operations direct(ContextManager manager) {
            Checks.notNull("manager", manager);
            return new Operations() {
                @Override
                public AssembledContext buildContext(ContextRequest request) {
                    return manager.buildContext(request);
                }

                @Override
                public TurnReceipt recordTurn(Scope scope, String sessionId, List<Turn> turns) {
                    return manager.recordTurn(scope, sessionId, turns);
                }
            };
        }

        /** Calls built from two functions (for wrappers written as lambdas). */
        static Operations of(Function<ContextRequest, AssembledContext> buildContext, TurnRecorder recordTurn) {
            Checks.notNull("buildContext", buildContext);
            Checks.notNull("recordTurn", recordTurn);
            return new Operations() {
                @Override
                public AssembledContext buildContext(ContextRequest request) {
                    return buildContext.apply(request);
                }

                @Override
                public TurnReceipt recordTurn(Scope scope, String sessionId, List<Turn> turns) {
                    return recordTurn.recordTurn(scope, sessionId, turns);
                }
            };
        }
    }

    /** A {@code recordTurn} function. */
    @FunctionalInterface
    public interface TurnRecorder {
        /** Records {@code turns} in the session. */
        TurnReceipt recordTurn(Scope scope, String sessionId, List<Turn> turns);
    }

    /** Configures a {@link ReverieAdvisor}; setters fail fast. Not thread-safe. */
    public static final class Builder {
        private final ContextManager manager;
        private int budgetTokens = ContextRequest.DEFAULT_BUDGET;
        private RecallMode recallMode;
        private int order = DEFAULT_ORDER;
        private String defaultSession = DEFAULT_SESSION;
        private TokenCounter tokenCounter;
        private Operations operations;
        private Scheduler scheduler;

        private Builder(ContextManager manager) {
            this.manager = Checks.notNull("manager", manager);
        }

        /** The token budget of the whole prompt (default {@value ContextRequest#DEFAULT_BUDGET}). */
        public Builder budgetTokens(int tokens) {
            this.budgetTokens = Checks.positive("budgetTokens", tokens);
            return this;
        }

        /** The recall mode for every request; the manager's default when not set. */
        public Builder recallMode(RecallMode mode) {
            this.recallMode = Checks.notNull("recallMode", mode);
            return this;
        }

        /** The advisor order (default {@link #DEFAULT_ORDER}, inside the tool-calling loop). */
        public Builder order(int advisorOrder) {
            this.order = advisorOrder;
            return this;
        }

        /** The session used when a request has no {@link #SESSION} parameter (default {@value #DEFAULT_SESSION}). */
        public Builder defaultSession(String sessionId) {
            this.defaultSession = Checks.id("defaultSession", sessionId);
            return this;
        }

        /** The counter for the host's system text and the tool exchange; JTokkit o200k by default. */
        public Builder tokenCounter(TokenCounter counter) {
            this.tokenCounter = Checks.notNull("tokenCounter", counter);
            return this;
        }

        /** Routes buildContext and recordTurn through {@code ops} (e.g. to time them); direct by default. */
        public Builder operations(Operations ops) {
            this.operations = Checks.notNull("operations", ops);
            return this;
        }

        /** Where a stream's context is assembled; Reactor's bounded-elastic scheduler by default. */
        public Builder scheduler(Scheduler streamScheduler) {
            this.scheduler = Checks.notNull("scheduler", streamScheduler);
            return this;
        }

        /**
         * Builds the advisor.
         *
         * @throws ConfigurationException when the order is {@code Ordered.LOWEST_PRECEDENCE}
         */
        public ReverieAdvisor build() {
            if (order == Ordered.LOWEST_PRECEDENCE) {
                throw new ConfigurationException("order must be below Ordered.LOWEST_PRECEDENCE, where Spring AI "
                        + "places the model call itself, was " + order + ": pass a smaller order(int), or leave the default");
            }
            return new ReverieAdvisor(this);
        }
    }
}
