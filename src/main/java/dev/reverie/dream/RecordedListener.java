package dev.reverie.dream;

import dev.reverie.Scope;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * What one end user's cycle told its listener while a worker of a nightly run computed it, kept to be
 * told to the run's own listener later, on the run's thread and in the users' order. Written by one
 * worker, then read by the run's thread once the worker is done (the wait orders the two).
 */
final class RecordedListener implements DreamListener {

    private final List<Consumer<DreamListener>> calls = new ArrayList<>();

    @Override
    public void phaseStarted(Scope scope, DreamPhase phase) {
        calls.add(l -> l.phaseStarted(scope, phase));
    }

    @Override
    public void progress(Scope scope, DreamPhase phase, long done, long total) {
        calls.add(l -> l.progress(scope, phase, done, total));
    }

    @Override
    public void phaseFinished(Scope scope, DreamPhase phase, DreamReport counters) {
        calls.add(l -> l.phaseFinished(scope, phase, counters));
    }

    @Override
    public void endUserFinished(Scope scope, long done, long total, DreamReport report) {
        calls.add(l -> l.endUserFinished(scope, done, total, report));
    }

    @Override
    public void endUserFailed(Scope scope, DreamPhase phase, RuntimeException error) {
        calls.add(l -> l.endUserFailed(scope, phase, error));
    }

    /** Tells {@code listener} everything recorded, in order; what it throws is logged and ignored. */
    void replay(DreamListener listener) {
        for (Consumer<DreamListener> call : calls) {
            Progress.guard(() -> call.accept(listener));
        }
        calls.clear();
    }
}
