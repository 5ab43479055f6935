package dev.reverie;

/** The lifecycle state of a durable (L4) memory. Thread-safe (an enum). */
public enum MemoryStatus {
    /** Recallable. */
    ACTIVE,
    /** Kept for investigation but not recalled unless asked (stale reference, unused, failed run). */
    DEPRECATED,
    /** Contradicted by a newer memory; kept for audit, never recalled. */
    SUPERSEDED
}
