package dev.reverie.dream;

import dev.reverie.Scope;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * One lock per end user, held while that user's cycle runs, so two cycles of the same user never
 * interleave (each reads the user's state once and writes from it) while cycles of different users
 * run in parallel. A lock exists only while someone holds or waits for it, so the map does not grow
 * with the number of users. Thread-safe.
 */
final class ScopeLocks {

    private static final class Entry {
        final ReentrantLock lock = new ReentrantLock();
        int users;
    }

    private final ConcurrentMap<Scope, Entry> locks = new ConcurrentHashMap<>();

    <T> T with(Scope scope, Supplier<T> work) {
        Entry entry = locks.compute(scope, (k, e) -> {
            Entry held = e == null ? new Entry() : e;
            held.users++;
            return held;
        });
        entry.lock.lock();
        try {
            return work.get();
        } finally {
            entry.lock.unlock();
            locks.compute(scope, (k, e) -> --e.users == 0 ? null : e);
        }
    }

    /** How many users' locks exist right now (for tests: zero when no cycle runs). */
    int size() {
        return locks.size();
    }
}
