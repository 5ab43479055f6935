package dev.reverie.internal;

import dev.reverie.MemoryStoreException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Leader/follower group commit: concurrent callers of {@link #submit} queue their item; the first
 * one to take the leader lock commits every item queued so far in one durable step (one transaction,
 * one fsync). The others park and are woken when their item is done: a follower never takes the
 * leader lock to learn that (it did until wave 2, session 16, and then waited behind the next
 * group's whole commit, so four writers shared a commit two by two). Each caller returns only after
 * its own item was committed, and sees only its own item's failure: the committer marks a failed item
 * with {@link Entry#fail}, and only when it throws does every item of the group fail (nothing of the
 * group was made durable then).
 *
 * <p>A leader gathers briefly before it commits: while fewer items are queued than the most callers
 * that were inside {@link #submitAll} at once within the last {@code activeWindow} (the concurrent
 * writers, some of them about to come back), it waits up to {@code gather} for them. Concurrency is
 * counted in calls, not threads: one writer whose calls run on many threads (a request pool) never
 * waits, and four writers of one tenant share a commit about four by four instead of two by two.
 *
 * <p>Under no contention a caller is its own leader and pays what a plain write costs; under
 * contention the cost of the durable step is shared by the whole group, so throughput grows with the
 * number of writers instead of being bounded by one fsync per write.
 *
 * <p>Thread-safe. Not API.
 *
 * @param <T> the item a caller commits
 */
public final class GroupCommit<T> {

    /** Commits a group in one durable step. */
    public interface Committer<T> {
        /**
         * Makes every item of {@code group} durable, except the ones it marks with {@link Entry#fail};
         * throwing fails every item that was not already marked.
         */
        void commit(List<Entry<T>> group);
    }

    /** One queued item and its outcome; read the outcome only after the group was committed. */
    public static final class Entry<T> {
        private final T item;
        /** The caller, woken when the item is done or when it may lead. */
        private final Thread waiter = Thread.currentThread();
        /** Written before {@link #done}, read after it. */
        private RuntimeException failure;
        private volatile boolean done;

        private Entry(T item) {
            this.item = item;
        }

        public T item() {
            return item;
        }

        /** Marks this item failed: its caller gets {@code e}, the other items of the group are unaffected. */
        public void fail(RuntimeException e) {
            this.failure = Objects.requireNonNull(e, "e");
        }

        public boolean failed() {
            return failure != null;
        }
    }

    /** How long a leader waits at most for concurrent writers to queue (the durable stores' default). */
    public static final Duration GATHER = Duration.ofMillis(1);
    /** How long a peak of concurrent callers counts (the durable stores' default). */
    public static final Duration ACTIVE_WINDOW = Duration.ofMillis(20);
    private static final long GATHER_STEP_NANOS = TimeUnit.MICROSECONDS.toNanos(50);

    private final int maxGroup;
    private final Committer<T> committer;
    private final long gatherNanos;
    private final long activeWindowNanos;
    private final ConcurrentLinkedQueue<Entry<T>> queue = new ConcurrentLinkedQueue<>();
    private final ReentrantLock leader = new ReentrantLock();
    /** Callers inside {@link #submitAll} now. */
    private final AtomicInteger inFlight = new AtomicInteger();
    /**
     * The most callers inside {@link #submitAll} at once lately, and when that was last seen
     * ({@link System#nanoTime}); read and written without a lock (a lost update only makes one gather
     * wait for one writer more or less).
     */
    private volatile int peak = 1;
    private volatile long peakAt = System.nanoTime();
    /** How long a parked caller sleeps before it looks again (a safety net: it is woken when needed). */
    private volatile long parkNanos = TimeUnit.MILLISECONDS.toNanos(5);
    /** Times a leader waited for writers (tests and diagnostics). */
    private final AtomicLong gathers = new AtomicLong();

    /**
     * Without gathering: a leader commits what is queued at once.
     *
     * @param maxGroup the most items committed in one step (a longer queue is committed in several)
     */
    public GroupCommit(int maxGroup, Committer<T> committer) {
        this(maxGroup, committer, Duration.ZERO, ACTIVE_WINDOW);
    }

    /**
     * @param maxGroup     the most items committed in one step (a longer queue is committed in several)
     * @param gather       how long a leader waits at most for concurrent writers to queue ({@code ZERO}:
     *                     never; for a committer whose step is cheap, as a write without fsync)
     * @param activeWindow how long a peak of concurrent callers counts
     */
    public GroupCommit(int maxGroup, Committer<T> committer, Duration gather, Duration activeWindow) {
        if (maxGroup < 1) {
            throw new IllegalArgumentException("maxGroup must be at least 1, was " + maxGroup);
        }
        this.maxGroup = maxGroup;
        this.committer = Objects.requireNonNull(committer, "committer");
        if (gather.isNegative() || activeWindow.isNegative()) {
            throw new IllegalArgumentException("gather and activeWindow must not be negative, were " + gather
                    + " and " + activeWindow);
        }
        this.gatherNanos = gather.toNanos();
        this.activeWindowNanos = activeWindow.toNanos();
    }

    /**
     * Commits {@code item}, alone or in a group with concurrent callers' items; returns once it is
     * durable, or throws its failure.
     */
    public void submit(T item) {
        RuntimeException failure = submitAll(List.of(item)).get(0);
        if (failure != null) {
            throw failure;
        }
    }

    /**
     * Commits every item, in groups shared with concurrent callers, and returns once all are done:
     * the failure of each item in order ({@code null} for the ones committed).
     */
    public List<RuntimeException> submitAll(List<T> items) {
        noteConcurrency(inFlight.incrementAndGet());
        try {
            return await(enqueue(items));
        } finally {
            inFlight.decrementAndGet();
        }
    }

    private List<Entry<T>> enqueue(List<T> items) {
        List<Entry<T>> mine = new ArrayList<>(items.size());
        for (T item : items) {
            Entry<T> e = new Entry<>(item);
            mine.add(e);
            queue.add(e);
        }
        return mine;
    }

    /** Waits until every one of {@code mine} is committed, leading when the lead is free; their failures. */
    private List<RuntimeException> await(List<Entry<T>> mine) {
        // an item cannot be taken back once queued, so an interrupt does not end the wait: it is kept
        // for the caller (parking returns at once while the flag is set, which would spin)
        boolean interrupted = false;
        for (Entry<T> e : mine) {
            while (!e.done) {
                if (leader.tryLock()) {
                    try {
                        if (!e.done) {
                            interrupted |= gather();
                            commitQueued();
                        }
                    } finally {
                        leader.unlock();
                        wakeNextLeader();
                    }
                } else {
                    // woken when a leader marks the item done, or when the leader lets go while it is
                    // still queued; the timeout only guards against a wake-up this protocol would miss
                    LockSupport.parkNanos(this, parkNanos);
                    interrupted |= Thread.interrupted();
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        List<RuntimeException> failures = new ArrayList<>(mine.size());
        for (Entry<T> e : mine) {
            failures.add(e.failure);
        }
        return failures;
    }

    /**
     * After a leader let go: a caller that queued while it led found the lock taken and parked, so the
     * first queued item of another caller gets its caller woken to lead next (this caller's own
     * items, if any are left, it leads itself).
     */
    private void wakeNextLeader() {
        Thread self = Thread.currentThread();
        for (Entry<T> e : queue) {
            if (e.waiter != self) {
                LockSupport.unpark(e.waiter);
                return;
            }
        }
    }

    /** Records that {@code n} callers are inside {@link #submitAll} at once now. */
    private void noteConcurrency(int n) {
        long now = System.nanoTime();
        if (n >= peak || now - peakAt > activeWindowNanos) {
            peak = n;
            peakAt = now;
        }
    }

    /** The most callers that were inside {@link #submitAll} at once within the active window (at least 1). */
    int recentConcurrency() {
        return System.nanoTime() - peakAt > activeWindowNanos ? 1 : Math.max(1, peak);
    }

    /** Takes {@code writers} as the recent concurrency (tests). */
    void assumeConcurrency(int writers) {
        peak = writers;
        peakAt = System.nanoTime();
    }

    /** Sets how long a parked caller sleeps before it looks again without being woken (tests). */
    void safetyPark(Duration d) {
        parkNanos = d.toNanos();
    }

    /**
     * Waits, up to the gather time, while fewer items are queued than the recent concurrency (and no
     * more than a group holds); called with the leader lock held. Returns whether it consumed an
     * interrupt.
     */
    private boolean gather() {
        if (gatherNanos == 0) {
            return false;
        }
        int want = Math.min(maxGroup, recentConcurrency());
        if (queue.size() >= want) {
            return false;
        }
        gathers.incrementAndGet();
        boolean interrupted = false;
        long deadline = System.nanoTime() + gatherNanos;
        while (queue.size() < want && System.nanoTime() - deadline < 0) {
            LockSupport.parkNanos(this, Math.min(GATHER_STEP_NANOS, gatherNanos));
            interrupted |= Thread.interrupted();
        }
        return interrupted;
    }

    /** How many times a leader waited for active writers (tests and diagnostics). */
    long gathers() {
        return gathers.get();
    }

    /** Items waiting for a leader (tests and diagnostics). */
    int queued() {
        return queue.size();
    }

    /** Throws the first of {@code failures} that is not {@code null}, the later ones suppressed in it. */
    public static void throwFirst(List<RuntimeException> failures) {
        RuntimeException first = null;
        java.util.Set<RuntimeException> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (RuntimeException f : failures) {
            if (f == null || !seen.add(f)) {
                continue;
            }
            if (first == null) {
                first = f;
            } else {
                first.addSuppressed(f);
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /**
     * Commits up to {@code maxGroup} queued items and wakes their callers; called with the leader lock
     * held.
     */
    private void commitQueued() {
        List<Entry<T>> group = new ArrayList<>(Math.min(maxGroup, 16));
        Entry<T> e;
        while (group.size() < maxGroup && (e = queue.poll()) != null) {
            group.add(e);
        }
        try {
            committer.commit(group);
        } catch (RuntimeException failure) {
            failAll(group, failure);
        } catch (Error error) {
            failAll(group, new MemoryStoreException("the group write this item was part of failed: " + error, error));
            throw error;
        } finally {
            for (Entry<T> g : group) {
                g.done = true;
                if (g.waiter != Thread.currentThread()) {
                    LockSupport.unpark(g.waiter);
                }
            }
        }
    }

    private static <T> void failAll(List<Entry<T>> group, RuntimeException failure) {
        for (Entry<T> g : group) {
            if (g.failure == null) {
                g.failure = failure;
            }
        }
    }
}
