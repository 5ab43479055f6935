package dev.reverie.internal;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/** Waiting for work that must finish whatever the caller's interrupt says. Not API. */
public final class Await {

    private Await() {
    }

    /**
     * Waits for {@code future} to complete, ignoring interrupts meanwhile (the work runs on regardless:
     * an fsync, a searcher refresh, a user's dream cycle) and setting the thread's interrupt flag again
     * afterwards when one came.
     *
     * @return {@code null} when the work completed normally, else what it threw
     */
    public static Throwable uninterruptibly(Future<?> future) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    future.get();
                    return null;
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    return e.getCause();
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
