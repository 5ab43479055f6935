package dev.reverie;

import dev.reverie.internal.Checks;

import java.time.Instant;

/**
 * How one end user likes to be spoken to, kept as a single evolving row per end user and updated
 * by the dream cycle's REM phase from STYLE observations. Immutable and thread-safe.
 *
 * @param scope           whose it is
 * @param preferredLength "short", "medium" or "long" (or empty when unknown)
 * @param formality       "formal", "informal" or "neutral" (or empty)
 * @param language        a language tag such as {@code en} or {@code pt} (or empty)
 * @param emoji           whether the user uses emoji
 * @param directness      "direct", "elaborate" or empty
 * @param description     a short rendered description, injected into the context
 * @param observations    how many STYLE observations it was built from
 * @param updatedAt       when it last changed
 */
public record StyleProfile(Scope scope, String preferredLength, String formality, String language, boolean emoji,
                           String directness, String description, int observations, Instant updatedAt) {

    public StyleProfile {
        Checks.notNull("scope", scope);
        preferredLength = preferredLength == null ? "" : preferredLength;
        formality = formality == null ? "" : formality;
        language = language == null ? "" : language;
        directness = directness == null ? "" : directness;
        description = description == null ? "" : description;
        Checks.nonNegative("observations", observations);
        Checks.notNull("updatedAt", updatedAt);
    }
}
