package dev.reverie.dream;

import dev.reverie.Scope;
import dev.reverie.spi.WriteBatch;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Lock;

/**
 * One end user's cycle in a nightly run, computed but not yet committed: the batch and counters of
 * each phase, in order, and what the user holds until the commit (its lock and lease). A run stages
 * several users, then commits all their batches at once ({@link dev.reverie.spi.MemoryStore#writeAll})
 * and only then reports each phase as finished. A user that was skipped or failed before anything
 * was staged is kept too, so every user is reported in the run's order. Not thread-safe: owned by
 * the run's thread, except while one worker of the run computes it (the run waits for that worker
 * before it reads the user again).
 */
final class StagedCycle {

    /** One computed phase: its writes (possibly empty) and what it did. */
    record Phase(DreamPhase phase, WriteBatch batch, DreamReport counters) { }

    final Scope scope;
    /** Held until the commit; {@code null} once released or when never taken. */
    Lock lock;
    /** Whether this run holds the user's lease, released after the commit. */
    boolean leased;
    /** When the run took the user's lease. */
    java.time.Instant leaseTakenAt;
    /** Whether the user's cycle was computed (or ended before it began: skipped or failed). */
    boolean staged;
    final List<Phase> phases = new ArrayList<>();
    /** Set when the user ended before staging (skipped, or failed with a report of one failure). */
    DreamReport outcome;

    StagedCycle(Scope scope) {
        this.scope = scope;
    }

    void add(DreamPhase phase, WriteBatch batch, DreamReport counters) {
        phases.add(new Phase(phase, batch, counters));
    }

    /** The non-empty batches, in phase order. */
    List<WriteBatch> batches() {
        List<WriteBatch> out = new ArrayList<>();
        for (Phase p : phases) {
            if (!p.batch().isEmpty()) {
                out.add(p.batch());
            }
        }
        return out;
    }

    /** Operations staged, to bound how much a run holds in memory before committing. */
    int size() {
        int n = 0;
        for (Phase p : phases) {
            n += p.batch().size();
        }
        return n;
    }

    /** The sum of the phases' counters plus one finished end user. */
    DreamReport report() {
        DreamReport r = DreamReport.EMPTY;
        for (Phase p : phases) {
            r = r.plus(p.counters());
        }
        return r.plus(DreamReport.endUserDone());
    }
}
