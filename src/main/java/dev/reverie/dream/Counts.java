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
        return new DreamReport(considered, duplicates, promoted, discarded, reinforced, superseded, decayed,
                forgotten, deprecated, synthesized, styled, remBefore, remAfter, pruned, llmFallbacks, 0, 0);
    }
}
