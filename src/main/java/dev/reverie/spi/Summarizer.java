package dev.reverie.spi;


import java.util.List;

/**
 * Compacts a session's older turns into a "summary of decisions so far". The default is extractive
 * and deterministic; with a {@link LanguageModel} it is abstractive. Implementations must be
 * thread-safe and should keep the result within {@code maxTokens} (the caller trims it if not).
 */
public interface Summarizer {

    /**
     * A new summary covering {@code previousSummary} (empty when none) plus {@code turns}.
     *
     * @param previousSummary the summary so far, or an empty string
     * @param turns           the turns to fold in, ascending
     * @param maxTokens       the size the summary should fit in
     */
    String summarize(String previousSummary, List<SessionTurn> turns, int maxTokens);
}
