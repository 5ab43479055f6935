package dev.reverie;

import dev.reverie.spi.SessionTurn;

import java.time.Instant;
import java.util.List;

/**
 * A memory, observation or verbatim past turn competing for the persistent layer, reduced to what
 * scoring needs. Immutable and thread-safe.
 *
 * @param id            memory or observation id; for a turn {@code turn:<session>:<seq>}
 * @param kind          its kind (EVENT for a turn: the record of what happened)
 * @param text          its text
 * @param importance    0 to 100
 * @param lastSeen      when it was last reinforced (memories), observed (observations) or said (turns)
 * @param provenance    where it came from
 * @param sourceTurnIds the turns behind it (a turn's own id for a turn)
 * @param origin        memory, observation or turn
 * @param embedding     its vector, or {@code null}
 * @param turn          the verbatim turn when {@code origin} is TURN, else {@code null}
 */
record Candidate(String id, MemoryKind kind, String text, double importance, Instant lastSeen,
                        Provenance provenance, List<String> sourceTurnIds, RecalledMemory.Origin origin,
                        Embedding embedding, SessionTurn turn) {

    /** A candidate that is not a turn. */
    Candidate(String id, MemoryKind kind, String text, double importance, Instant lastSeen,
                     Provenance provenance, List<String> sourceTurnIds, boolean observation, Embedding embedding) {
        this(id, kind, text, importance, lastSeen, provenance, sourceTurnIds,
                observation ? RecalledMemory.Origin.OBSERVATION : RecalledMemory.Origin.MEMORY, embedding, null);
    }

    /** The candidate for a durable memory. */
    static Candidate of(Memory m) {
        return new Candidate(m.id(), m.kind(), m.text(), m.importance(), m.lastReinforcedAt(), m.provenance(),
                m.sourceTurnIds(), false, m.embedding());
    }

    /**
     * The candidate for a pending observation. Its importance is a proxy until the dream cycle
     * judges it: half the extractor's confidence on the 0–100 scale, plus a little per repetition.
     */
    static Candidate of(Observation o) {
        double importance = Math.min(100, 50 * o.confidence() + 5 * (o.reinforcementCount() - 1));
        return new Candidate(o.id(), o.kind(), o.text(), importance, o.observedAt(), o.provenance(),
                o.sourceTurnIds(), true, o.embedding());
    }

    /**
     * The candidate for a verbatim past turn (episodic recall). Tool output keeps its third-party
     * trust; {@code importance} is the policy's proxy, since no dream has judged the turn.
     */
    static Candidate of(SessionTurn t, double importance) {
        Provenance p = Provenance.ofTurn(t.role(), t.sessionId(), t.turnId(), t.at());
        return new Candidate(turnKey(t.sessionId(), t.seq()), MemoryKind.EVENT, t.text(), importance, t.at(), p,
                List.of(t.turnId()), RecalledMemory.Origin.TURN, null, t);
    }

    /**
     * The key of a turn across sessions: its session and its id, since a host may reuse turn ids
     * across sessions.
     */
    static String sessionTurnKey(String sessionId, String turnId) {
        return sessionId + "\u0000" + turnId;
    }

    /** The {@link #sessionTurnKey} of this candidate's verbatim turn; only for a turn. */
    String turnKey() {
        return sessionTurnKey(turn.sessionId(), turn.turnId());
    }

    /**
     * The {@link #sessionTurnKey} of the single turn this memory or observation was derived from,
     * when its provenance names that turn's session; {@code null} otherwise (several sources, or a
     * provenance of another turn).
     */
    String sourceTurnKey() {
        if (episode() || sourceTurnIds.size() != 1 || provenance.sessionId() == null
                || !sourceTurnIds.get(0).equals(provenance.turnId())) {
            return null;
        }
        return sessionTurnKey(provenance.sessionId(), sourceTurnIds.get(0));
    }

    /** The candidate id of a turn. */
    static String turnKey(String sessionId, long seq) {
        return "turn:" + sessionId + ":" + seq;
    }

    /** Whether it is an L3 observation. */
    boolean observation() {
        return origin == RecalledMemory.Origin.OBSERVATION;
    }

    /** Whether it is a verbatim past turn. */
    boolean episode() {
        return origin == RecalledMemory.Origin.TURN;
    }
}
