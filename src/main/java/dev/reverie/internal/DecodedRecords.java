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
     * The slot of a JSON text: FNV-1a in four interleaved lanes (chars i, i+1, i+2, i+3), so the CPU
     * runs four multiply chains side by side instead of one per char ({@link Terms#hash64}'s single
     * chain over each ~1 KiB hit was 40 % of {@link #read}'s time on LoCoMo; this is ~2.7 times as
     * fast on an 830-char record), then a murmur finalizer.
     * Only the slot depends on it: a hit is still confirmed by comparing the JSON.
     */
    static int slot(String json) {
        final long prime = 0x1000_0000_01B3L;
        long a = 0xCBF2_9CE4_8422_2325L;
        long b = a ^ 0x9E37_79B9_7F4A_7C15L;
        long c = a ^ 0xC2B2_AE3D_27D4_EB4FL;
        long d = a ^ 0x1656_67B1_9E37_79F9L;
        int n = json.length();
        int i = 0;
        for (; i + 3 < n; i += 4) {
            a = (a ^ json.charAt(i)) * prime;
            b = (b ^ json.charAt(i + 1)) * prime;
            c = (c ^ json.charAt(i + 2)) * prime;
            d = (d ^ json.charAt(i + 3)) * prime;
        }
        for (; i < n; i++) {
            a = (a ^ json.charAt(i)) * prime;
        }
        long h = a ^ Long.rotateLeft(b, 16) ^ Long.rotateLeft(c, 32) ^ Long.rotateLeft(d, 48) ^ n;
        h ^= h >>> 33;
        h *= 0xFF51_AFD7_ED55_8CCDL;
        h ^= h >>> 33;
        return (int) h & (SLOTS - 1);
    }

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
