package dev.reverie;

import dev.reverie.internal.Checks;

import java.time.Instant;

/**
 * Where and when a piece of memory came from: its source, the session and turn, the time it was
 * observed, the outcome of the run that produced it and whether it is first- or third-party.
 * Immutable and thread-safe.
 *
 * @param source     who produced it
 * @param sessionId  the session it was said in, or {@code null} (operator edits, syntheses)
 * @param turnId     the turn id (the caller's when given), or {@code null}
 * @param observedAt when it was said
 * @param outcome    the run's outcome, {@link Outcome#UNKNOWN} until reported
 * @param trust      first- or third-party
 */
public record Provenance(Source source, String sessionId, String turnId, Instant observedAt,
                         Outcome outcome, Trust trust) {

    public Provenance {
        Checks.notNull("source", source);
        Checks.notNull("observedAt", observedAt);
        Checks.notNull("outcome", outcome);
        Checks.notNull("trust", trust);
    }

    /** Provenance for something an operator wrote at {@code at}. */
    public static Provenance operator(Instant at) {
        return new Provenance(Source.OPERATOR, null, null, at, Outcome.UNKNOWN, Trust.FIRST_PARTY);
    }

    /**
     * Provenance for what a recorded turn said: its role's source, and third-party trust for tool
     * output (tool output and documents are never first-party); outcome UNKNOWN until reported.
     */
    public static Provenance ofTurn(Role role, String sessionId, String turnId, Instant at) {
        Source source = switch (Checks.turnRole("role", role)) {
            case USER -> Source.USER;
            case ASSISTANT -> Source.ASSISTANT;
            case TOOL -> Source.TOOL;
            case SYSTEM -> throw new AssertionError("Checks.turnRole refuses SYSTEM");
        };
        Trust trust = role == Role.TOOL ? Trust.THIRD_PARTY : Trust.FIRST_PARTY;
        return new Provenance(source, sessionId, turnId, at, Outcome.UNKNOWN, trust);
    }

    /** Provenance for something the dream cycle wrote at {@code at}. */
    public static Provenance dream(Instant at) {
        return new Provenance(Source.DREAM, null, null, at, Outcome.UNKNOWN, Trust.FIRST_PARTY);
    }

    /** A copy with another outcome. */
    public Provenance withOutcome(Outcome newOutcome) {
        return new Provenance(source, sessionId, turnId, observedAt, newOutcome, trust);
    }
}
