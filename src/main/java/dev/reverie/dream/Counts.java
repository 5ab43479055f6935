package dev.reverie.dream;

/**
 * The mutable counters of one phase of one end user's cycle, turned into a {@link DreamReport} when
 * the phase ends. Not thread-safe: owned by one phase.
 */
final class Counts {
    long considered;
    long duplicates;
    long promoted;
    long discarded;
    long reinforced;
    long superseded;
    long decayed;
    long forgotten;
    long deprecated;
    long synthesized;
    long styled;
    long remBefore;
    long remAfter;
    long pruned;
    long llmFallbacks;

    DreamReport toReport() {
        return DreamReport.builder().considered(considered).duplicates(duplicates).promoted(promoted)
                .discarded(discarded).reinforced(reinforced).superseded(superseded).decayed(decayed)
                .forgotten(forgotten).deprecated(deprecated).synthesized(synthesized).styled(styled)
                .remBefore(remBefore).remAfter(remAfter).pruned(pruned).llmFallbacks(llmFallbacks).build();
    }
}
