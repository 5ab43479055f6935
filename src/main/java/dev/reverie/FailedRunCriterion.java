package dev.reverie;

import dev.reverie.internal.Checks;
import dev.reverie.internal.Ids;
import dev.reverie.internal.ScopeLocks;
import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.WriteBatch;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Forgetting criterion 4 of DESIGN §8, the half that runs when the host reports an outcome: a
 * FAILED run deprecates every ACTIVE memory whose source turns all came from failed runs, with a
 * DEPRECATED history event whose cause is {@code failed run <turnId>}. A memory with at least one
 * source turn not known to have failed stays ACTIVE.
 *
 * <p>A turn is known to have failed when it is the one being reported, when an observation of the
 * scope whose provenance names that turn carries outcome FAILED (the write pipeline records the
 * outcome there), or when it is the memory's own provenance turn and that provenance says FAILED.
 * So a failure reported for a turn whose observations were already pruned, and which is not the
 * memory's provenance turn, is not remembered; the memory then stays ACTIVE when its last source
 * fails (the safe direction: nothing is deprecated on evidence that is gone). A memory's source
 * turns are its {@code sourceTurnIds}, or its provenance turn when that list is empty; a memory with
 * neither (operator-added, syntheses) is never deprecated by this criterion, nor is a permanent memory
 * (an allergy, a name: said once, valid until the user corrects it; a failed run corrects nothing, and
 * a host that reuses turn ids across sessions would otherwise deprecate one session's allergy by
 * reporting another session's turn). Deprecation does not
 * reverse when a later report says SUCCEEDED: an operator restores such a memory by hand.
 *
 * <p>Thread-safe: each report runs under the scope's lock, so it never races an admin edit, the
 * dream cycle or the retrieval recorder. Built and reached through {@link WritePipeline#reportRun}. Not API.
 */
final class FailedRunCriterion {

    private static final int PAGE = 10_000;

    private final MemoryStore store;
    private final Ids ids;
    private final ScopeLocks locks;
    private final Clock clock;
    private final WritePipeline writes;

    FailedRunCriterion(MemoryStore store, ScopeLocks locks, Clock clock, WritePipeline writes, Ids ids) {
        this.store = store;
        this.ids = Checks.notNull("ids", ids);
        this.locks = locks;
        this.clock = clock;
        this.writes = writes;
    }

    /**
     * Records {@code outcome} on the observations of {@code turnId} and, when it is FAILED, deprecates
     * the memories that rest on failed turns only. Returns the ids of the memories it deprecated.
     */
    List<String> report(Scope scope, String turnId, Outcome outcome) {
        Checks.notNull("scope", scope);
        Checks.id("turnId", turnId);
        Checks.notNull("outcome", outcome);
        ReentrantLock lock = locks.lockFor(scope);
        lock.lock();
        try {
            writes.reportOutcome(scope, turnId, outcome);
            return outcome == Outcome.FAILED ? deprecate(scope, turnId, clock.instant()) : List.of();
        } finally {
            lock.unlock();
        }
    }

    private List<String> deprecate(Scope scope, String turnId, Instant now) {
        List<Memory> affected = new ArrayList<>();
        for (int offset = 0; ; offset += PAGE) {
            List<Memory> page = store.memories(scope, MemoryFilter.active().page(offset, PAGE));
            for (Memory m : page) {
                if (sources(m).contains(turnId)) {
                    affected.add(m);
                }
            }
            if (page.size() < PAGE) {
                break;
            }
        }
        if (affected.isEmpty()) {
            return List.of();
        }
        Set<String> failed = failedTurns(scope, affected, turnId);
        WriteBatch batch = WriteBatch.of(scope);
        List<String> deprecated = new ArrayList<>();
        for (Memory m : affected) {
            Set<String> known = new HashSet<>(failed);
            if (m.provenance().turnId() != null && m.provenance().outcome() == Outcome.FAILED) {
                known.add(m.provenance().turnId());
            }
            if (!known.containsAll(sources(m))) {
                continue; // another source turn did not fail: the memory stands on it
            }
            if (m.permanent()) {
                continue; // a safety or identity fact holds until the user corrects it (DESIGN §4), not a run
            }
            Memory.Builder changed = m.toBuilder().status(MemoryStatus.DEPRECATED).updatedAt(now);
            if (m.provenance().turnId() != null && known.contains(m.provenance().turnId())) {
                changed.provenance(m.provenance().withOutcome(Outcome.FAILED));
            }
            batch.put(changed.build());
            batch.append(new MemoryEvent(ids.next("e"), scope, m.id(), MemoryEventType.DEPRECATED, now,
                    MemoryStatus.ACTIVE.name(), MemoryStatus.DEPRECATED.name(), "failed run " + turnId));
            deprecated.add(m.id());
        }
        store.write(batch);
        return deprecated;
    }

    /** The reported turn plus every other source turn of {@code affected} that an observation records as FAILED. */
    private Set<String> failedTurns(Scope scope, List<Memory> affected, String turnId) {
        Set<String> wanted = new HashSet<>();
        for (Memory m : affected) {
            wanted.addAll(sources(m));
        }
        wanted.remove(turnId);
        Set<String> failed = new HashSet<>();
        failed.add(turnId);
        if (wanted.isEmpty()) {
            return failed;
        }
        for (int offset = 0; ; offset += PAGE) {
            List<Observation> page = store.observations(scope, ObservationFilter.all().page(offset, PAGE));
            for (Observation o : page) {
                String t = o.provenance().turnId();
                if (t != null && wanted.contains(t) && o.provenance().outcome() == Outcome.FAILED) {
                    failed.add(t);
                }
            }
            if (page.size() < PAGE) {
                break;
            }
        }
        return failed;
    }

    private static List<String> sources(Memory m) {
        if (!m.sourceTurnIds().isEmpty()) {
            return m.sourceTurnIds();
        }
        return m.provenance().turnId() == null ? List.of() : List.of(m.provenance().turnId());
    }
}
