package dev.reverie.store.sqlite;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/**
 * What the SQLite store's per-scope caches ({@link VectorCache}, {@link LexicalCache}) share: entries
 * by key, least recently used first, bounded by an estimate of the bytes they hold (the eldest
 * dropped past {@code maxBytes}), and bounded maps of recently seen keys. Not thread-safe: the
 * owning cache's lock guards it. Not API.
 */
final class BoundedEntries<K, V> {

    private final LinkedHashMap<K, V> byKey = new LinkedHashMap<>(64, 0.75f, true);
    private final ToLongFunction<V> sizeOf;
    private final long maxBytes;
    private long bytes;

    BoundedEntries(long maxBytes, ToLongFunction<V> sizeOf) {
        this.maxBytes = maxBytes;
        this.sizeOf = sizeOf;
    }

    /** A map of at most {@code max} keys, the least recently used dropped first. */
    static <K, T> LinkedHashMap<K, T> recent(int max) {
        return new LinkedHashMap<>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<K, T> eldest) {
                return size() > max;
            }
        };
    }

    V get(K key) {
        return byKey.get(key);
    }

    /** Removes the entry of {@code key}; returns it, or {@code null}. */
    V remove(K key) {
        V old = byKey.remove(key);
        if (old != null) {
            bytes -= sizeOf.applyAsLong(old);
        }
        return old;
    }

    /** Keeps {@code value} for {@code key} (replacing any), then drops the eldest entries past the bound. */
    void put(K key, V value) {
        remove(key);
        byKey.put(key, value);
        bytes += sizeOf.applyAsLong(value);
        Iterator<V> eldest = byKey.values().iterator();
        while (bytes > maxBytes && eldest.hasNext()) {
            bytes -= sizeOf.applyAsLong(eldest.next());
            eldest.remove();
        }
    }

    /** Removes the entries whose key {@code which} accepts. */
    void removeIf(Predicate<K> which) {
        Iterator<Map.Entry<K, V>> it = byKey.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<K, V> e = it.next();
            if (which.test(e.getKey())) {
                bytes -= sizeOf.applyAsLong(e.getValue());
                it.remove();
            }
        }
    }

    void clear() {
        byKey.clear();
        bytes = 0;
    }

    long bytes() {
        return bytes;
    }

    int size() {
        return byKey.size();
    }
}
