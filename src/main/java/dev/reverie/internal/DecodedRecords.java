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
 * {@link #forget} when they erase a scope, so an erased user's text does not linger in the table.
 * Thread-safe, lock-free.
 */
public final class DecodedRecords {
    static final int SLOTS = 1 << 12;

    private static final AtomicReferenceArray<Entry> TABLE = new AtomicReferenceArray<>(SLOTS);

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
        TABLE.setOpaque(slot, new Entry(json, record));
        return record;
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

    /** Drops every remembered record of {@code scope} (its erasure). */
    public static void forget(dev.reverie.Scope scope) {
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
        for (RecordComponent c : r.getClass().getRecordComponents()) {
            if (c.getType() == dev.reverie.Scope.class) {
                try {
                    return (dev.reverie.Scope) c.getAccessor().invoke(r);
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException("cannot read the scope of a " + r.getClass().getSimpleName(), e);
                }
            }
        }
        return null;
    }
}
