package dev.reverie;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.reverie.internal.Checks;

import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * An L4 durable memory: a fact, preference, skill, event or synthesis that the dream cycle promoted
 * (or an operator added), with its importance, lifecycle status, provenance and the turns it was
 * derived from. Immutable and thread-safe; use {@link #toBuilder()} to derive a changed copy.
 *
 * <p>A final class rather than a record (it was one in 0.1.0), so that a field can be added without
 * breaking a caller's binary: the accessors, {@code equals}, {@code hashCode}, {@code toString} and
 * the JSON form are those of the record. Build one with {@link #builder()} (or
 * {@link #builder(String, Scope, MemoryKind, String, Instant)}); the positional constructor is frozen
 * at its 0.1.0 parameters: a new field gets a builder method and a default, never a constructor
 * parameter.
 */
@JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY, getterVisibility = JsonAutoDetect.Visibility.NONE,
        isGetterVisibility = JsonAutoDetect.Visibility.NONE)
@JsonPropertyOrder({"id", "scope", "kind", "text", "subject", "value", "cardinality", "polarity", "importance", "permanent",
        "createdAt", "updatedAt", "lastReinforcedAt", "reinforcementCount", "retrievalCount",
        "lastRetrievedAt", "expiresAt", "status", "supersededBy", "sourceObservationIds", "sourceTurnIds",
        "provenance", "confidence", "embedding"})
public final class Memory {

    private final String id;
    private final Scope scope;
    private final MemoryKind kind;
    private final String text;
    private final String subject;
    private final String value;
    private final Cardinality cardinality;
    private final Polarity polarity;
    private final double importance;
    private final boolean permanent;
    private final Instant createdAt;
    private final Instant updatedAt;
    private final Instant lastReinforcedAt;
    private final int reinforcementCount;
    private final int retrievalCount;
    private final Instant lastRetrievedAt;
    private final Instant expiresAt;
    private final MemoryStatus status;
    private final String supersededBy;
    private final List<String> sourceObservationIds;
    private final List<String> sourceTurnIds;
    private final Provenance provenance;
    private final double confidence;
    private final Embedding embedding;

    /**
     * A memory from every field, in the order of the accessors (the 0.1.0 record's canonical
     * constructor). Frozen: fields added later are set through {@link #builder()}.
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
     * @throws IllegalArgumentException when a field breaks its rule (the message names it)
     */
    public Memory(String id, Scope scope, MemoryKind kind, String text, String subject, String value,
                  Cardinality cardinality, Polarity polarity, double importance, boolean permanent,
                  Instant createdAt, Instant updatedAt, Instant lastReinforcedAt, int reinforcementCount,
                  int retrievalCount, Instant lastRetrievedAt, Instant expiresAt, MemoryStatus status,
                  String supersededBy, List<String> sourceObservationIds, List<String> sourceTurnIds,
                  Provenance provenance, double confidence, Embedding embedding) {
        Checks.id("memory id", id);
        Checks.notNull("scope", scope);
        Checks.notNull("kind", kind);
        Checks.notBlank("text", text);
        Checks.notBlank("subject", subject);
        Checks.notNull("cardinality", cardinality);
        Checks.notNull("polarity", polarity);
        Checks.between("importance", importance, 0, 100);
        Checks.notNull("createdAt", createdAt);
        Checks.notNull("updatedAt", updatedAt);
        Checks.notNull("lastReinforcedAt", lastReinforcedAt);
        Checks.positive("reinforcementCount", reinforcementCount);
        Checks.nonNegative("retrievalCount", retrievalCount);
        Checks.notNull("status", status);
        Checks.notNull("provenance", provenance);
        Checks.between("confidence", confidence, 0, 1);
        if (permanent && provenance.trust() == Trust.THIRD_PARTY) {
            throw new IllegalArgumentException("permanent must be false for THIRD_PARTY content (memory " + id + ")");
        }
        this.id = id;
        this.scope = scope;
        this.kind = kind;
        this.text = text;
        this.subject = subject;
        this.value = value == null ? "" : value;
        this.cardinality = cardinality;
        this.polarity = polarity;
        this.importance = importance;
        this.permanent = permanent;
        this.createdAt = createdAt;
        this.updatedAt = updatedAt;
        this.lastReinforcedAt = lastReinforcedAt;
        this.reinforcementCount = reinforcementCount;
        this.retrievalCount = retrievalCount;
        this.lastRetrievedAt = lastRetrievedAt;
        this.expiresAt = expiresAt;
        this.status = status;
        this.supersededBy = supersededBy;
        this.sourceObservationIds = List.copyOf(sourceObservationIds == null ? List.of() : sourceObservationIds);
        this.sourceTurnIds = List.copyOf(sourceTurnIds == null ? List.of() : sourceTurnIds);
        this.provenance = provenance;
        this.confidence = confidence;
        this.embedding = embedding;
    }

    // the JSON creator: the record's property names, so stored documents read back unchanged
    @JsonCreator
    private static Memory fromJson(@JsonProperty("id") String id,
            @JsonProperty("scope") Scope scope,
            @JsonProperty("kind") MemoryKind kind,
            @JsonProperty("text") String text,
            @JsonProperty("subject") String subject,
            @JsonProperty("value") String value,
            @JsonProperty("cardinality") Cardinality cardinality,
            @JsonProperty("polarity") Polarity polarity,
            @JsonProperty("importance") double importance,
            @JsonProperty("permanent") boolean permanent,
            @JsonProperty("createdAt") Instant createdAt,
            @JsonProperty("updatedAt") Instant updatedAt,
            @JsonProperty("lastReinforcedAt") Instant lastReinforcedAt,
            @JsonProperty("reinforcementCount") int reinforcementCount,
            @JsonProperty("retrievalCount") int retrievalCount,
            @JsonProperty("lastRetrievedAt") Instant lastRetrievedAt,
            @JsonProperty("expiresAt") Instant expiresAt,
            @JsonProperty("status") MemoryStatus status,
            @JsonProperty("supersededBy") String supersededBy,
            @JsonProperty("sourceObservationIds") List<String> sourceObservationIds,
            @JsonProperty("sourceTurnIds") List<String> sourceTurnIds,
            @JsonProperty("provenance") Provenance provenance,
            @JsonProperty("confidence") double confidence,
            @JsonProperty("embedding") Embedding embedding) {
        return new Memory(id, scope, kind, text, subject, value, cardinality, polarity, importance, permanent, createdAt,
                updatedAt, lastReinforcedAt, reinforcementCount, retrievalCount, lastRetrievedAt,
                expiresAt, status, supersededBy, sourceObservationIds, sourceTurnIds, provenance,
                confidence, embedding);
    }


    /**
     * A new builder with defaults for everything but the identity: set at least {@code id},
     * {@code scope}, {@code kind}, {@code text} and {@code createdAt}. Unset, {@code subject} is
     * {@code user.<kind>}, {@code updatedAt} and {@code lastReinforcedAt} are {@code createdAt}, and
     * {@code provenance} is an operator's at {@code createdAt}; importance 50, confidence 1, one
     * reinforcement, ACTIVE, MULTI, POSITIVE.
     */
    public static Builder builder() {
        return new Builder();
    }

    /** A new builder for a memory with the given identity; sensible defaults for the rest. */
    public static Builder builder(String id, Scope scope, MemoryKind kind, String text, Instant now) {
        return new Builder().id(id).scope(scope).kind(kind).text(text)
                .subject(kind == null ? "note" : defaultSubject(kind))
                .createdAt(now).updatedAt(now).lastReinforcedAt(now)
                .provenance(now == null ? null : Provenance.operator(now));
    }

    /** A builder holding this memory's values, to derive a changed copy. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Unique id within the scope. */
    public String id() {
        return id;
    }

    /** Whose it is. */
    public Scope scope() {
        return scope;
    }

    /** What kind of memory. */
    public MemoryKind kind() {
        return kind;
    }

    /** The memory as rendered text. */
    public String text() {
        return text;
    }

    /** Normalized key such as {@code user.allergy}. */
    public String subject() {
        return subject;
    }

    /** Normalized value for the subject (may be empty). */
    public String value() {
        return value;
    }

    /** One value or many for the subject. */
    public Cardinality cardinality() {
        return cardinality;
    }

    /** Affirmed or negated. */
    public Polarity polarity() {
        return polarity;
    }

    /** 0 to 100; decays over time unless permanent. */
    public double importance() {
        return importance;
    }

    /** Identity and safety-critical facts: never decay, valid until corrected. */
    public boolean permanent() {
        return permanent;
    }

    /** When it was created. */
    public Instant createdAt() {
        return createdAt;
    }

    /** When it last changed. */
    public Instant updatedAt() {
        return updatedAt;
    }

    /** When it was last said again (the recency marker). */
    public Instant lastReinforcedAt() {
        return lastReinforcedAt;
    }

    /** How many times it was said. */
    public int reinforcementCount() {
        return reinforcementCount;
    }

    /** How many times it was recalled (reading never reinforces). */
    public int retrievalCount() {
        return retrievalCount;
    }

    /** When it was last recalled, or {@code null}. */
    public Instant lastRetrievedAt() {
        return lastRetrievedAt;
    }

    /** Its TTL deadline, or {@code null} for none. */
    public Instant expiresAt() {
        return expiresAt;
    }

    /** ACTIVE, DEPRECATED or SUPERSEDED. */
    public MemoryStatus status() {
        return status;
    }

    /** The id of the memory that replaced it, or {@code null}. */
    public String supersededBy() {
        return supersededBy;
    }

    /** The observations it was built from. */
    public List<String> sourceObservationIds() {
        return sourceObservationIds;
    }

    /** The turns it was derived from (the caller's ids when given). */
    public List<String> sourceTurnIds() {
        return sourceTurnIds;
    }

    /** Where it came from. */
    public Provenance provenance() {
        return provenance;
    }

    /** 0 to 1. */
    public double confidence() {
        return confidence;
    }

    /** Its vector when an embedder is set, or {@code null}. */
    public Embedding embedding() {
        return embedding;
    }

    @Override
    public boolean equals(Object obj) {
        if (this == obj) {
            return true;
        }
        if (!(obj instanceof Memory o)) {
            return false;
        }
        return Objects.equals(id, o.id)
                && Objects.equals(scope, o.scope)
                && Objects.equals(kind, o.kind)
                && Objects.equals(text, o.text)
                && Objects.equals(subject, o.subject)
                && Objects.equals(value, o.value)
                && Objects.equals(cardinality, o.cardinality)
                && Objects.equals(polarity, o.polarity)
                && Double.compare(importance, o.importance) == 0
                && permanent == o.permanent
                && Objects.equals(createdAt, o.createdAt)
                && Objects.equals(updatedAt, o.updatedAt)
                && Objects.equals(lastReinforcedAt, o.lastReinforcedAt)
                && reinforcementCount == o.reinforcementCount
                && retrievalCount == o.retrievalCount
                && Objects.equals(lastRetrievedAt, o.lastRetrievedAt)
                && Objects.equals(expiresAt, o.expiresAt)
                && Objects.equals(status, o.status)
                && Objects.equals(supersededBy, o.supersededBy)
                && Objects.equals(sourceObservationIds, o.sourceObservationIds)
                && Objects.equals(sourceTurnIds, o.sourceTurnIds)
                && Objects.equals(provenance, o.provenance)
                && Double.compare(confidence, o.confidence) == 0
                && Objects.equals(embedding, o.embedding);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, scope, kind, text, subject, value, cardinality, polarity, importance, permanent, createdAt, updatedAt, lastReinforcedAt, reinforcementCount, retrievalCount, lastRetrievedAt, expiresAt, status, supersededBy, sourceObservationIds, sourceTurnIds, provenance, confidence, embedding);
    }

    @Override
    public String toString() {
        return "Memory["
                + "id=" + id
                + ", scope=" + scope
                + ", kind=" + kind
                + ", text=" + text
                + ", subject=" + subject
                + ", value=" + value
                + ", cardinality=" + cardinality
                + ", polarity=" + polarity
                + ", importance=" + importance
                + ", permanent=" + permanent
                + ", createdAt=" + createdAt
                + ", updatedAt=" + updatedAt
                + ", lastReinforcedAt=" + lastReinforcedAt
                + ", reinforcementCount=" + reinforcementCount
                + ", retrievalCount=" + retrievalCount
                + ", lastRetrievedAt=" + lastRetrievedAt
                + ", expiresAt=" + expiresAt
                + ", status=" + status
                + ", supersededBy=" + supersededBy
                + ", sourceObservationIds=" + sourceObservationIds
                + ", sourceTurnIds=" + sourceTurnIds
                + ", provenance=" + provenance
                + ", confidence=" + confidence
                + ", embedding=" + embedding
                + "]";
    }

    /** Whether it is past its TTL at {@code now}. */
    public boolean expired(Instant now) {
        return expiresAt != null && !now.isBefore(expiresAt);
    }

    private static String defaultSubject(MemoryKind kind) {
        return "user." + kind.name().toLowerCase(Locale.ROOT);
    }

    /** Mutable builder for {@link Memory}; not thread-safe. Every field is validated in {@link #build()}. */
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

        private Builder() {
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

        /** Sets {@link Memory#id()}. */
        public Builder id(String v) {
            id = v;
            return this;
        }

        /** Sets {@link Memory#scope()}. */
        public Builder scope(Scope v) {
            scope = v;
            return this;
        }

        /** Sets {@link Memory#kind()}. */
        public Builder kind(MemoryKind v) {
            kind = v;
            return this;
        }

        /** Sets {@link Memory#text()}. */
        public Builder text(String v) {
            text = v;
            return this;
        }

        /** Sets {@link Memory#subject()}. */
        public Builder subject(String v) {
            subject = v;
            return this;
        }

        /** Sets {@link Memory#value()}. */
        public Builder value(String v) {
            value = v;
            return this;
        }

        /** Sets {@link Memory#cardinality()}. */
        public Builder cardinality(Cardinality v) {
            cardinality = v;
            return this;
        }

        /** Sets {@link Memory#polarity()}. */
        public Builder polarity(Polarity v) {
            polarity = v;
            return this;
        }

        /** Sets {@link Memory#importance()}. */
        public Builder importance(double v) {
            importance = v;
            return this;
        }

        /** Sets {@link Memory#permanent()}. */
        public Builder permanent(boolean v) {
            permanent = v;
            return this;
        }

        /** Sets {@link Memory#createdAt()}. */
        public Builder createdAt(Instant v) {
            createdAt = v;
            return this;
        }

        /** Sets {@link Memory#updatedAt()}. */
        public Builder updatedAt(Instant v) {
            updatedAt = v;
            return this;
        }

        /** Sets {@link Memory#lastReinforcedAt()}. */
        public Builder lastReinforcedAt(Instant v) {
            lastReinforcedAt = v;
            return this;
        }

        /** Sets {@link Memory#reinforcementCount()}. */
        public Builder reinforcementCount(int v) {
            reinforcementCount = v;
            return this;
        }

        /** Sets {@link Memory#retrievalCount()}. */
        public Builder retrievalCount(int v) {
            retrievalCount = v;
            return this;
        }

        /** Sets {@link Memory#lastRetrievedAt()}. */
        public Builder lastRetrievedAt(Instant v) {
            lastRetrievedAt = v;
            return this;
        }

        /** Sets {@link Memory#expiresAt()}. */
        public Builder expiresAt(Instant v) {
            expiresAt = v;
            return this;
        }

        /** Sets {@link Memory#status()}. */
        public Builder status(MemoryStatus v) {
            status = v;
            return this;
        }

        /** Sets {@link Memory#supersededBy()}. */
        public Builder supersededBy(String v) {
            supersededBy = v;
            return this;
        }

        /** Sets {@link Memory#sourceObservationIds()}. */
        public Builder sourceObservationIds(List<String> v) {
            sourceObservationIds = v;
            return this;
        }

        /** Sets {@link Memory#sourceTurnIds()}. */
        public Builder sourceTurnIds(List<String> v) {
            sourceTurnIds = v;
            return this;
        }

        /** Sets {@link Memory#provenance()}. */
        public Builder provenance(Provenance v) {
            provenance = v;
            return this;
        }

        /** Sets {@link Memory#confidence()}. */
        public Builder confidence(double v) {
            confidence = v;
            return this;
        }

        /** Sets {@link Memory#embedding()}. */
        public Builder embedding(Embedding v) {
            embedding = v;
            return this;
        }

        /**
         * Builds the memory, validating every field.
         *
         * @throws IllegalArgumentException when a field breaks its rule (the message names it)
         */
        public Memory build() {
            String subj = subject == null && kind != null ? defaultSubject(kind) : subject;
            Instant updated = updatedAt == null ? createdAt : updatedAt;
            Instant reinforced = lastReinforcedAt == null ? createdAt : lastReinforcedAt;
            Provenance prov = provenance == null && createdAt != null ? Provenance.operator(createdAt) : provenance;
            return new Memory(id, scope, kind, text, subj, value, cardinality, polarity, importance, permanent,
                    createdAt, updated, reinforced, reinforcementCount, retrievalCount, lastRetrievedAt,
                    expiresAt, status, supersededBy, sourceObservationIds, sourceTurnIds, prov, confidence,
                    embedding);
        }
    }
}
