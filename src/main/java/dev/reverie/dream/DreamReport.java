package dev.reverie.dream;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.annotation.JsonPOJOBuilder;

import java.util.Objects;

/**
 * What one dream cycle did, for one end user or summed over many ({@link #plus}). Serializes to JSON
 * with snake_case keys ({@code rem_before}, {@code llm_fallbacks}, ...). Immutable and thread-safe.
 *
 * <p>The counters match the store: after a cycle, {@code duplicates + discarded} observations were
 * newly marked DISCARDED, {@code promoted + styled} newly CONSOLIDATED, {@code pruned} deleted;
 * {@code rem_after} is the number of ACTIVE memories when the cycle ended.
 *
 * <p>A final class rather than a record, so that a counter can be added without breaking a
 * caller's binary: build one with {@link #builder()} (counters not set are zero), read it through
 * its accessors. The positional constructors of 0.1.0 remain, deprecated.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY, getterVisibility = JsonAutoDetect.Visibility.NONE,
        isGetterVisibility = JsonAutoDetect.Visibility.NONE)
@JsonPropertyOrder({"considered", "duplicates", "promoted", "discarded", "reinforced", "superseded",
        "decayed", "forgotten", "deprecated", "synthesized", "styled", "remBefore", "remAfter", "pruned",
        "llmFallbacks", "endUsers", "failed", "skipped"})
@JsonDeserialize(builder = DreamReport.Builder.class)
public final class DreamReport {

    /** A report with every counter at zero. */
    public static final DreamReport EMPTY = builder().build();

    private final long considered;
    private final long duplicates;
    private final long promoted;
    private final long discarded;
    private final long reinforced;
    private final long superseded;
    private final long decayed;
    private final long forgotten;
    private final long deprecated;
    private final long synthesized;
    private final long styled;
    private final long remBefore;
    private final long remAfter;
    private final long pruned;
    private final long llmFallbacks;
    private final long endUsers;
    private final long failed;
    private final long skipped;

    private DreamReport(Builder b) {
        considered = b.considered;
        duplicates = b.duplicates;
        promoted = b.promoted;
        discarded = b.discarded;
        reinforced = b.reinforced;
        superseded = b.superseded;
        decayed = b.decayed;
        forgotten = b.forgotten;
        deprecated = b.deprecated;
        synthesized = b.synthesized;
        styled = b.styled;
        remBefore = b.remBefore;
        remAfter = b.remAfter;
        pruned = b.pruned;
        llmFallbacks = b.llmFallbacks;
        endUsers = b.endUsers;
        failed = b.failed;
        skipped = b.skipped;
    }

    /**
     * A report from every counter, in the order of the accessors.
     *
     * @param considered observations judged (light-sleep survivors, style observations included); in a
     * nightly run {@code promoted + styled + discarded} (a {@code consolidate} pass also counts re-judged
     * observations whose verdict did not change)
     * @param duplicates observations merged into another by light sleep (marked DISCARDED)
     * @param promoted observations promoted into L4 (a new memory or a reinforcement), marked CONSOLIDATED
     * @param discarded observations judged not worth keeping, marked DISCARDED
     * @param reinforced of the promoted, those that reinforced an existing ACTIVE memory instead of adding
     * a row
     * @param superseded memories that became SUPERSEDED (contradicted by a newer fact, or a synthesis
     * replaced)
     * @param decayed memories whose importance REM lowered
     * @param forgotten memories REM deleted, below the forget floor or past their TTL (history kept)
     * @param deprecated memories REM marked DEPRECATED (stale reference, unused, sources gone)
     * @param synthesized syntheses REM wrote
     * @param styled style observations folded into the end user's style profile, marked CONSOLIDATED
     * @param remBefore ACTIVE memories before REM
     * @param remAfter ACTIVE memories after REM
     * @param pruned judged observations deleted from L3 after the retention period
     * @param llmFallbacks model calls that failed or answered malformed JSON and fell back to the rules
     * @param endUsers end users whose cycle completed
     * @param failed end users whose cycle failed (a rerun completes them)
     * @param skipped end users skipped because another manager or process held their dream lease (it is
     * dreaming them; the next cycle takes them up again)
     * @deprecated positional counters break every caller when a counter is added; use {@link #builder()}
     */
    @Deprecated(since = "0.2.0")
    public DreamReport(long considered, long duplicates, long promoted, long discarded, long reinforced,
                       long superseded, long decayed, long forgotten, long deprecated, long synthesized,
                       long styled, long remBefore, long remAfter, long pruned, long llmFallbacks,
                       long endUsers, long failed, long skipped) {
        this(new Builder().considered(considered).duplicates(duplicates).promoted(promoted)
                .discarded(discarded).reinforced(reinforced).superseded(superseded).decayed(decayed)
                .forgotten(forgotten).deprecated(deprecated).synthesized(synthesized).styled(styled)
                .remBefore(remBefore).remAfter(remAfter).pruned(pruned).llmFallbacks(llmFallbacks)
                .endUsers(endUsers).failed(failed).skipped(skipped));
    }

    /**
     * A report with no end user skipped (the form before {@code skipped} existed).
     *
     * @param considered see {@link #considered()}
     * @param duplicates see {@link #duplicates()}
     * @param promoted see {@link #promoted()}
     * @param discarded see {@link #discarded()}
     * @param reinforced see {@link #reinforced()}
     * @param superseded see {@link #superseded()}
     * @param decayed see {@link #decayed()}
     * @param forgotten see {@link #forgotten()}
     * @param deprecated see {@link #deprecated()}
     * @param synthesized see {@link #synthesized()}
     * @param styled see {@link #styled()}
     * @param remBefore see {@link #remBefore()}
     * @param remAfter see {@link #remAfter()}
     * @param pruned see {@link #pruned()}
     * @param llmFallbacks see {@link #llmFallbacks()}
     * @param endUsers see {@link #endUsers()}
     * @param failed see {@link #failed()}
     * @deprecated positional counters break every caller when a counter is added; use {@link #builder()}
     */
    @Deprecated(since = "0.2.0")
    public DreamReport(long considered, long duplicates, long promoted, long discarded, long reinforced,
                       long superseded, long decayed, long forgotten, long deprecated, long synthesized,
                       long styled, long remBefore, long remAfter, long pruned, long llmFallbacks,
                       long endUsers, long failed) {
        this(new Builder().considered(considered).duplicates(duplicates).promoted(promoted)
                .discarded(discarded).reinforced(reinforced).superseded(superseded).decayed(decayed)
                .forgotten(forgotten).deprecated(deprecated).synthesized(synthesized).styled(styled)
                .remBefore(remBefore).remAfter(remAfter).pruned(pruned).llmFallbacks(llmFallbacks)
                .endUsers(endUsers).failed(failed));
    }

    /**
     * A builder with every counter at zero.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A builder starting from this report's counters.
     *
     * @return a new builder
     */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.considered = considered;
        b.duplicates = duplicates;
        b.promoted = promoted;
        b.discarded = discarded;
        b.reinforced = reinforced;
        b.superseded = superseded;
        b.decayed = decayed;
        b.forgotten = forgotten;
        b.deprecated = deprecated;
        b.synthesized = synthesized;
        b.styled = styled;
        b.remBefore = remBefore;
        b.remAfter = remAfter;
        b.pruned = pruned;
        b.llmFallbacks = llmFallbacks;
        b.endUsers = endUsers;
        b.failed = failed;
        b.skipped = skipped;
        return b;
    }

    /**
     * Observations judged (light-sleep survivors, style observations included); in a nightly run {@code
     * promoted + styled + discarded} (a {@code consolidate} pass also counts re-judged observations whose
     * verdict did not change).
     */
    public long considered() {
        return considered;
    }

    /** Observations merged into another by light sleep (marked DISCARDED). */
    public long duplicates() {
        return duplicates;
    }

    /** Observations promoted into L4 (a new memory or a reinforcement), marked CONSOLIDATED. */
    public long promoted() {
        return promoted;
    }

    /** Observations judged not worth keeping, marked DISCARDED. */
    public long discarded() {
        return discarded;
    }

    /** Of the promoted, those that reinforced an existing ACTIVE memory instead of adding a row. */
    public long reinforced() {
        return reinforced;
    }

    /** Memories that became SUPERSEDED (contradicted by a newer fact, or a synthesis replaced). */
    public long superseded() {
        return superseded;
    }

    /** Memories whose importance REM lowered. */
    public long decayed() {
        return decayed;
    }

    /** Memories REM deleted, below the forget floor or past their TTL (history kept). */
    public long forgotten() {
        return forgotten;
    }

    /** Memories REM marked DEPRECATED (stale reference, unused, sources gone). */
    public long deprecated() {
        return deprecated;
    }

    /** Syntheses REM wrote. */
    public long synthesized() {
        return synthesized;
    }

    /** Style observations folded into the end user's style profile, marked CONSOLIDATED. */
    public long styled() {
        return styled;
    }

    /** ACTIVE memories before REM. */
    public long remBefore() {
        return remBefore;
    }

    /** ACTIVE memories after REM. */
    public long remAfter() {
        return remAfter;
    }

    /** Judged observations deleted from L3 after the retention period. */
    public long pruned() {
        return pruned;
    }

    /** Model calls that failed or answered malformed JSON and fell back to the rules. */
    public long llmFallbacks() {
        return llmFallbacks;
    }

    /** End users whose cycle completed. */
    public long endUsers() {
        return endUsers;
    }

    /** End users whose cycle failed (a rerun completes them). */
    public long failed() {
        return failed;
    }

    /**
     * End users skipped because another manager or process held their dream lease (it is dreaming them;
     * the next cycle takes them up again).
     */
    public long skipped() {
        return skipped;
    }

    /** One end user whose cycle completed (added to the phases' counters). */
    static DreamReport endUserDone() {
        return builder().endUsers(1).build();
    }

    /** One end user whose cycle failed. */
    static DreamReport endUserFailed() {
        return builder().failed(1).build();
    }

    /** One end user skipped: another holder had the dream lease. */
    static DreamReport endUserSkipped() {
        return builder().skipped(1).build();
    }

    /**
     * The counter-wise sum of this report and another (for example, over every end user of a tenant).
     *
     * @param o the other report
     * @return the sum
     */
    public DreamReport plus(DreamReport o) {
        Builder b = new Builder();
        b.considered = considered + o.considered;
        b.duplicates = duplicates + o.duplicates;
        b.promoted = promoted + o.promoted;
        b.discarded = discarded + o.discarded;
        b.reinforced = reinforced + o.reinforced;
        b.superseded = superseded + o.superseded;
        b.decayed = decayed + o.decayed;
        b.forgotten = forgotten + o.forgotten;
        b.deprecated = deprecated + o.deprecated;
        b.synthesized = synthesized + o.synthesized;
        b.styled = styled + o.styled;
        b.remBefore = remBefore + o.remBefore;
        b.remAfter = remAfter + o.remAfter;
        b.pruned = pruned + o.pruned;
        b.llmFallbacks = llmFallbacks + o.llmFallbacks;
        b.endUsers = endUsers + o.endUsers;
        b.failed = failed + o.failed;
        b.skipped = skipped + o.skipped;
        return b.build();
    }

    /**
     * Whether the cycle changed nothing in the store (every change counter is zero).
     *
     * @return true when nothing changed
     */
    public boolean changedNothing() {
        return duplicates == 0 && promoted == 0 && discarded == 0 && superseded == 0 && decayed == 0
                && forgotten == 0 && deprecated == 0 && synthesized == 0 && styled == 0 && pruned == 0;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DreamReport r
                && considered == r.considered
                && duplicates == r.duplicates
                && promoted == r.promoted
                && discarded == r.discarded
                && reinforced == r.reinforced
                && superseded == r.superseded
                && decayed == r.decayed
                && forgotten == r.forgotten
                && deprecated == r.deprecated
                && synthesized == r.synthesized
                && styled == r.styled
                && remBefore == r.remBefore
                && remAfter == r.remAfter
                && pruned == r.pruned
                && llmFallbacks == r.llmFallbacks
                && endUsers == r.endUsers
                && failed == r.failed
                && skipped == r.skipped;
    }

    @Override
    public int hashCode() {
        return Objects.hash(considered, duplicates, promoted, discarded, reinforced, superseded, decayed, forgotten,
                deprecated, synthesized, styled, remBefore, remAfter, pruned, llmFallbacks, endUsers, failed, skipped);
    }

    /** The counters, as a record would print them: {@code DreamReport[considered=3, ...]}. */
    @Override
    public String toString() {
        return "DreamReport[considered=" + considered + ", duplicates=" + duplicates + ", promoted=" + promoted
                + ", discarded=" + discarded + ", reinforced=" + reinforced + ", superseded=" + superseded
                + ", decayed=" + decayed + ", forgotten=" + forgotten + ", deprecated=" + deprecated
                + ", synthesized=" + synthesized + ", styled=" + styled + ", remBefore=" + remBefore
                + ", remAfter=" + remAfter + ", pruned=" + pruned + ", llmFallbacks=" + llmFallbacks
                + ", endUsers=" + endUsers + ", failed=" + failed + ", skipped=" + skipped + "]";
    }

    /** Mutable builder; counters not set are zero. Not thread-safe. */
    @JsonPOJOBuilder(withPrefix = "")
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public static final class Builder {
        private long considered;
        private long duplicates;
        private long promoted;
        private long discarded;
        private long reinforced;
        private long superseded;
        private long decayed;
        private long forgotten;
        private long deprecated;
        private long synthesized;
        private long styled;
        private long remBefore;
        private long remAfter;
        private long pruned;
        private long llmFallbacks;
        private long endUsers;
        private long failed;
        private long skipped;

        private Builder() {
        }

        /**
         * Sets {@link DreamReport#considered()}.
         *
         * @param v the count
         * @return this builder
         */
        public Builder considered(long v) {
            considered = v;
            return this;
        }

        /**
         * Sets {@link DreamReport#duplicates()}.
         *
         * @param v the count
         * @return this builder
         */
        public Builder duplicates(long v) {
            duplicates = v;
            return this;
        }

        /**
         * Sets {@link DreamReport#promoted()}.
         *
         * @param v the count
         * @return this builder
         */
        public Builder promoted(long v) {
            promoted = v;
            return this;
        }

        /**
         * Sets {@link DreamReport#discarded()}.
         *
         * @param v the count
         * @return this builder
         */
        public Builder discarded(long v) {
            discarded = v;
            return this;
        }

        /**
         * Sets {@link DreamReport#reinforced()}.
         *
         * @param v the count
         * @return this builder
         */
        public Builder reinforced(long v) {
            reinforced = v;
            return this;
        }

        /**
         * Sets {@link DreamReport#superseded()}.
         *
         * @param v the count
         * @return this builder
         */
        public Builder superseded(long v) {
            superseded = v;
            return this;
        }

        /**
         * Sets {@link DreamReport#decayed()}.
         *
         * @param v the count
         * @return this builder
         */
        public Builder decayed(long v) {
            decayed = v;
            return this;
        }

        /**
         * Sets {@link DreamReport#forgotten()}.
         *
         * @param v the count
         * @return this builder
         */
        public Builder forgotten(long v) {
            forgotten = v;
            return this;
        }

        /**
         * Sets {@link DreamReport#deprecated()}.
         *
         * @param v the count
         * @return this builder
         */
        public Builder deprecated(long v) {
            deprecated = v;
            return this;
        }

        /**
         * Sets {@link DreamReport#synthesized()}.
         *
         * @param v the count
         * @return this builder
         */
        public Builder synthesized(long v) {
            synthesized = v;
            return this;
        }

        /**
         * Sets {@link DreamReport#styled()}.
         *
         * @param v the count
         * @return this builder
         */
        public Builder styled(long v) {
            styled = v;
            return this;
        }

        /**
         * Sets {@link DreamReport#remBefore()}.
         *
         * @param v the count
         * @return this builder
         */
        public Builder remBefore(long v) {
            remBefore = v;
            return this;
        }

        /**
         * Sets {@link DreamReport#remAfter()}.
         *
         * @param v the count
         * @return this builder
         */
        public Builder remAfter(long v) {
            remAfter = v;
            return this;
        }

        /**
         * Sets {@link DreamReport#pruned()}.
         *
         * @param v the count
         * @return this builder
         */
        public Builder pruned(long v) {
            pruned = v;
            return this;
        }

        /**
         * Sets {@link DreamReport#llmFallbacks()}.
         *
         * @param v the count
         * @return this builder
         */
        public Builder llmFallbacks(long v) {
            llmFallbacks = v;
            return this;
        }

        /**
         * Sets {@link DreamReport#endUsers()}.
         *
         * @param v the count
         * @return this builder
         */
        public Builder endUsers(long v) {
            endUsers = v;
            return this;
        }

        /**
         * Sets {@link DreamReport#failed()}.
         *
         * @param v the count
         * @return this builder
         */
        public Builder failed(long v) {
            failed = v;
            return this;
        }

        /**
         * Sets {@link DreamReport#skipped()}.
         *
         * @param v the count
         * @return this builder
         */
        public Builder skipped(long v) {
            skipped = v;
            return this;
        }

        /**
         * The report.
         *
         * @return an immutable report
         */
        public DreamReport build() {
            return new DreamReport(this);
        }
    }
}
