package dev.reverie;

import dev.reverie.internal.ScopeLocks;
import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.WriteBatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Records that memories were recalled (retrieval count and time) off the hot path: buildContext adds
 * the ids to per-scope counters in memory (no I/O, no lock but the map's own bin), and a flush turns
 * everything pending into one batch per scope, written together with {@link MemoryStore#writeEach}
 * (one durable step per tenant). A flush runs when {@value #FLUSH_AT} recalls are pending, every
 * {@value #FLUSH_EVERY_MS} ms on a daemon thread, on {@link #flush()} (the manager calls it before a
 * dream reads the statistics) and on {@link #close()}. Under each scope's lock, the recalls are
 * added to the stored memories ({@link WriteBatch#addRecalls}, for stores that take it) or each
 * memory is re-read and put with its new counts, so a flush never overwrites a concurrent dream or
 * admin change; reading never
 * reinforces importance. A crash loses the statistics of the last interval at most (they are
 * counters for forgetting "not recalled in N sessions", not user data). Thread-safe. Not API.
 */
final class RetrievalRecorder implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RetrievalRecorder.class);
    /** Pending recalls (memory ids, counted with repetition) that wake the flusher. */
    static final int FLUSH_AT = 2_048;
    /** The longest time a recall stays in memory only. */
    static final long FLUSH_EVERY_MS = 2_000;
    /** Pending recalls beyond which new ones are dropped (and counted) until a flush catches up. */
    static final int MAX_PENDING = 200_000;

    /** How often one memory was recalled since the last flush, and when last. */
    private record Tally(int count, Instant last) {
        Tally plus(Tally other) {
            return new Tally(count + other.count, last.isAfter(other.last) ? last : other.last);
        }
    }

    private final MemoryStore store;
    private final ScopeLocks locks;
    private final ConcurrentHashMap<Scope, Map<String, Tally>> pending = new ConcurrentHashMap<>();
    private final AtomicInteger pendingRecalls = new AtomicInteger();
    /** Serializes flushes: the flusher thread's and the callers' of {@link #flush()}. */
    private final ReentrantLock flushing = new ReentrantLock();
    private final AtomicBoolean closing = new AtomicBoolean();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong writes = new AtomicLong();
    private final long flushEveryNanos;
    private final Thread flusher;

    RetrievalRecorder(MemoryStore store, ScopeLocks locks) {
        this(store, locks, FLUSH_EVERY_MS);
    }

    /** With another flush interval (tests use a long one to decide when flushes happen). */
    RetrievalRecorder(MemoryStore store, ScopeLocks locks, long flushEveryMs) {
        this.store = store;
        this.locks = locks;
        this.flushEveryNanos = TimeUnit.MILLISECONDS.toNanos(flushEveryMs);
        this.flusher = new Thread(this::run, "reverie-retrieval-stats");
        flusher.setDaemon(true);
        flusher.start();
    }

    /** Counts the recall in memory; never blocks on I/O. */
    void recalled(Scope scope, List<String> memoryIds, Instant at) {
        if (memoryIds.isEmpty()) {
            return;
        }
        if (pendingRecalls.get() >= MAX_PENDING) {
            dropped.addAndGet(memoryIds.size());
            return;
        }
        Tally one = new Tally(1, at);
        pending.compute(scope, (k, tallies) -> {
            Map<String, Tally> m = tallies == null ? new HashMap<>() : tallies;
            for (String id : memoryIds) {
                m.merge(id, one, Tally::plus);
            }
            return m;
        });
        if (pendingRecalls.addAndGet(memoryIds.size()) >= FLUSH_AT) {
            LockSupport.unpark(flusher);
        }
    }

    private void run() {
        while (!closing.get()) {
            LockSupport.parkNanos(this, flushEveryNanos);
            flush();
        }
    }

    /** Writes every pending recall now; returns when they are durable (or their write failed). */
    void flush() {
        flushing.lock();
        try {
            List<Scope> scopes = new ArrayList<>(pending.keySet());
            Map<Scope, Map<String, Tally>> drained = new HashMap<>();
            for (Scope s : scopes) {
                Map<String, Tally> m = pending.remove(s);
                if (m != null) {
                    int n = 0;
                    for (Tally t : m.values()) {
                        n += t.count();
                    }
                    pendingRecalls.addAndGet(-n);
                    drained.put(s, m);
                }
            }
            if (!drained.isEmpty()) {
                try {
                    write(drained);
                } catch (RuntimeException e) {
                    // reading the memories failed (a closed or failed store): these statistics are lost
                    failed.incrementAndGet();
                    LOG.warn("retrieval statistics: flush of {} scopes failed: {}", drained.size(), e.toString());
                }
            }
        } finally {
            flushing.unlock();
        }
    }

    /**
     * Writes the scopes whose lock is free in one {@link MemoryStore#writeEach} (holding those locks,
     * taken with tryLock so that striped locks never deadlock), then the others one at a time.
     */
    private void write(Map<Scope, Map<String, Tally>> drained) {
        List<ReentrantLock> held = new ArrayList<>();
        List<Scope> busy = new ArrayList<>();
        List<WriteBatch> batches = new ArrayList<>();
        try {
            for (Map.Entry<Scope, Map<String, Tally>> e : drained.entrySet()) {
                ReentrantLock lock = locks.lockFor(e.getKey());
                if (!lock.tryLock()) {
                    busy.add(e.getKey());
                    continue;
                }
                held.add(lock);
                WriteBatch b = batch(e.getKey(), e.getValue());
                if (!b.isEmpty()) {
                    batches.add(b);
                }
            }
            store(batches);
        } finally {
            for (ReentrantLock lock : held) {
                lock.unlock();
            }
        }
        for (Scope scope : busy) {
            ReentrantLock lock = locks.lockFor(scope);
            lock.lock();
            try {
                WriteBatch b = batch(scope, drained.get(scope));
                if (!b.isEmpty()) {
                    store(List.of(b));
                }
            } finally {
                lock.unlock();
            }
        }
    }

    private void store(List<WriteBatch> batches) {
        if (batches.isEmpty()) {
            return;
        }
        try {
            store.writeEach(batches);
            writes.incrementAndGet();
        } catch (RuntimeException e) {
            failed.incrementAndGet();
            LOG.warn("retrieval statistics: write of {} scopes failed: {}", batches.size(), e.toString());
        }
    }

    /**
     * The scope's memories with their counts and times updated, as they are in the store now; for a
     * store that understands {@link WriteBatch#addRecalls}, just the recalls to add (no reads).
     */
    private WriteBatch batch(Scope scope, Map<String, Tally> tallies) {
        WriteBatch batch = WriteBatch.of(scope);
        if (store.supportsRecallWrites()) {
            tallies.forEach((id, t) -> batch.addRecalls(id, t.count(), t.last()));
            return batch;
        }
        for (Map.Entry<String, Tally> t : tallies.entrySet()) {
            Optional<Memory> m = store.memory(scope, t.getKey());
            if (m.isPresent()) {
                Memory mem = m.get();
                Instant at = t.getValue().last();
                Instant last = mem.lastRetrievedAt() == null || at.isAfter(mem.lastRetrievedAt())
                        ? at : mem.lastRetrievedAt();
                batch.put(mem.toBuilder().retrievalCount(mem.retrievalCount() + t.getValue().count())
                        .lastRetrievedAt(last).build());
            }
        }
        return batch;
    }

    /** Recalls dropped because too many were pending. */
    long dropped() {
        return dropped.get();
    }

    /** Flushes whose store write failed (their statistics are lost). */
    long failed() {
        return failed.get();
    }

    /** Store writes done so far (each one {@link MemoryStore#writeEach} of one or more scopes). */
    long writes() {
        return writes.get();
    }

    /** Stops the flusher and writes what is pending. Safe to call twice. */
    @Override
    public void close() {
        if (closing.compareAndSet(false, true)) {
            LockSupport.unpark(flusher);
            try {
                flusher.join(TimeUnit.SECONDS.toMillis(30));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            flush();
        }
    }
}
