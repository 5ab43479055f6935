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
 */
public record TurnInput(Role role, String text, String speaker, String turnId, Instant at) {
    public TurnInput {
        Checks.turnRole("role", role);
        Checks.notNull("text", text);
        Checks.notNull("at", at);
    }
}
