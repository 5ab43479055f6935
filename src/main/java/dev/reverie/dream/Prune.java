package dev.reverie.dream;

import dev.reverie.MemoryPolicy;
import dev.reverie.Observation;
import dev.reverie.ObservationStatus;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Prune: deletes one end user's judged (CONSOLIDATED or DISCARDED) observations whose judgement is
 * older than {@link MemoryPolicy#pruneAfter()}; what they said lives on in L4 (with their turn ids)
 * or was not worth keeping. PENDING observations are never pruned. Stateless apart from its
 * configuration; thread-safe.
 */
final class Prune {

    private final MemoryPolicy policy;

    Prune(MemoryPolicy policy) {
        this.policy = policy;
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
        int done = 0;
        for (Observation o : old) {
            changes.deleteObservation(o.id());
            counts.pruned++;
            progress.tick(++done, old.size());
        }
    }
}
