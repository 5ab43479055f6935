package dev.reverie.internal;

import java.util.concurrent.locks.ReentrantLock;

/**
 * A fixed set of striped locks keyed by any object (a scope, a scope and session): bounded memory
 * whatever the number of end users. Two keys may share a stripe; that only costs waiting, never
 * correctness. Thread-safe. Not API.
 */
public final class ScopeLocks {
    private final ReentrantLock[] stripes;

    public ScopeLocks(int count) {
        stripes = new ReentrantLock[count];
        for (int i = 0; i < count; i++) {
            stripes[i] = new ReentrantLock();
        }
    }

    /** The lock for {@code key}. */
    public ReentrantLock lockFor(Object key) {
        int h = key.hashCode();
        h ^= (h >>> 16);
        return stripes[Math.floorMod(h, stripes.length)];
    }
}
