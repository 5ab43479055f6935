package dev.reverie;

import dev.reverie.internal.Checks;

import java.time.Instant;
import java.util.List;

/**
 * An L3 observation: one typed, dated statement extracted from a turn (or merged from several
 * identical ones), waiting for the dream cycle to promote or discard it. Immutable and
 * thread-safe; the {@code with...} methods return copies.
 *
 * @param id                 unique id within the scope
 * @param scope              whose it is
 * @param kind               what kind of statement (never SYNTHESIS)
 * @param text               the statement as rendered text
 * @param subject            a normalized key such as {@code user.name} or {@code user.allergy}
 * @param value              the normalized value for the subject (may be empty)
 * @param cardinality        whether the subject holds one value or many
 * @param polarity           affirmed or negated
 * @param confidence         the extractor's confidence, 0 to 1
 * @param observedAt         when it was said
 * @param sessionId          the session it was said in
 * @param provenance         where it came from
 * @param sourceTurnIds      the turns it was derived from (the caller's ids when given)
 * @param reinforcementCount how many times it was said (1, more after light-sleep dedup)
 * @param status             PENDING, CONSOLIDATED or DISCARDED
 * @param consolidatedAt     when the dream cycle judged it, or {@code null}
 * @param embedding          its vector when an embedder is set, or {@code null}
 */
public record Observation(String id, Scope scope, MemoryKind kind, String text, String subject, String value,
                          Cardinality cardinality, Polarity polarity, double confidence, Instant observedAt,
                          String sessionId, Provenance provenance, List<String> sourceTurnIds,
                          int reinforcementCount, ObservationStatus status, Instant consolidatedAt,
                          Embedding embedding) {

    public Observation {
        Checks.id("observation id", id);
        Checks.notNull("scope", scope);
        Checks.notNull("kind", kind);
        if (kind == MemoryKind.SYNTHESIS) {
            throw new IllegalArgumentException("kind SYNTHESIS is for memories written by the dream cycle, not observations");
        }
        Checks.notBlank("text", text);
        Checks.notBlank("subject", subject);
        value = value == null ? "" : value;
        Checks.notNull("cardinality", cardinality);
        Checks.notNull("polarity", polarity);
        Checks.between("confidence", confidence, 0, 1);
        Checks.notNull("observedAt", observedAt);
        Checks.notNull("provenance", provenance);
        sourceTurnIds = List.copyOf(sourceTurnIds == null ? List.of() : sourceTurnIds);
        Checks.positive("reinforcementCount", reinforcementCount);
        Checks.notNull("status", status);
    }

    /** A copy with another status and consolidation time. */
    public Observation withStatus(ObservationStatus newStatus, Instant at) {
        return new Observation(id, scope, kind, text, subject, value, cardinality, polarity, confidence, observedAt,
                sessionId, provenance, sourceTurnIds, reinforcementCount, newStatus, at, embedding);
    }

    /** A copy with merged reinforcement and source turns. */
    public Observation withReinforcement(int count, List<String> turnIds) {
        return new Observation(id, scope, kind, text, subject, value, cardinality, polarity, confidence, observedAt,
                sessionId, provenance, turnIds, count, status, consolidatedAt, embedding);
    }

    /** A copy with another provenance. */
    public Observation withProvenance(Provenance newProvenance) {
        return new Observation(id, scope, kind, text, subject, value, cardinality, polarity, confidence, observedAt,
                sessionId, newProvenance, sourceTurnIds, reinforcementCount, status, consolidatedAt, embedding);
    }

    /** A copy with an embedding. */
    public Observation withEmbedding(Embedding newEmbedding) {
        return new Observation(id, scope, kind, text, subject, value, cardinality, polarity, confidence, observedAt,
                sessionId, provenance, sourceTurnIds, reinforcementCount, status, consolidatedAt, newEmbedding);
    }
}
