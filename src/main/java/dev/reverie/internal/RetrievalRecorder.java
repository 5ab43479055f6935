package dev.reverie.internal;

import dev.reverie.Memory;
import dev.reverie.Scope;
import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.WriteBatch;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Records that memories were recalled (retrieval count and time) off the hot path: buildContext
 * queues the ids, a background writer applies them in one batch per scope, under the scope's lock so
 * it never overwrites a concurrent dream or admin change. Reading never reinforces importance.
 * Thread-safe. Not API.
 */
public final class RetrievalRecorder implements AutoCloseable {

    /** Memories recalled for one scope at one time. */
    public record Recall(Scope scope, List<String> memoryIds, Instant at) {
    }

    private final MemoryStore store;
    private final ScopeLocks locks;
    private final BackgroundWriter<Recall> writer;

    public RetrievalRecorder(MemoryStore store, ScopeLocks locks) {
        this.store = store;
        this.locks = locks;
        this.writer = new BackgroundWriter<>("retrieval-stats", 10_000, this::apply);
    }

    /** Queues the update; never blocks. */
    public void recalled(Scope scope, List<String> memoryIds, Instant at) {
        if (!memoryIds.isEmpty()) {
            writer.submit(new Recall(scope, List.copyOf(memoryIds), at));
        }
    }

    private void apply(List<Recall> recalls) {
        Map<Scope, Map<String, Instant>> byScope = new LinkedHashMap<>();
        Map<Scope, Map<String, Integer>> counts = new LinkedHashMap<>();
        for (Recall r : recalls) {
            for (String id : r.memoryIds()) {
                byScope.computeIfAbsent(r.scope(), k -> new LinkedHashMap<>()).merge(id, r.at(),
                        (a, b) -> a.isAfter(b) ? a : b);
                counts.computeIfAbsent(r.scope(), k -> new LinkedHashMap<>()).merge(id, 1, Integer::sum);
            }
        }
        for (Map.Entry<Scope, Map<String, Instant>> e : byScope.entrySet()) {
            Scope scope = e.getKey();
            ReentrantLock lock = locks.lockFor(scope);
            lock.lock();
            try {
                WriteBatch batch = WriteBatch.of(scope);
                List<String> ids = new ArrayList<>(e.getValue().keySet());
                for (String id : ids) {
                    Optional<Memory> m = store.memory(scope, id);
                    if (m.isPresent()) {
                        Memory mem = m.get();
                        Instant at = e.getValue().get(id);
                        Instant last = mem.lastRetrievedAt() == null || at.isAfter(mem.lastRetrievedAt())
                                ? at : mem.lastRetrievedAt();
                        batch.put(mem.toBuilder().retrievalCount(mem.retrievalCount() + counts.get(scope).get(id))
                                .lastRetrievedAt(last).build());
                    }
                }
                store.write(batch);
            } finally {
                lock.unlock();
            }
        }
    }

    /** Waits until queued updates are written. */
    public void flush() {
        writer.flush();
    }

    /** Updates dropped because the queue was full. */
    public long dropped() {
        return writer.dropped();
    }

    @Override
    public void close() {
        writer.close();
    }
}
