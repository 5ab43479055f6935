package dev.reverie;

/** The lifecycle state of an L3 observation. Thread-safe (an enum). */
public enum ObservationStatus {
    /** Waiting for the dream cycle. */
    PENDING,
    /** Promoted into (or reinforcing) a durable memory. */
    CONSOLIDATED,
    /** Judged not worth keeping (below the importance cutoff, or merged as a duplicate). */
    DISCARDED
}
