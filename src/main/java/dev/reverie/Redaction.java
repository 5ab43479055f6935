package dev.reverie;

import dev.reverie.internal.Checks;

import java.util.Map;
import java.util.TreeMap;

/**
 * The result of {@link SecretRedactor#redact(String)}: the text with every secret replaced by
 * {@code [REDACTED:<type>]}, how many secrets of each type were replaced, and the total. Immutable
 * and thread-safe.
 *
 * @param text         the redacted text
 * @param countsByType secrets replaced per type (e.g. {@code openai_key → 1}), sorted by type
 * @param total        the sum of {@code countsByType}
 */
record Redaction(String text, Map<String, Integer> countsByType, int total) {

    Redaction {
        Checks.notNull("text", text);
        Checks.notNull("countsByType", countsByType);
        countsByType = java.util.Collections.unmodifiableMap(new TreeMap<>(countsByType));
        int sum = 0;
        for (Map.Entry<String, Integer> e : countsByType.entrySet()) {
            if (e.getValue() == null || e.getValue() <= 0) {
                throw new IllegalArgumentException("countsByType[" + e.getKey() + "] must be positive, was "
                        + e.getValue());
            }
            sum += e.getValue();
        }
        if (sum != total) {
            throw new IllegalArgumentException("total must equal the sum of countsByType (" + sum + "), was " + total);
        }
    }

    /** A redaction that changed nothing. */
    static Redaction unchanged(String text) {
        return new Redaction(text, Map.of(), 0);
    }

    /** Whether at least one secret was replaced. */
    boolean changed() {
        return total > 0;
    }

    /** The marker that replaces a secret of {@code type}. */
    static String marker(String type) {
        return "[REDACTED:" + type + "]";
    }
}
