package dev.reverie;

import java.util.List;

/**
 * What {@code ContextManager.recordTurn} did: the ids of the stored turns (the caller's ids when
 * given), how many L3 observations were extracted, and how many secrets were redacted before
 * anything was written. Immutable and thread-safe.
 *
 * @param turnIds      the stored turns' ids, in order
 * @param observations observations written to L3
 * @param redactions   secrets replaced by {@code [REDACTED:<type>]}
 */
public record TurnReceipt(List<String> turnIds, int observations, int redactions) {
    public TurnReceipt {
        turnIds = List.copyOf(turnIds);
    }
}
