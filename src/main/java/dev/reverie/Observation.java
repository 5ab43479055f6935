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
 * An L3 observation: one typed, dated statement extracted from a turn (or merged from several
 * identical ones), waiting for the dream cycle to promote or discard it. Immutable and
 * thread-safe; the {@code with...} methods and {@link #toBuilder()} derive changed copies.
 *
 * <p>A final class rather than a record (it was one in 0.1.0), so that a field can be added without
 * breaking a caller's binary: the accessors, {@code equals}, {@code hashCode}, {@code toString} and
 * the JSON form are those of the record. Build one with {@link #builder()}; the positional
 * constructor is frozen at its 0.1.0 parameters: a new field gets a builder method and a default,
 * never a constructor parameter.
 */
@JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY, getterVisibility = JsonAutoDetect.Visibility.NONE,
        isGetterVisibility = JsonAutoDetect.Visibility.NONE)
@JsonPropertyOrder({"id", "scope", "kind", "text", "subject", "value", "cardinality", "polarity", "confidence", "observedAt",
        "sessionId", "provenance", "sourceTurnIds", "reinforcementCount", "status", "consolidatedAt",
        "embedding"})
public final class Observation {

    private final String id;
    private final Scope scope;
    private final MemoryKind kind;
    private final String text;
    private final String subject;
    private final String value;
    private final Cardinality cardinality;
    private final Polarity polarity;
    private final double confidence;
    private final Instant observedAt;
    private final String sessionId;
    private final Provenance provenance;
    private final List<String> sourceTurnIds;
    private final int reinforcementCount;
    private final ObservationStatus status;
    private final Instant consolidatedAt;
    private final Embedding embedding;

    /**
     * An observation from every field, in the order of the accessors (the 0.1.0 record's canonical
     * constructor). Frozen: fields added later are set through {@link #builder()}.
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
     * @throws IllegalArgumentException when a field breaks its rule (the message names it)
     */
    public Observation(String id, Scope scope, MemoryKind kind, String text, String subject, String value,
                       Cardinality cardinality, Polarity polarity, double confidence, Instant observedAt,
                       String sessionId, Provenance provenance, List<String> sourceTurnIds,
                       int reinforcementCount, ObservationStatus status, Instant consolidatedAt,
                       Embedding embedding) {
        Checks.id("observation id", id);
        Checks.notNull("scope", scope);
        Checks.notNull("kind", kind);
        if (kind == MemoryKind.SYNTHESIS) {
            throw new IllegalArgumentException("kind SYNTHESIS is for memories written by the dream cycle, not observations");
        }
        Checks.notBlank("text", text);
        Checks.notBlank("subject", subject);
        Checks.notNull("cardinality", cardinality);
        Checks.notNull("polarity", polarity);
        Checks.between("confidence", confidence, 0, 1);
        Checks.notNull("observedAt", observedAt);
        Checks.notNull("provenance", provenance);
        Checks.positive("reinforcementCount", reinforcementCount);
        Checks.notNull("status", status);
        this.id = id;
        this.scope = scope;
        this.kind = kind;
        this.text = text;
        this.subject = subject;
        this.value = value == null ? "" : value;
        this.cardinality = cardinality;
        this.polarity = polarity;
        this.confidence = confidence;
        this.observedAt = observedAt;
        this.sessionId = sessionId;
        this.provenance = provenance;
        this.sourceTurnIds = List.copyOf(sourceTurnIds == null ? List.of() : sourceTurnIds);
        this.reinforcementCount = reinforcementCount;
        this.status = status;
        this.consolidatedAt = consolidatedAt;
        this.embedding = embedding;
    }

    // the JSON creator: the record's property names, so stored documents read back unchanged
    @JsonCreator
    private static Observation fromJson(@JsonProperty("id") String id,
            @JsonProperty("scope") Scope scope,
            @JsonProperty("kind") MemoryKind kind,
            @JsonProperty("text") String text,
            @JsonProperty("subject") String subject,
            @JsonProperty("value") String value,
            @JsonProperty("cardinality") Cardinality cardinality,
            @JsonProperty("polarity") Polarity polarity,
            @JsonProperty("confidence") double confidence,
            @JsonProperty("observedAt") Instant observedAt,
            @JsonProperty("sessionId") String sessionId,
            @JsonProperty("provenance") Provenance provenance,
            @JsonProperty("sourceTurnIds") List<String> sourceTurnIds,
            @JsonProperty("reinforcementCount") int reinforcementCount,
            @JsonProperty("status") ObservationStatus status,
            @JsonProperty("consolidatedAt") Instant consolidatedAt,
            @JsonProperty("embedding") Embedding embedding) {
        return new Observation(id, scope, kind, text, subject, value, cardinality, polarity, confidence, observedAt, sessionId,
                provenance, sourceTurnIds, reinforcementCount, status, consolidatedAt, embedding);
    }


    /**
     * A new builder: set at least {@code id}, {@code scope}, {@code kind}, {@code text},
     * {@code observedAt} and {@code provenance}. Unset, {@code subject} is {@code user.<kind>};
     * confidence 1, one reinforcement, PENDING, MULTI, POSITIVE.
     */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this observation's values, to derive a changed copy. */
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

    /** What kind of statement (never SYNTHESIS). */
    public MemoryKind kind() {
        return kind;
    }

    /** The statement as rendered text. */
    public String text() {
        return text;
    }

    /** A normalized key such as {@code user.name} or {@code user.allergy}. */
    public String subject() {
        return subject;
    }

    /** The normalized value for the subject (may be empty). */
    public String value() {
        return value;
    }

    /** Whether the subject holds one value or many. */
    public Cardinality cardinality() {
        return cardinality;
    }

    /** Affirmed or negated. */
    public Polarity polarity() {
        return polarity;
    }

    /** The extractor's confidence, 0 to 1. */
    public double confidence() {
        return confidence;
    }

    /** When it was said. */
    public Instant observedAt() {
        return observedAt;
    }

    /** The session it was said in. */
    public String sessionId() {
        return sessionId;
    }

    /** Where it came from. */
    public Provenance provenance() {
        return provenance;
    }

    /** The turns it was derived from (the caller's ids when given). */
    public List<String> sourceTurnIds() {
        return sourceTurnIds;
    }

    /** How many times it was said (1, more after light-sleep dedup). */
    public int reinforcementCount() {
        return reinforcementCount;
    }

    /** PENDING, CONSOLIDATED or DISCARDED. */
    public ObservationStatus status() {
        return status;
    }

    /** When the dream cycle judged it, or {@code null}. */
    public Instant consolidatedAt() {
        return consolidatedAt;
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
        if (!(obj instanceof Observation o)) {
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
                && Double.compare(confidence, o.confidence) == 0
                && Objects.equals(observedAt, o.observedAt)
                && Objects.equals(sessionId, o.sessionId)
                && Objects.equals(provenance, o.provenance)
                && Objects.equals(sourceTurnIds, o.sourceTurnIds)
                && reinforcementCount == o.reinforcementCount
                && Objects.equals(status, o.status)
                && Objects.equals(consolidatedAt, o.consolidatedAt)
                && Objects.equals(embedding, o.embedding);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, scope, kind, text, subject, value, cardinality, polarity, confidence, observedAt, sessionId, provenance, sourceTurnIds, reinforcementCount, status, consolidatedAt, embedding);
    }

    @Override
    public String toString() {
        return "Observation["
                + "id=" + id
                + ", scope=" + scope
                + ", kind=" + kind
                + ", text=" + text
                + ", subject=" + subject
                + ", value=" + value
                + ", cardinality=" + cardinality
                + ", polarity=" + polarity
                + ", confidence=" + confidence
                + ", observedAt=" + observedAt
                + ", sessionId=" + sessionId
                + ", provenance=" + provenance
                + ", sourceTurnIds=" + sourceTurnIds
                + ", reinforcementCount=" + reinforcementCount
                + ", status=" + status
                + ", consolidatedAt=" + consolidatedAt
                + ", embedding=" + embedding
                + "]";
    }

    /** A copy with another status and consolidation time. */
    public Observation withStatus(ObservationStatus newStatus, Instant at) {
        return toBuilder().status(newStatus).consolidatedAt(at).build();
    }

    /** A copy with merged reinforcement and source turns. */
    public Observation withReinforcement(int count, List<String> turnIds) {
        return toBuilder().reinforcementCount(count).sourceTurnIds(turnIds).build();
    }

    /** A copy with another provenance. */
    public Observation withProvenance(Provenance newProvenance) {
        return toBuilder().provenance(newProvenance).build();
    }

    /** A copy with an embedding. */
    public Observation withEmbedding(Embedding newEmbedding) {
        return toBuilder().embedding(newEmbedding).build();
    }

    /** Mutable builder for {@link Observation}; not thread-safe. Every field is validated in {@link #build()}. */
    public static final class Builder {
        private String id;
        private Scope scope;
        private MemoryKind kind;
        private String text;
        private String subject;
        private String value = "";
        private Cardinality cardinality = Cardinality.MULTI;
        private Polarity polarity = Polarity.POSITIVE;
        private double confidence = 1.0;
        private Instant observedAt;
        private String sessionId;
        private Provenance provenance;
        private List<String> sourceTurnIds = List.of();
        private int reinforcementCount = 1;
        private ObservationStatus status = ObservationStatus.PENDING;
        private Instant consolidatedAt;
        private Embedding embedding;

        private Builder() {
        }

        private Builder(Observation o) {
            id = o.id;
            scope = o.scope;
            kind = o.kind;
            text = o.text;
            subject = o.subject;
            value = o.value;
            cardinality = o.cardinality;
            polarity = o.polarity;
            confidence = o.confidence;
            observedAt = o.observedAt;
            sessionId = o.sessionId;
            provenance = o.provenance;
            sourceTurnIds = o.sourceTurnIds;
            reinforcementCount = o.reinforcementCount;
            status = o.status;
            consolidatedAt = o.consolidatedAt;
            embedding = o.embedding;
        }

        /** Sets {@link Observation#id()}. */
        public Builder id(String v) {
            id = v;
            return this;
        }

        /** Sets {@link Observation#scope()}. */
        public Builder scope(Scope v) {
            scope = v;
            return this;
        }

        /** Sets {@link Observation#kind()}. */
        public Builder kind(MemoryKind v) {
            kind = v;
            return this;
        }

        /** Sets {@link Observation#text()}. */
        public Builder text(String v) {
            text = v;
            return this;
        }

        /** Sets {@link Observation#subject()}. */
        public Builder subject(String v) {
            subject = v;
            return this;
        }

        /** Sets {@link Observation#value()}. */
        public Builder value(String v) {
            value = v;
            return this;
        }

        /** Sets {@link Observation#cardinality()}. */
        public Builder cardinality(Cardinality v) {
            cardinality = v;
            return this;
        }

        /** Sets {@link Observation#polarity()}. */
        public Builder polarity(Polarity v) {
            polarity = v;
            return this;
        }

        /** Sets {@link Observation#confidence()}. */
        public Builder confidence(double v) {
            confidence = v;
            return this;
        }

        /** Sets {@link Observation#observedAt()}. */
        public Builder observedAt(Instant v) {
            observedAt = v;
            return this;
        }

        /** Sets {@link Observation#sessionId()}. */
        public Builder sessionId(String v) {
            sessionId = v;
            return this;
        }

        /** Sets {@link Observation#provenance()}. */
        public Builder provenance(Provenance v) {
            provenance = v;
            return this;
        }

        /** Sets {@link Observation#sourceTurnIds()}. */
        public Builder sourceTurnIds(List<String> v) {
            sourceTurnIds = v;
            return this;
        }

        /** Sets {@link Observation#reinforcementCount()}. */
        public Builder reinforcementCount(int v) {
            reinforcementCount = v;
            return this;
        }

        /** Sets {@link Observation#status()}. */
        public Builder status(ObservationStatus v) {
            status = v;
            return this;
        }

        /** Sets {@link Observation#consolidatedAt()}. */
        public Builder consolidatedAt(Instant v) {
            consolidatedAt = v;
            return this;
        }

        /** Sets {@link Observation#embedding()}. */
        public Builder embedding(Embedding v) {
            embedding = v;
            return this;
        }

        /**
         * Builds the observation, validating every field.
         *
         * @throws IllegalArgumentException when a field breaks its rule (the message names it)
         */
        public Observation build() {
            String subj = subject == null && kind != null ? "user." + kind.name().toLowerCase(Locale.ROOT) : subject;
            return new Observation(id, scope, kind, text, subj, value, cardinality, polarity, confidence, observedAt,
                    sessionId, provenance, sourceTurnIds, reinforcementCount, status, consolidatedAt, embedding);
        }
    }
}
