package dev.reverie.dream;

import dev.reverie.Scope;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reports a phase's progress to a {@link DreamListener} a bounded number of times (about every 5 %
 * and at the end), and shields the cycle from a listener that throws. Not thread-safe: one per
 * phase of one user.
 */
final class Progress {

    private static final Logger LOG = LoggerFactory.getLogger(Progress.class);
    private static final int STEPS = 20;

    private final DreamListener listener;
    private final Scope scope;
    private final DreamPhase phase;
    private long lastReported = -1;

    Progress(DreamListener listener, Scope scope, DreamPhase phase) {
        this.listener = listener;
        this.scope = scope;
        this.phase = phase;
    }

    /** {@code done} of {@code total} items are processed. */
    void tick(long done, long total) {
        long step = Math.max(1, total / STEPS);
        if (done == lastReported || (done < total && done % step != 0)) {
            return;
        }
        lastReported = done;
        guard(() -> listener.progress(scope, phase, done, total));
    }

    /** Calls the listener, logging and swallowing whatever it throws. */
    static void guard(Runnable call) {
        try {
            call.run();
        } catch (RuntimeException e) {
            LOG.warn("dream listener threw; ignoring it: {}", e.toString());
        }
    }
}
