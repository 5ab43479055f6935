package dev.reverie;

import dev.reverie.internal.PastedContent;

import java.lang.ref.WeakReference;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Whether a text pastes somebody else's words ({@link PastedContent#pastes}), remembered per text:
 * {@code buildContext} renders the same recalled turns call after call, and reading a turn again
 * cost up to ~10 µs (a LoCoMo turn with a shared photo's caption), ~0.4 ms a call at 4,000 tokens. A
 * fixed table of {@value #SLOTS} entries, one per slot chosen by the text's {@code hashCode()} (which
 * a string keeps); an entry holds its text weakly, so the table never keeps a text alive, and a lookup
 * compares by identity first (the stores' caches hand out the same strings), then by equality. A
 * collision costs a reading, never a wrong answer. Texts longer than {@value #MAX_CACHED_CHARS}
 * characters are read each time. Thread-safe.
 */
final class PastedTurns {
    static final int SLOTS = 4096;
    static final int MAX_CACHED_CHARS = 4_000;

    private record Entry(WeakReference<String> text, boolean pastes) {
    }

    private static final AtomicReferenceArray<Entry> TABLE = new AtomicReferenceArray<>(SLOTS);

    private PastedTurns() {
    }

    static boolean pastes(String text) {
        if (text.length() > MAX_CACHED_CHARS) {
            return PastedContent.pastes(text);
        }
        int slot = (text.hashCode() * 0x9E3779B9) >>> (32 - Integer.numberOfTrailingZeros(SLOTS));
        Entry e = TABLE.get(slot);
        if (e != null) {
            String seen = e.text().get();
            if (seen == text || text.equals(seen)) {
                return e.pastes();
            }
        }
        boolean pastes = PastedContent.pastes(text);
        TABLE.set(slot, new Entry(new WeakReference<>(text), pastes));
        return pastes;
    }
}
