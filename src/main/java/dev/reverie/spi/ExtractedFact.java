package dev.reverie.spi;

import dev.reverie.Cardinality;
import dev.reverie.MemoryKind;
import dev.reverie.Polarity;
import dev.reverie.internal.Checks;

import java.time.Instant;

/**
 * What an {@link Extractor} found in a turn: a typed statement with a normalized subject and value.
 * The core turns it into an L3 observation with ids and provenance. Immutable and thread-safe.
 *
 * @param kind        what kind of statement (never SYNTHESIS)
 * @param text        the statement as rendered text
 * @param subject     normalized key, e.g. {@code user.allergy}
 * @param value       normalized value (may be empty)
 * @param cardinality one value or many for the subject
 * @param polarity    affirmed or negated
 * @param confidence  0 to 1
 * @param eventTime   for EVENT: the resolved date of the event, or {@code null}
 */
public record ExtractedFact(MemoryKind kind, String text, String subject, String value, Cardinality cardinality,
                            Polarity polarity, double confidence, Instant eventTime) {
    public ExtractedFact {
        Checks.notNull("kind", kind);
        if (kind == MemoryKind.SYNTHESIS) {
            throw new IllegalArgumentException("kind SYNTHESIS cannot be extracted from a turn");
        }
        Checks.notBlank("text", text);
        Checks.notBlank("subject", subject);
        value = value == null ? "" : value;
        Checks.notNull("cardinality", cardinality);
        Checks.notNull("polarity", polarity);
        Checks.between("confidence", confidence, 0, 1);
    }
}
