package dev.reverie.dream;

import dev.reverie.MemoryPolicy;
import dev.reverie.Observation;
import dev.reverie.ObservationStatus;
import dev.reverie.spi.MemoryStore;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Prune: deletes one end user's judged (CONSOLIDATED or DISCARDED) observations whose judgement is
 * older than {@link MemoryPolicy#pruneAfter()}; what they said lives on in L4 (with their turn ids),
 * and verbatim in the archive until the turn's retention ({@link MemoryPolicy#turnRetention()})
 * ends, when the archived turns are purged too. PENDING observations are never pruned. Stateless apart from its
 * configuration; thread-safe.
 */
final class Prune {

    private final MemoryPolicy policy;
    private final MemoryStore store;

    Prune(MemoryPolicy policy, MemoryStore store) {
        this.policy = policy;
        this.store = store;
    }

    void run(UserState state, UserState.Changes changes, Counts counts, Progress progress) {
        Instant cutoff = state.now.minus(policy.pruneAfter());
        List<Observation> old = new ArrayList<>();
        for (Observation o : state.observations()) {
            if (o.status() != ObservationStatus.PENDING && o.consolidatedAt() != null
                    && o.consolidatedAt().isBefore(cutoff)) {
                old.add(o);
            }
        }
        Instant retainedFrom = state.now.minus(policy.turnRetention());
        if (store.hasArchivedTurnsBefore(state.scope, retainedFrom)) {
            changes.purgeArchiveBefore(retainedFrom);
        }
        int done = 0;
        for (Observation o : old) {
            changes.deleteObservation(o.id());
            counts.pruned++;
            progress.tick(++done, old.size());
        }
    }
}
