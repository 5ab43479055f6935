package dev.reverie.spi;

import dev.reverie.Role;
import dev.reverie.internal.Checks;

import java.time.Instant;

/**
 * One redacted turn handed to an {@link Extractor}. Immutable and thread-safe.
 *
 * @param role    who said it: USER, ASSISTANT or TOOL
 * @param text    the redacted text
 * @param speaker the speaker's name, or {@code null}
 * @param turnId  the turn id
 * @param at      when it was said (relative dates resolve against it)
 * @param before  the redacted text of the session's turn just before it, when somebody else said it
 *                (the assistant's "How is your sister doing?" before the user's "Allergic to shellfish
 *                now."), or {@code null}: what a reply without a subject is about
 */
public record TurnInput(Role role, String text, String speaker, String turnId, Instant at, String before) {
    public TurnInput {
        Checks.turnRole("role", role);
        Checks.notNull("text", text);
        Checks.notNull("at", at);
    }

    /** A turn read on its own: nothing known of the turn before. */
    public TurnInput(Role role, String text, String speaker, String turnId, Instant at) {
        this(role, text, speaker, turnId, at, null);
    }
}
