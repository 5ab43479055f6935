package dev.reverie;

import dev.reverie.internal.PastedContent;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Whether a text pastes somebody else's words ({@link PastedContent#pastes}), remembered per text
 * ({@link TextMemo}, {@value #SLOTS} entries): {@code buildContext} renders the same recalled turns
 * call after call, and reading a turn again cost up to ~10 µs (a LoCoMo turn with a shared photo's
 * caption), ~0.4 ms a call at 4,000 tokens. Texts longer than {@value #MAX_CACHED_CHARS} characters
 * are read each time. Thread-safe.
 */
final class PastedTurns {
    static final int SLOTS = 8192;
    static final int MAX_CACHED_CHARS = 4_000;

    private static final TextMemo<Boolean> TABLE = new TextMemo<>(SLOTS, PastedContent::pastes);
    private static final AtomicLong LONG_READINGS = new AtomicLong();

    private PastedTurns() {
    }

    static boolean pastes(String text) {
        if (text.length() > MAX_CACHED_CHARS) {
            LONG_READINGS.incrementAndGet();
            return PastedContent.pastes(text);
        }
        return TABLE.of(text);
    }

    /** The first of a text's two slots: tests find texts that share it. */
    static int firstSlot(String text) {
        return TABLE.firstSlot(text);
    }

    /** How many texts were read rather than found (tests). */
    static long readings() {
        return TABLE.computed() + LONG_READINGS.get();
    }
}
