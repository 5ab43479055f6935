package dev.reverie;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * A fire-and-forget writer on one daemon thread with a bounded queue: {@link #submit} never blocks
 * and never throws; when the queue is full the item is dropped and counted; a failing sink is
 * logged and counted. The worker drains items in groups so the sink can write them in one batch.
 * {@link #close()} drains what is queued. Thread-safe. Not API.
 *
 * @param <T> the queued item
 */
final class BackgroundWriter<T> implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BackgroundWriter.class);
    private static final int GROUP = 512;

    private final String name;
    private final BlockingQueue<T> queue;
    private final Consumer<List<T>> sink;
    private final Thread worker;
    private final AtomicBoolean closing = new AtomicBoolean();
    private final AtomicLong written = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong accepted = new AtomicLong();
    /** Monitor {@link #flush()} waits on; the worker signals it after every group it finishes. */
    private final Object progress = new Object();

    BackgroundWriter(String name, int capacity, Consumer<List<T>> sink) {
        this.name = name;
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.sink = sink;
        this.worker = new Thread(this::run, "reverie-" + name);
        this.worker.setDaemon(true);
        this.worker.start();
    }

    /** Queues an item; drops and counts it when the queue is full or the writer is closing. */
    void submit(T item) {
        if (closing.get() || !queue.offer(item)) {
            dropped.incrementAndGet();
            LOG.warn("{}: queue full or closing, an item was dropped", name);
        } else {
            accepted.incrementAndGet();
        }
    }

    private void run() {
        List<T> group = new ArrayList<>(GROUP);
        while (true) {
            try {
                T first = queue.poll(100, TimeUnit.MILLISECONDS);
                if (first == null) {
                    if (closing.get() && queue.isEmpty()) {
                        return;
                    }
                    continue;
                }
                group.add(first);
                queue.drainTo(group, GROUP - 1);
                try {
                    sink.accept(group);
                    written.addAndGet(group.size());
                } catch (RuntimeException e) {
                    failed.addAndGet(group.size());
                    LOG.warn("{}: write of {} items failed: {}", name, group.size(), e.toString());
                }
                group.clear();
                synchronized (progress) {
                    progress.notifyAll();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Items written by the sink. */
    long written() {
        return written.get();
    }

    /** Items whose write failed. */
    long failed() {
        return failed.get();
    }

    /** Items dropped because the queue was full or the writer closing. */
    long dropped() {
        return dropped.get();
    }

    /** Waits until everything accepted so far has been written or has failed. */
    void flush() {
        long target = accepted.get();
        synchronized (progress) {
            // woken by the worker after each group; the timed wait only guards against a worker that died
            while (written.get() + failed.get() < target && worker.isAlive()) {
                try {
                    progress.wait(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /** Stops accepting items and waits for the queued ones to be written. */
    @Override
    public void close() {
        if (closing.compareAndSet(false, true)) {
            try {
                worker.join(TimeUnit.SECONDS.toMillis(30));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
