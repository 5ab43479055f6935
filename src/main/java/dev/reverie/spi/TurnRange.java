package dev.reverie.spi;

import dev.reverie.internal.Checks;

/**
 * The turns of one session with {@code seq} in {@code [fromSeq, toSeq]}: the neighbours of a
 * recalled turn, read with {@link MemoryStore#archivedTurns(dev.reverie.Scope, java.util.List)}.
 *
 * @param sessionId the session
 * @param fromSeq   the first seq, inclusive
 * @param toSeq     the last seq, inclusive (a range with {@code toSeq < fromSeq} is empty)
 */
public record TurnRange(String sessionId, long fromSeq, long toSeq) {
    public TurnRange {
        Checks.notNull("sessionId", sessionId);
    }

    /** Whether {@code seq} of session {@code session} falls in the range. */
    public boolean contains(String session, long seq) {
        return sessionId.equals(session) && seq >= fromSeq && seq <= toSeq;
    }
}
