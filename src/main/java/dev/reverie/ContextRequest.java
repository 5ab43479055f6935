package dev.reverie;

import dev.reverie.internal.Checks;

import java.util.ArrayList;
import java.util.List;

/**
 * What to assemble a context for: the scope and session, the user's query, the token budget, this
 * turn's scratchpad (TRANSIENT: rendered last, never stored), the recall mode and whether
 * deprecated memories may be recalled. Build with {@link #builder(Scope, String)}. Immutable and
 * thread-safe; the builder is not.
 */
public final class ContextRequest {

    /** The default token budget. */
    public static final int DEFAULT_BUDGET = 4_000;

    private final Scope scope;
    private final String sessionId;
    private final String query;
    private final int budgetTokens;
    private final List<String> scratchpad;
    private final RecallMode recallMode;
    private final boolean includeDeprecated;

    private ContextRequest(Builder b) {
        scope = b.scope;
        sessionId = b.sessionId;
        query = b.query;
        budgetTokens = b.budgetTokens;
        scratchpad = List.copyOf(b.scratchpad);
        recallMode = b.recallMode;
        includeDeprecated = b.includeDeprecated;
    }

    /** A builder for a request in {@code scope} and session {@code sessionId}. */
    public static Builder builder(Scope scope, String sessionId) {
        return new Builder(scope, sessionId);
    }

    public Scope scope() { return scope; }
    public String sessionId() { return sessionId; }
    /** The user's query; may be empty (then nothing is retrieved by relevance). */
    public String query() { return query; }
    public int budgetTokens() { return budgetTokens; }
    public List<String> scratchpad() { return scratchpad; }
    /** The recall mode, or {@code null} for the manager's default. */
    public RecallMode recallMode() { return recallMode; }
    public boolean includeDeprecated() { return includeDeprecated; }

    /** Mutable builder; not thread-safe. */
    public static final class Builder {
        private final Scope scope;
        private final String sessionId;
        private String query = "";
        private int budgetTokens = DEFAULT_BUDGET;
        private final List<String> scratchpad = new ArrayList<>();
        private RecallMode recallMode;
        private boolean includeDeprecated;

        private Builder(Scope scope, String sessionId) {
            this.scope = Checks.notNull("scope", scope);
            this.sessionId = Checks.id("sessionId", sessionId);
        }

        /** The user's query for this turn. */
        public Builder query(String text) {
            Checks.notNull("query", text);
            if (text.length() > Turn.MAX_TEXT_LENGTH) {
                throw new IllegalArgumentException("query must be at most " + Turn.MAX_TEXT_LENGTH
                        + " characters, was " + text.length());
            }
            this.query = text;
            return this;
        }

        /** The token budget for the whole context (must be positive). */
        public Builder budgetTokens(int tokens) {
            this.budgetTokens = Checks.positive("budgetTokens", tokens);
            return this;
        }

        /** Adds a scratchpad entry (tool results, plans): shown last, for this call only, never stored. */
        public Builder scratchpad(String entry) {
            Checks.notBlank("scratchpad entry", entry);
            scratchpad.add(entry);
            return this;
        }

        /** Overrides the manager's recall mode for this request. */
        public Builder recallMode(RecallMode mode) {
            this.recallMode = Checks.notNull("recallMode", mode);
            return this;
        }

        /** Lets DEPRECATED memories be recalled (for investigation); off by default. */
        public Builder includeDeprecated(boolean include) {
            this.includeDeprecated = include;
            return this;
        }

        public ContextRequest build() {
            return new ContextRequest(this);
        }
    }
}
