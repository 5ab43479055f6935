package dev.reverie.dream;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * What one dream cycle did, for one end user or summed over many ({@link #plus}). Serializes to JSON
 * with snake_case keys ({@code rem_before}, {@code llm_fallbacks}, ...). Immutable and thread-safe.
 *
 * <p>The counters match the store: after a cycle, {@code duplicates + discarded} observations were
 * newly marked DISCARDED, {@code promoted + styled} newly CONSOLIDATED, {@code pruned} deleted;
 * {@code rem_after} is the number of ACTIVE memories when the cycle ended.
 *
 * @param considered   observations judged (light-sleep survivors, style observations included); in a
 *                     nightly run {@code promoted + styled + discarded} (a {@code consolidate} pass
 *                     also counts re-judged observations whose verdict did not change)
 * @param duplicates   observations merged into another by light sleep (marked DISCARDED)
 * @param promoted     observations promoted into L4 (a new memory or a reinforcement), marked CONSOLIDATED
 * @param discarded    observations judged not worth keeping, marked DISCARDED
 * @param reinforced   of the promoted, those that reinforced an existing ACTIVE memory instead of adding a row
 * @param superseded   memories that became SUPERSEDED (contradicted by a newer fact, or a synthesis replaced)
 * @param decayed      memories whose importance REM lowered
 * @param forgotten    memories REM deleted, below the forget floor or past their TTL (history kept)
 * @param deprecated   memories REM marked DEPRECATED (stale reference, unused, sources gone)
 * @param synthesized  syntheses REM wrote
 * @param styled       style observations folded into the end user's style profile, marked CONSOLIDATED
 * @param remBefore    ACTIVE memories before REM
 * @param remAfter     ACTIVE memories after REM
 * @param pruned       judged observations deleted from L3 after the retention period
 * @param llmFallbacks model calls that failed or answered malformed JSON and fell back to the rules
 * @param endUsers     end users whose cycle completed
 * @param failed       end users whose cycle failed (a rerun completes them)
 * @param skipped      end users skipped because another manager or process held their dream lease
 *                     (it is dreaming them; the next cycle takes them up again)
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record DreamReport(long considered, long duplicates, long promoted, long discarded, long reinforced,
                          long superseded, long decayed, long forgotten, long deprecated, long synthesized,
                          long styled, long remBefore, long remAfter, long pruned, long llmFallbacks, long endUsers,
                          long failed, long skipped) {

    /** A report with every counter at zero. */
    public static final DreamReport EMPTY = new DreamReport(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

    /** A report with no end user skipped (the form before {@code skipped} existed). */
    public DreamReport(long considered, long duplicates, long promoted, long discarded, long reinforced,
                       long superseded, long decayed, long forgotten, long deprecated, long synthesized,
                       long styled, long remBefore, long remAfter, long pruned, long llmFallbacks, long endUsers,
                       long failed) {
        this(considered, duplicates, promoted, discarded, reinforced, superseded, decayed, forgotten, deprecated,
                synthesized, styled, remBefore, remAfter, pruned, llmFallbacks, endUsers, failed, 0);
    }

    /** One end user whose cycle completed (added to the phases' counters). */
    static DreamReport endUserDone() {
        return new DreamReport(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0);
    }

    /** One end user whose cycle failed. */
    static DreamReport endUserFailed() {
        return new DreamReport(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1);
    }

    /** One end user skipped: another holder had the dream lease. */
    static DreamReport endUserSkipped() {
        return new DreamReport(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1);
    }

    /** The counter-wise sum of this report and another (for example, over every end user of a tenant). */
    public DreamReport plus(DreamReport o) {
        return new DreamReport(considered + o.considered, duplicates + o.duplicates, promoted + o.promoted,
                discarded + o.discarded, reinforced + o.reinforced, superseded + o.superseded, decayed + o.decayed,
                forgotten + o.forgotten, deprecated + o.deprecated, synthesized + o.synthesized, styled + o.styled,
                remBefore + o.remBefore, remAfter + o.remAfter, pruned + o.pruned, llmFallbacks + o.llmFallbacks,
                endUsers + o.endUsers, failed + o.failed, skipped + o.skipped);
    }

    /** Whether the cycle changed nothing in the store (every change counter is zero). */
    public boolean changedNothing() {
        return duplicates == 0 && promoted == 0 && discarded == 0 && superseded == 0 && decayed == 0
                && forgotten == 0 && deprecated == 0 && synthesized == 0 && styled == 0 && pruned == 0;
    }
}
