package dev.reverie.dream;

import dev.reverie.Scope;

/**
 * Receives the progress of a dream cycle so a host can stream it (for example as server-sent events)
 * instead of showing a blind spinner. Every method has a no-op default; implement only what you
 * need. Calls come from the thread running the cycle, in order for one end user; a listener shared
 * by cycles running concurrently for different end users must be thread-safe. An exception thrown
 * by a listener is logged and ignored: it never stops the cycle.
 */
public interface DreamListener {

    /** A listener that ignores everything. */
    DreamListener NONE = new DreamListener() { };

    /** A phase begins for an end user. */
    default void phaseStarted(Scope scope, DreamPhase phase) {
    }

    /** {@code done} of {@code total} items of the phase are processed (called a bounded number of times). */
    default void progress(Scope scope, DreamPhase phase, long done, long total) {
    }

    /** A phase was committed for an end user; {@code counters} holds what this phase alone did. */
    default void phaseFinished(Scope scope, DreamPhase phase, DreamReport counters) {
    }

    /**
     * The whole cycle of one end user ended ({@code report} is null when it failed); {@code done} of
     * {@code total} end users are finished in a {@code runAll}.
     */
    default void endUserFinished(Scope scope, long done, long total, DreamReport report) {
    }

    /** The cycle of one end user failed; the store holds every phase committed before the failure. */
    default void endUserFailed(Scope scope, DreamPhase phase, RuntimeException error) {
    }
}
