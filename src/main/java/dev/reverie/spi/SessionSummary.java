package dev.reverie.spi;

import dev.reverie.Scope;
import dev.reverie.internal.Checks;

import java.time.Instant;

/**
 * The compacted "summary of decisions so far" of a session's older turns, stored with the session.
 * Immutable and thread-safe.
 *
 * @param scope        whose session
 * @param sessionId    the session
 * @param text         the summary text
 * @param coveredUpTo  the summary covers turns with {@code seq < coveredUpTo}
 * @param updatedAt    when it was written
 */
public record SessionSummary(Scope scope, String sessionId, String text, long coveredUpTo, Instant updatedAt) {

    public SessionSummary {
        Checks.notNull("scope", scope);
        Checks.id("sessionId", sessionId);
        Checks.notNull("text", text);
        Checks.notNull("updatedAt", updatedAt);
    }
}
