package dev.reverie;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.reverie.internal.Checks;

import java.util.List;
import java.util.Objects;

/**
 * A memory, recent observation or verbatim past turn that was put into the PERSISTENT layer, with
 * its score and the parts of the score, and the turns it was derived from — how a caller or an
 * evaluation traces a recalled item back to the conversation. Immutable and thread-safe.
 *
 * <p>What the item is, is {@link #origin()}: an L4 memory, an L3 observation or a verbatim past turn;
 * {@link #memoryId()} is that item's id. {@link #observation()} is the 0.1.0 form of the same answer
 * (true for an observation only) and stays.
 *
 * <p>A final class rather than a record (it was one in 0.1.0), so that a field can be added without
 * breaking a caller's binary: the accessors, {@code equals}, {@code hashCode}, {@code toString} and
 * the JSON form are those of the record. Build one with {@link #builder(Origin, String, MemoryKind,
 * String)}; the two positional constructors are frozen: a new field gets a builder method and a
 * default, never a constructor parameter.
 */
@JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY, getterVisibility = JsonAutoDetect.Visibility.NONE,
        isGetterVisibility = JsonAutoDetect.Visibility.NONE)
@JsonPropertyOrder({"memoryId", "kind", "text", "score", "relevance", "importance", "recency", "trustFactor", "pinned",
        "observation", "sourceTurnIds", "origin"})
public final class RecalledMemory {

    /** Where a recalled item comes from. */
    public enum Origin {
        /** An L4 durable memory. */
        MEMORY,
        /** An L3 observation the dream cycle has not judged yet. */
        OBSERVATION,
        /** A verbatim turn of a past session (episodic recall). */
        TURN
    }

    private final String memoryId;
    private final MemoryKind kind;
    private final String text;
    private final double score;
    private final double relevance;
    private final double importance;
    private final double recency;
    private final double trustFactor;
    private final boolean pinned;
    private final boolean observation;
    private final List<String> sourceTurnIds;
    private final Origin origin;

    /**
     * A recalled item from every field (the record's canonical constructor). Frozen: fields added
     * later are set through the builder.
     *
     * @param memoryId      the memory's or observation's id; for a verbatim turn, the turn's id
     * @param kind          its kind
     * @param text          its text as stored (before rendering)
     * @param score         the final score (after the trust factor, and times {@code 1 + dateMatchBoost}
     *                      when it was said on a date the query names); pinned items score 1
     * @param relevance     the fused lexical/vector relevance, 0 to 1
     * @param importance    importance, 0 to 100
     * @param recency       0.5^(age / half-life), 0 to 1
     * @param trustFactor   the multiplier for third-party or failed-run content (1 otherwise)
     * @param pinned        whether it was pinned (identity facts, style profile)
     * @param observation   whether it is an L3 observation rather than an L4 memory
     * @param sourceTurnIds the turns it was derived from (the caller's ids when given); a turn names itself
     * @param origin        where it comes from: an L4 memory, an L3 observation or a verbatim past turn
     * @throws IllegalArgumentException when {@code observation} and {@code origin} disagree, or a
     *                                  required field is null
     */
    public RecalledMemory(String memoryId, MemoryKind kind, String text, double score, double relevance,
                          double importance, double recency, double trustFactor, boolean pinned,
                          boolean observation, List<String> sourceTurnIds, Origin origin) {
        Checks.notNull("memoryId", memoryId);
        Checks.notNull("kind", kind);
        Checks.notNull("text", text);
        Checks.notNull("origin", origin);
        if (observation != (origin == Origin.OBSERVATION)) {
            throw new IllegalArgumentException("observation (" + observation + ") must agree with origin " + origin);
        }
        this.memoryId = memoryId;
        this.kind = kind;
        this.text = text;
        this.score = score;
        this.relevance = relevance;
        this.importance = importance;
        this.recency = recency;
        this.trustFactor = trustFactor;
        this.pinned = pinned;
        this.observation = observation;
        this.sourceTurnIds = List.copyOf(sourceTurnIds);
        this.origin = origin;
    }

    /** A recalled memory or observation (the 0.1.0 shape). */
    public RecalledMemory(String memoryId, MemoryKind kind, String text, double score, double relevance,
                          double importance, double recency, double trustFactor, boolean pinned,
                          boolean observation, List<String> sourceTurnIds) {
        this(memoryId, kind, text, score, relevance, importance, recency, trustFactor, pinned, observation,
                sourceTurnIds, observation ? Origin.OBSERVATION : Origin.MEMORY);
    }

    // the JSON creator: the record's property names
    @JsonCreator
    private static RecalledMemory fromJson(@JsonProperty("memoryId") String memoryId,
            @JsonProperty("kind") MemoryKind kind,
            @JsonProperty("text") String text,
            @JsonProperty("score") double score,
            @JsonProperty("relevance") double relevance,
            @JsonProperty("importance") double importance,
            @JsonProperty("recency") double recency,
            @JsonProperty("trustFactor") double trustFactor,
            @JsonProperty("pinned") boolean pinned,
            @JsonProperty("observation") boolean observation,
            @JsonProperty("sourceTurnIds") List<String> sourceTurnIds,
            @JsonProperty("origin") Origin origin) {
        return new RecalledMemory(memoryId, kind, text, score, relevance, importance, recency, trustFactor, pinned, observation,
                sourceTurnIds, origin);
    }

    /**
     * A new builder for a recalled item of the given origin, id, kind and text; the score and its
     * parts start at 0 (trust factor 1), not pinned, no source turns.
     */
    public static Builder builder(Origin origin, String memoryId, MemoryKind kind, String text) {
        return new Builder(origin, memoryId, kind, text);
    }

    /** A builder holding this item's values, to derive a changed copy. */
    public Builder toBuilder() {
        Builder b = new Builder(origin, memoryId, kind, text);
        b.score = score;
        b.relevance = relevance;
        b.importance = importance;
        b.recency = recency;
        b.trustFactor = trustFactor;
        b.pinned = pinned;
        b.sourceTurnIds = sourceTurnIds;
        return b;
    }

    /** The memory's or observation's id; for a verbatim turn, the turn's id. */
    public String memoryId() {
        return memoryId;
    }

    /** Its kind. */
    public MemoryKind kind() {
        return kind;
    }

    /** Its text as stored (before rendering). */
    public String text() {
        return text;
    }

    /** The final score (after the trust factor); pinned items score 1. */
    public double score() {
        return score;
    }

    /** The fused lexical/vector relevance, 0 to 1. */
    public double relevance() {
        return relevance;
    }

    /** Importance, 0 to 100. */
    public double importance() {
        return importance;
    }

    /** 0.5^(age / half-life), 0 to 1. */
    public double recency() {
        return recency;
    }

    /** The multiplier for third-party or failed-run content (1 otherwise). */
    public double trustFactor() {
        return trustFactor;
    }

    /** Whether it was pinned (identity facts, style profile). */
    public boolean pinned() {
        return pinned;
    }

    /** Whether it is an L3 observation rather than an L4 memory. */
    public boolean observation() {
        return observation;
    }

    /** The turns it was derived from (the caller's ids when given); a turn names itself. */
    public List<String> sourceTurnIds() {
        return sourceTurnIds;
    }

    /** Where it comes from: an L4 memory, an L3 observation or a verbatim past turn. */
    public Origin origin() {
        return origin;
    }

    @Override
    public boolean equals(Object obj) {
        if (this == obj) {
            return true;
        }
        if (!(obj instanceof RecalledMemory o)) {
            return false;
        }
        return Objects.equals(memoryId, o.memoryId)
                && Objects.equals(kind, o.kind)
                && Objects.equals(text, o.text)
                && Double.compare(score, o.score) == 0
                && Double.compare(relevance, o.relevance) == 0
                && Double.compare(importance, o.importance) == 0
                && Double.compare(recency, o.recency) == 0
                && Double.compare(trustFactor, o.trustFactor) == 0
                && pinned == o.pinned
                && observation == o.observation
                && Objects.equals(sourceTurnIds, o.sourceTurnIds)
                && Objects.equals(origin, o.origin);
    }

    @Override
    public int hashCode() {
        return Objects.hash(memoryId, kind, text, score, relevance, importance, recency, trustFactor, pinned, observation, sourceTurnIds, origin);
    }

    @Override
    public String toString() {
        return "RecalledMemory["
                + "memoryId=" + memoryId
                + ", kind=" + kind
                + ", text=" + text
                + ", score=" + score
                + ", relevance=" + relevance
                + ", importance=" + importance
                + ", recency=" + recency
                + ", trustFactor=" + trustFactor
                + ", pinned=" + pinned
                + ", observation=" + observation
                + ", sourceTurnIds=" + sourceTurnIds
                + ", origin=" + origin
                + "]";
    }

    /** Whether it is a verbatim past turn rather than a memory or observation. */
    public boolean episode() {
        return origin == Origin.TURN;
    }

    /** Mutable builder for {@link RecalledMemory}; not thread-safe. */
    public static final class Builder {
        private Origin origin;
        private String memoryId;
        private MemoryKind kind;
        private String text;
        private double score;
        private double relevance;
        private double importance;
        private double recency;
        private double trustFactor = 1;
        private boolean pinned;
        private List<String> sourceTurnIds = List.of();

        private Builder(Origin origin, String memoryId, MemoryKind kind, String text) {
            this.origin = origin;
            this.memoryId = memoryId;
            this.kind = kind;
            this.text = text;
        }

        /** Sets {@link RecalledMemory#memoryId()}. */
        public Builder memoryId(String v) {
            memoryId = v;
            return this;
        }

        /** Sets {@link RecalledMemory#kind()}. */
        public Builder kind(MemoryKind v) {
            kind = v;
            return this;
        }

        /** Sets {@link RecalledMemory#text()}. */
        public Builder text(String v) {
            text = v;
            return this;
        }

        /** Sets {@link RecalledMemory#score()}. */
        public Builder score(double v) {
            score = v;
            return this;
        }

        /** Sets {@link RecalledMemory#relevance()}. */
        public Builder relevance(double v) {
            relevance = v;
            return this;
        }

        /** Sets {@link RecalledMemory#importance()}. */
        public Builder importance(double v) {
            importance = v;
            return this;
        }

        /** Sets {@link RecalledMemory#recency()}. */
        public Builder recency(double v) {
            recency = v;
            return this;
        }

        /** Sets {@link RecalledMemory#trustFactor()}. */
        public Builder trustFactor(double v) {
            trustFactor = v;
            return this;
        }

        /** Sets {@link RecalledMemory#pinned()}. */
        public Builder pinned(boolean v) {
            pinned = v;
            return this;
        }

        /** Sets {@link RecalledMemory#sourceTurnIds()}. */
        public Builder sourceTurnIds(List<String> v) {
            sourceTurnIds = v;
            return this;
        }

        /** Sets {@link RecalledMemory#origin()}. */
        public Builder origin(Origin v) {
            origin = v;
            return this;
        }

        /** Builds the item; {@code observation()} follows the origin. */
        public RecalledMemory build() {
            return new RecalledMemory(memoryId, kind, text, score, relevance, importance, recency, trustFactor, pinned,
                    origin == Origin.OBSERVATION, sourceTurnIds, origin);
        }
    }
}
