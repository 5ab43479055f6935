package dev.reverie.internal;

import java.lang.reflect.RecordComponent;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Records decoded from their stored JSON, remembered by that JSON: a user's questions bring the same
 * memories, observations and archived turns back as search hits call after call, and decoding each
 * hit's JSON was the largest single cost of {@code buildContext} on LoCoMo (40 % of its Java time;
 * every search decodes up to {@code candidateLimit} hits, of which MMR keeps a few dozen).
 *
 * <p>A direct-mapped table of {@value #SLOTS} slots indexed by a 64-bit hash of the JSON; a hit
 * compares the JSON itself, so it is exact, and a slot is overwritten by the next JSON that maps to
 * it. It holds at most {@value #SLOTS} records with their JSON (about 10 MiB with 1 KiB records),
 * whatever the number of end users served. Only for immutable types ({@code Memory},
 * {@code Observation}, {@code spi.SessionTurn}: records with copied lists). The built-in stores call
 * {@link #forget} when they erase a scope, so an erased user's text does not linger in the table:
 * nor does a record a search read just before the erasure and decodes just after it, since for
 * {@value #ERASED_FOR_SECONDS} s after an erasure the scope's records are decoded but not kept.
 * Thread-safe; a read takes no lock (an erasure takes one to note its scope).
 */
public final class DecodedRecords {
    static final int SLOTS = 1 << 12;

    private static final AtomicReferenceArray<Entry> TABLE = new AtomicReferenceArray<>(SLOTS);
    /** How long after its erasure a scope's records are not kept (a read in flight is over by then). */
    static final long ERASED_FOR_SECONDS = 60;
    private static final long ERASED_FOR_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(ERASED_FOR_SECONDS);
    /** Scopes erased lately, with {@code System.nanoTime()} at their erasure (written under its own lock). */
    private static final java.util.concurrent.ConcurrentHashMap<dev.reverie.Scope, Long> ERASED =
            new java.util.concurrent.ConcurrentHashMap<>();
    /** {@link #ERASED}'s scopes in the order they were erased, to drop the old ones first. */
    private static final java.util.ArrayDeque<dev.reverie.Scope> ERASED_ORDER = new java.util.ArrayDeque<>();
    /**
     * {@code System.nanoTime()} at the last erasure, written after its scope is in {@link #ERASED}; 0
     * before any. Volatile: a reader writes its slot, then reads this, while {@link #forget} writes
     * this, then reads the slots, so one of the two sees the other.
     */
    private static volatile long lastErasure;

    private record Entry(String json, Object record) {
    }

    private DecodedRecords() {
    }

    /** {@code json} decoded as {@code type}, as {@link Json#read} does, from the table when it was decoded lately. */
    public static <T> T read(String json, Class<T> type) {
        int slot = slot(json);
        Entry e = TABLE.getOpaque(slot);
        if (e != null && type.isInstance(e.record()) && e.json().equals(json)) {
            return type.cast(e.record());
        }
        T record = Json.read(json, type);
        Entry entry = new Entry(json, record);
        TABLE.set(slot, entry);
        // written, then checked (forget marks, then scans): a record of a scope erased meanwhile is
        // either seen here and dropped, or in its slot when the erasure's scan passes
        long last = lastErasure;
        if (last != 0) {
            long now = System.nanoTime();
            if (now - last < ERASED_FOR_NANOS) {
                if (erasedLately(scopeOf(record), now)) {
                    TABLE.compareAndSet(slot, entry, null);
                }
            } else if (!ERASED.isEmpty()) {
                dropErasedBefore(now); // every mark is stale: the erased users' names leave the heap too
            }
        }
        return record;
    }

    private static boolean erasedLately(dev.reverie.Scope scope, long now) {
        Long at = scope == null ? null : ERASED.get(scope);
        return at != null && now - at < ERASED_FOR_NANOS;
    }

    /** Drops the marks older than the window, oldest first. */
    private static void dropErasedBefore(long now) {
        synchronized (ERASED) {
            while (!ERASED_ORDER.isEmpty()) {
                dev.reverie.Scope oldest = ERASED_ORDER.peekFirst();
                Long at = ERASED.get(oldest);
                if (at != null && now - at < ERASED_FOR_NANOS) {
                    break;
                }
                ERASED_ORDER.pollFirst();
                if (at != null) {
                    ERASED.remove(oldest, at);
                }
            }
        }
    }

    /** Whether the table holds a record of {@code scope} (tests). */
    static boolean holds(dev.reverie.Scope scope) {
        for (int i = 0; i < SLOTS; i++) {
            Entry e = TABLE.get(i);
            if (e != null && scope.equals(scopeOf(e.record()))) {
                return true;
            }
        }
        return false;
    }

    /**
     * The slot of a JSON text, from a sample of it: its length, its first {@value #EDGE} and last
     * {@value #EDGE} characters (a memory's or observation's id, a turn's scope, session and time)
     * and {@value #SAMPLES} characters spread over the rest (the text). Hashing every character of
     * each ~1 KiB hit was most of {@link #read}'s time when the record was found; only the slot
     * depends on the sample, since a hit is still confirmed by comparing the whole JSON. Two versions
     * of one record that differ only between sampled characters share a slot, so the newer replaces
     * the older.
     */
    static int slot(String json) {
        int n = json.length();
        long h = 0xCBF2_9CE4_8422_2325L ^ n;
        int head = Math.min(n, EDGE);
        for (int i = 0; i < head; i++) {
            h = (h ^ json.charAt(i)) * 0x1000_0000_01B3L;
        }
        int tail = Math.max(head, n - EDGE);
        int step = Math.max(1, (tail - head) / SAMPLES);
        for (int i = head; i < tail; i += step) {
            h = (h ^ json.charAt(i)) * 0x1000_0000_01B3L;
        }
        for (int i = tail; i < n; i++) {
            h = (h ^ json.charAt(i)) * 0x1000_0000_01B3L;
        }
        return (int) (Terms.mix64(h) & (SLOTS - 1));
    }

    private static final int EDGE = 48;
    private static final int SAMPLES = 64;

    /**
     * Drops every remembered record of {@code scope} (its erasure), and keeps none of it for
     * {@value #ERASED_FOR_SECONDS} s: a search that read the scope's rows before the erasure decodes
     * them after it.
     */
    public static void forget(dev.reverie.Scope scope) {
        long now = System.nanoTime();
        dropErasedBefore(now);
        synchronized (ERASED) {
            if (ERASED.put(scope, now) != null) {
                ERASED_ORDER.remove(scope); // erased again: it moves to the end
            }
            ERASED_ORDER.addLast(scope);
        }
        lastErasure = now == 0 ? 1 : now;
        for (int i = 0; i < SLOTS; i++) {
            Entry e = TABLE.get(i);
            if (e != null && scope.equals(scopeOf(e.record()))) {
                TABLE.compareAndSet(i, e, null);
            }
        }
    }

    private static dev.reverie.Scope scopeOf(Object record) {
        if (record instanceof dev.reverie.Memory m) {
            return m.scope();
        }
        if (record instanceof dev.reverie.Observation o) {
            return o.scope();
        }
        return record instanceof Record r ? scopeComponent(r) : null;
    }

    /**
     * The {@code Scope} component of a record ({@code spi.SessionTurn}'s), read through its accessor:
     * {@code internal} may not name an SPI type, since the SPI uses {@code internal.Checks}.
     */
    private static dev.reverie.Scope scopeComponent(Record r) {
        java.lang.reflect.Method accessor = SCOPE_ACCESSOR.get(r.getClass());
        if (accessor == null) {
            return null;
        }
        try {
            return (dev.reverie.Scope) accessor.invoke(r);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read the scope of a " + r.getClass().getSimpleName(), e);
        }
    }

    /** Per record class, the accessor of its {@code Scope} component, or null (looked up once per class). */
    private static final ClassValue<java.lang.reflect.Method> SCOPE_ACCESSOR = new ClassValue<>() {
        @Override
        protected java.lang.reflect.Method computeValue(Class<?> type) {
            for (RecordComponent c : type.getRecordComponents()) {
                if (c.getType() == dev.reverie.Scope.class) {
                    return c.getAccessor();
                }
            }
            return null;
        }
    };
}
