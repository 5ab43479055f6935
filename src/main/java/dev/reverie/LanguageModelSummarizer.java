package dev.reverie;

import dev.reverie.internal.PastedContent;
import dev.reverie.spi.LanguageModel;
import dev.reverie.spi.SessionTurn;
import dev.reverie.spi.Summarizer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An abstractive {@link Summarizer} that asks a {@link LanguageModel} for the "summary of decisions
 * so far" of what was said: tool output and the texts a user pastes are left
 * out of the prompt ({@link #withoutPastes}), as the extractive summary leaves them out, since the summary is SYSTEM text; when the model fails or returns nothing usable it falls back to the extractive
 * summarizer and counts the fallback. Thread-safe.
 */
final class LanguageModelSummarizer implements Summarizer {

    private static final Logger LOG = LoggerFactory.getLogger(LanguageModelSummarizer.class);
    private final LanguageModel model;
    private final Summarizer fallback;
    private final AtomicLong fallbacks = new AtomicLong();

    LanguageModelSummarizer(LanguageModel model, Summarizer fallback) {
        this.model = model;
        this.fallback = fallback;
    }

    @Override
    public String summarize(String previousSummary, List<SessionTurn> turns, int maxTokens) {
        StringBuilder prompt = new StringBuilder()
                .append("Summarize the conversation below as a short list of the decisions, commitments, ")
                .append("open questions, names and numbers so far, one per line starting with \"- \". ")
                .append("Stay under ").append(maxTokens).append(" tokens. Output only the list.\n\n");
        if (previousSummary != null && !previousSummary.isBlank()) {
            prompt.append("Summary so far:\n").append(previousSummary).append("\n\n");
        }
        prompt.append("New turns:\n");
        for (SessionTurn t : turns) {
            if (t.role() == dev.reverie.Role.TOOL) {
                // as in the extractive summary: the summary is SYSTEM text, third-party text never feeds it
                // (the turn stays in the archive, marked, for episodic recall)
                continue;
            }
            prompt.append(t.speaker() != null ? t.speaker() : t.role().name().toLowerCase(java.util.Locale.ROOT))
                    .append(": ").append(t.role() == dev.reverie.Role.USER ? PastedContent.withoutPastes(t.text()) : t.text())
                    .append('\n');
        }
        try {
            String out = model.complete(prompt.toString());
            if (out != null && !out.isBlank()) {
                StringBuilder safe = new StringBuilder();
                for (String line : out.strip().split("\n")) {
                    if (!line.isBlank()) {
                        safe.append(safe.isEmpty() ? "" : "\n").append(Rendering.escape(line.strip()));
                    }
                }
                return safe.toString();
            }
        } catch (RuntimeException e) {
            LOG.warn("summarizer model failed ({}); using the extractive summary", e.getClass().getSimpleName());
        }
        fallbacks.incrementAndGet();
        return fallback.summarize(previousSummary, turns, maxTokens);
    }

    /** How many times the model's answer was unusable and the extractive summary was used. */
    long fallbacks() {
        return fallbacks.get();
    }
}
