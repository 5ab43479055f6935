package dev.reverie;

import dev.reverie.internal.PastedContent;

import java.lang.ref.WeakReference;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Whether a text pastes somebody else's words ({@link PastedContent#pastes}), remembered per text:
 * {@code buildContext} renders the same recalled turns call after call, and reading a turn again
 * cost up to ~10 µs (a LoCoMo turn with a shared photo's caption), ~0.4 ms a call at 4,000 tokens. A
 * fixed table of {@value #SLOTS} entries; each text has two slots, chosen from its {@code hashCode()}
 * (which a string keeps), and a new answer takes an empty one of the two, else one whose text is
 * gone, else the one the hash picks. With one slot per text (before), two turns of one conversation
 * that shared a slot evicted each other on every call: on LoCoMo's 4,000-token hybrid calls 7.7 % of
 * the lookups were readings again (6,800 in 89,000). An entry holds its text weakly, so the table
 * never keeps a text alive, and a lookup compares by identity first (the stores' caches hand out the
 * same strings), then by equality. A collision costs a reading, never a wrong answer. Texts longer
 * than {@value #MAX_CACHED_CHARS} characters are read each time. Thread-safe.
 */
final class PastedTurns {
    static final int SLOTS = 8192;
    static final int MAX_CACHED_CHARS = 4_000;
    private static final int BITS = Integer.numberOfTrailingZeros(SLOTS);

    private record Entry(WeakReference<String> text, boolean pastes) {
    }

    private static final AtomicReferenceArray<Entry> TABLE = new AtomicReferenceArray<>(SLOTS);
    private static final AtomicLong READINGS = new AtomicLong();

    private PastedTurns() {
    }

    static boolean pastes(String text) {
        if (text.length() > MAX_CACHED_CHARS) {
            READINGS.incrementAndGet();
            return PastedContent.pastes(text);
        }
        long mixed = text.hashCode() * 0x9E37_79B9_7F4A_7C15L;
        int first = firstSlot(text);
        int second = (int) (mixed >>> (32 - BITS)) & (SLOTS - 1);
        if (second == first) {
            second ^= 1;
        }
        Entry a = TABLE.getOpaque(first);
        String aText = a == null ? null : a.text().get();
        if (aText != null && (aText == text || text.equals(aText))) {
            return a.pastes();
        }
        Entry b = TABLE.getOpaque(second);
        String bText = b == null ? null : b.text().get();
        if (bText != null && (bText == text || text.equals(bText))) {
            return b.pastes();
        }
        READINGS.incrementAndGet();
        boolean pastes = PastedContent.pastes(text);
        // an empty slot of the two, else one whose text is gone, else the one the hash picks
        int slot = aText == null ? first : bText == null ? second : (mixed & 1) == 0 ? first : second;
        TABLE.setOpaque(slot, new Entry(new WeakReference<>(text), pastes));
        return pastes;
    }

    /** The first of a text's two slots: tests find texts that share it. */
    static int firstSlot(String text) {
        return (int) ((text.hashCode() * 0x9E37_79B9_7F4A_7C15L) >>> (64 - BITS));
    }

    /** How many texts were read rather than found (tests). */
    static long readings() {
        return READINGS.get();
    }
}
