package dev.reverie.internal;

import dev.reverie.MemoryStoreException;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Leader/follower group commit: concurrent callers of {@link #submit} queue their item; the first
 * one to take the leader lock commits every item queued so far in one durable step (one transaction,
 * one fsync), the others find their item done when they get the lock and return at once. Each caller
 * returns only after its own item was committed, and sees only its own item's failure: the committer
 * marks a failed item with {@link Entry#fail}, and only when it throws does every item of the group
 * fail (nothing of the group was made durable then).
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
        private RuntimeException failure;
        private boolean done;

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

    private final int maxGroup;
    private final Committer<T> committer;
    private final ConcurrentLinkedQueue<Entry<T>> queue = new ConcurrentLinkedQueue<>();
    private final ReentrantLock leader = new ReentrantLock();

    /** @param maxGroup the most items committed in one step (a longer queue is committed in several) */
    public GroupCommit(int maxGroup, Committer<T> committer) {
        if (maxGroup < 1) {
            throw new IllegalArgumentException("maxGroup must be at least 1, was " + maxGroup);
        }
        this.maxGroup = maxGroup;
        this.committer = Objects.requireNonNull(committer, "committer");
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
        List<Entry<T>> mine = new ArrayList<>(items.size());
        for (T item : items) {
            Entry<T> e = new Entry<>(item);
            mine.add(e);
            queue.add(e);
        }
        leader.lock();
        try {
            // the outcome is written under the leader lock, so holding it makes it visible here
            for (Entry<T> e : mine) {
                while (!e.done) {
                    commitQueued();
                }
            }
        } finally {
            leader.unlock();
        }
        List<RuntimeException> failures = new ArrayList<>(mine.size());
        for (Entry<T> e : mine) {
            failures.add(e.failure);
        }
        return failures;
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

    /** Commits up to {@code maxGroup} queued items; called with the leader lock held. */
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
