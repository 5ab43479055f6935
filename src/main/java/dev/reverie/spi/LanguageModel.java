package dev.reverie.spi;

/**
 * A text-completion model used off the hot path: by the LLM extractor, the abstractive summarizer
 * and the dream cycle's judgements. Optional: without one, every such step has a deterministic
 * rule-based default. Implementations must be thread-safe; a failure may throw any runtime
 * exception, which Reverie catches, counts and answers with its rule-based fallback.
 */
public interface LanguageModel {

    /** Completes {@code prompt} and returns the model's text answer. */
    String complete(String prompt);
}
