package dev.reverie;

/**
 * The token budget of a context request cannot hold the mandatory layers (IMMUTABLE, or IMMUTABLE
 * plus TRANSIENT, or what an integration reserves for the open turn). The message gives both
 * numbers and the remedy (raise the budget to at least {@link #required()}, or shorten what must
 * fit); so do {@link #budget()} and {@link #required()}. Thread-safe.
 */
public class ContextBudgetException extends ReverieException {
    private static final long serialVersionUID = 1L;
    private final int budget;
    private final int required;

    public ContextBudgetException(String message, int budget, int required) {
        super(message);
        this.budget = budget;
        this.required = required;
    }

    /** The budget that was asked for. */
    public int budget() {
        return budget;
    }

    /** The tokens the mandatory layers need. */
    public int required() {
        return required;
    }
}
