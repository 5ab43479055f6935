package dev.reverie;

import dev.reverie.spi.LanguageModel;
import dev.reverie.spi.Summarizer;
import dev.reverie.spi.TokenCounter;

/**
 * The built-in summarizers of the TEMPORAL layer, behind one entry so their classes stay
 * package-private: the extractive one, and the language-model one that falls back to it. Stateless
 * and thread-safe. Not API.
 */
final class Summarizers {

    private Summarizers() {
    }

    /**
     * The default summarizer: with a model, the model's summary with the extractive one as its
     * fallback; without one, the extractive summary alone.
     *
     * @param model  the language model, or {@code null}
     * @param tokens the token counter the summaries are measured with
     */
    static Summarizer standard(LanguageModel model, TokenCounter tokens) {
        Summarizer extractive = new ExtractiveSummarizer(tokens);
        return model == null ? extractive : new LanguageModelSummarizer(model, extractive);
    }
}
