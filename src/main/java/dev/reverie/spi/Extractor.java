package dev.reverie.spi;

import java.util.List;

/**
 * Turns one (already redacted) turn into typed observations. The default is a deterministic
 * rule-based extractor for English and Portuguese; with a {@link LanguageModel} an LLM extractor
 * with a JSON contract. Implementations must be thread-safe and must not throw for any text: an
 * empty list means nothing worth keeping.
 */
public interface Extractor {

    /** The facts found in {@code turn}, possibly none. */
    List<ExtractedFact> extract(TurnInput turn);
}
