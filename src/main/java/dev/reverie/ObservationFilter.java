package dev.reverie;

import dev.reverie.internal.Checks;

import java.util.EnumSet;
import java.util.Set;

/**
 * Which L3 observations to list: by status and kind, optionally one session, with paging. Results
 * are ordered by observation time, then id. Immutable and thread-safe.
 *
 * @param statuses  statuses to include (never empty)
 * @param kinds     kinds to include (never empty)
 * @param sessionId only this session, or {@code null} for all
 * @param offset    rows to skip
 * @param limit     most rows to return
 */
public record ObservationFilter(Set<ObservationStatus> statuses, Set<MemoryKind> kinds, String sessionId,
                                int offset, int limit) {

    public ObservationFilter {
        statuses = Set.copyOf(Checks.notNull("statuses", statuses));
        kinds = Set.copyOf(Checks.notNull("kinds", kinds));
        if (statuses.isEmpty()) {
            throw new IllegalArgumentException("statuses must not be empty");
        }
        if (kinds.isEmpty()) {
            throw new IllegalArgumentException("kinds must not be empty");
        }
        Checks.nonNegative("offset", offset);
        Checks.positive("limit", limit);
        if (limit > MemoryFilter.MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be at most " + MemoryFilter.MAX_LIMIT + ", was " + limit);
        }
    }

    /** Every observation. */
    public static ObservationFilter all() {
        return new ObservationFilter(EnumSet.allOf(ObservationStatus.class), kindsOfObservations(), null, 0,
                MemoryFilter.MAX_LIMIT);
    }

    /** PENDING observations only. */
    public static ObservationFilter pending() {
        return all().withStatuses(ObservationStatus.PENDING);
    }

    public ObservationFilter withStatuses(ObservationStatus first, ObservationStatus... rest) {
        return new ObservationFilter(EnumSet.of(first, rest), kinds, sessionId, offset, limit);
    }

    public ObservationFilter withSession(String session) {
        return new ObservationFilter(statuses, kinds, session, offset, limit);
    }

    public ObservationFilter page(int newOffset, int newLimit) {
        return new ObservationFilter(statuses, kinds, sessionId, newOffset, newLimit);
    }

    private static Set<MemoryKind> kindsOfObservations() {
        EnumSet<MemoryKind> kinds = EnumSet.allOf(MemoryKind.class);
        kinds.remove(MemoryKind.SYNTHESIS);
        return kinds;
    }
}
