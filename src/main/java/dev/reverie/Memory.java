package dev.reverie;

import dev.reverie.internal.Checks;

import java.time.Instant;
import java.util.List;

/**
 * An L4 durable memory: a fact, preference, skill, event or synthesis that the dream cycle promoted
 * (or an operator added), with its importance, lifecycle status, provenance and the turns it was
 * derived from. Immutable and thread-safe; use {@link #toBuilder()} to derive a changed copy.
 *
 * @param id                   unique id within the scope
 * @param scope                whose it is
 * @param kind                 what kind of memory
 * @param text                 the memory as rendered text
 * @param subject              normalized key such as {@code user.allergy}
 * @param value                normalized value for the subject (may be empty)
 * @param cardinality          one value or many for the subject
 * @param polarity             affirmed or negated
 * @param importance           0 to 100; decays over time unless permanent
 * @param permanent            identity and safety-critical facts: never decay, valid until corrected
 * @param createdAt            when it was created
 * @param updatedAt            when it last changed
 * @param lastReinforcedAt     when it was last said again (the recency marker)
 * @param reinforcementCount   how many times it was said
 * @param retrievalCount       how many times it was recalled (reading never reinforces)
 * @param lastRetrievedAt      when it was last recalled, or {@code null}
 * @param expiresAt            its TTL deadline, or {@code null} for none
 * @param status               ACTIVE, DEPRECATED or SUPERSEDED
 * @param supersededBy         the id of the memory that replaced it, or {@code null}
 * @param sourceObservationIds the observations it was built from
 * @param sourceTurnIds        the turns it was derived from (the caller's ids when given)
 * @param provenance           where it came from
 * @param confidence           0 to 1
 * @param embedding            its vector when an embedder is set, or {@code null}
 */
public record Memory(String id, Scope scope, MemoryKind kind, String text, String subject, String value,
                     Cardinality cardinality, Polarity polarity, double importance, boolean permanent,
                     Instant createdAt, Instant updatedAt, Instant lastReinforcedAt, int reinforcementCount,
                     int retrievalCount, Instant lastRetrievedAt, Instant expiresAt, MemoryStatus status,
                     String supersededBy, List<String> sourceObservationIds, List<String> sourceTurnIds,
                     Provenance provenance, double confidence, Embedding embedding) {

    public Memory {
        Checks.id("memory id", id);
        Checks.notNull("scope", scope);
        Checks.notNull("kind", kind);
        Checks.notBlank("text", text);
        Checks.notBlank("subject", subject);
        value = value == null ? "" : value;
        Checks.notNull("cardinality", cardinality);
        Checks.notNull("polarity", polarity);
        Checks.between("importance", importance, 0, 100);
        Checks.notNull("createdAt", createdAt);
        Checks.notNull("updatedAt", updatedAt);
        Checks.notNull("lastReinforcedAt", lastReinforcedAt);
        Checks.positive("reinforcementCount", reinforcementCount);
        Checks.nonNegative("retrievalCount", retrievalCount);
        Checks.notNull("status", status);
        sourceObservationIds = List.copyOf(sourceObservationIds == null ? List.of() : sourceObservationIds);
        sourceTurnIds = List.copyOf(sourceTurnIds == null ? List.of() : sourceTurnIds);
        Checks.notNull("provenance", provenance);
        Checks.between("confidence", confidence, 0, 1);
        if (permanent && provenance.trust() == Trust.THIRD_PARTY) {
            throw new IllegalArgumentException("permanent must be false for THIRD_PARTY content (memory " + id + ")");
        }
    }

    /** Whether it is past its TTL at {@code now}. */
    public boolean expired(Instant now) {
        return expiresAt != null && !now.isBefore(expiresAt);
    }

    /** A builder holding this memory's values, to derive a changed copy. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** A new builder for a memory with the given identity; sensible defaults for the rest. */
    public static Builder builder(String id, Scope scope, MemoryKind kind, String text, Instant now) {
        return new Builder(id, scope, kind, text, now);
    }

    /** Mutable builder for {@link Memory}; not thread-safe. */
    public static final class Builder {
        private String id;
        private Scope scope;
        private MemoryKind kind;
        private String text;
        private String subject;
        private String value = "";
        private Cardinality cardinality = Cardinality.MULTI;
        private Polarity polarity = Polarity.POSITIVE;
        private double importance = 50;
        private boolean permanent;
        private Instant createdAt;
        private Instant updatedAt;
        private Instant lastReinforcedAt;
        private int reinforcementCount = 1;
        private int retrievalCount;
        private Instant lastRetrievedAt;
        private Instant expiresAt;
        private MemoryStatus status = MemoryStatus.ACTIVE;
        private String supersededBy;
        private List<String> sourceObservationIds = List.of();
        private List<String> sourceTurnIds = List.of();
        private Provenance provenance;
        private double confidence = 1.0;
        private Embedding embedding;

        private Builder(String id, Scope scope, MemoryKind kind, String text, Instant now) {
            this.id = id;
            this.scope = scope;
            this.kind = kind;
            this.text = text;
            this.subject = kind == null ? "note" : "user." + kind.name().toLowerCase(java.util.Locale.ROOT);
            this.createdAt = now;
            this.updatedAt = now;
            this.lastReinforcedAt = now;
            this.provenance = now == null ? null : Provenance.operator(now);
        }

        private Builder(Memory m) {
            id = m.id;
            scope = m.scope;
            kind = m.kind;
            text = m.text;
            subject = m.subject;
            value = m.value;
            cardinality = m.cardinality;
            polarity = m.polarity;
            importance = m.importance;
            permanent = m.permanent;
            createdAt = m.createdAt;
            updatedAt = m.updatedAt;
            lastReinforcedAt = m.lastReinforcedAt;
            reinforcementCount = m.reinforcementCount;
            retrievalCount = m.retrievalCount;
            lastRetrievedAt = m.lastRetrievedAt;
            expiresAt = m.expiresAt;
            status = m.status;
            supersededBy = m.supersededBy;
            sourceObservationIds = m.sourceObservationIds;
            sourceTurnIds = m.sourceTurnIds;
            provenance = m.provenance;
            confidence = m.confidence;
            embedding = m.embedding;
        }

        public Builder id(String v) { id = v; return this; }
        public Builder kind(MemoryKind v) { kind = v; return this; }
        public Builder text(String v) { text = v; return this; }
        public Builder subject(String v) { subject = v; return this; }
        public Builder value(String v) { value = v; return this; }
        public Builder cardinality(Cardinality v) { cardinality = v; return this; }
        public Builder polarity(Polarity v) { polarity = v; return this; }
        public Builder importance(double v) { importance = v; return this; }
        public Builder permanent(boolean v) { permanent = v; return this; }
        public Builder createdAt(Instant v) { createdAt = v; return this; }
        public Builder updatedAt(Instant v) { updatedAt = v; return this; }
        public Builder lastReinforcedAt(Instant v) { lastReinforcedAt = v; return this; }
        public Builder reinforcementCount(int v) { reinforcementCount = v; return this; }
        public Builder retrievalCount(int v) { retrievalCount = v; return this; }
        public Builder lastRetrievedAt(Instant v) { lastRetrievedAt = v; return this; }
        public Builder expiresAt(Instant v) { expiresAt = v; return this; }
        public Builder status(MemoryStatus v) { status = v; return this; }
        public Builder supersededBy(String v) { supersededBy = v; return this; }
        public Builder sourceObservationIds(List<String> v) { sourceObservationIds = v; return this; }
        public Builder sourceTurnIds(List<String> v) { sourceTurnIds = v; return this; }
        public Builder provenance(Provenance v) { provenance = v; return this; }
        public Builder confidence(double v) { confidence = v; return this; }
        public Builder embedding(Embedding v) { embedding = v; return this; }

        /** Builds the memory, validating every field. */
        public Memory build() {
            return new Memory(id, scope, kind, text, subject, value, cardinality, polarity, importance, permanent,
                    createdAt, updatedAt, lastReinforcedAt, reinforcementCount, retrievalCount, lastRetrievedAt,
                    expiresAt, status, supersededBy, sourceObservationIds, sourceTurnIds, provenance, confidence,
                    embedding);
        }
    }
}
