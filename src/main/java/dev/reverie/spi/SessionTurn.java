package dev.reverie.spi;

import dev.reverie.Role;
import dev.reverie.Scope;
import dev.reverie.internal.Checks;

import java.time.Instant;

/**
 * A turn as stored in a session (or the conversation archive): its position, ids, role, speaker,
 * redacted text and time. Immutable and thread-safe.
 *
 * @param scope     whose session
 * @param sessionId the session
 * @param seq       position in the session, from 0, strictly increasing
 * @param turnId    the turn id (the caller's when given)
 * @param role      who produced it: USER, ASSISTANT or TOOL
 * @param speaker   the speaker's name, or {@code null}
 * @param text      the redacted text
 * @param at        when it was said
 */
public record SessionTurn(Scope scope, String sessionId, long seq, String turnId, Role role, String speaker,
                          String text, Instant at) {

    public SessionTurn {
        Checks.notNull("scope", scope);
        Checks.id("sessionId", sessionId);
        if (seq < 0) {
            throw new IllegalArgumentException("seq must not be negative, was " + seq);
        }
        Checks.id("turnId", turnId);
        Checks.turnRole("role", role);
        Checks.notNull("text", text);
        Checks.notNull("at", at);
    }

    /** This turn at another position of its session. */
    public SessionTurn withSeq(long newSeq) {
        return new SessionTurn(scope, sessionId, newSeq, turnId, role, speaker, text, at);
    }

    /**
     * What episodic recall searches for this turn, lexically and by vector: the speaker's name (when
     * known) and the text, so a question naming a speaker finds that speaker's turns.
     */
    public String searchText() {
        return speaker != null ? speaker + ": " + text : text;
    }
}
