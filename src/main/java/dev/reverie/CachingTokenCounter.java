package dev.reverie;

import dev.reverie.internal.Checks;
import dev.reverie.internal.Terms;
import dev.reverie.spi.TokenCounter;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A {@link TokenCounter} that remembers the counts of texts it has seen, so the same session turn,
 * memory line or summary is tokenized once, not on every {@code buildContext}. The cache is a
 * fixed, direct-mapped table of 64-bit slots, each holding 40 bits of a text's 64-bit hash and its
 * count: no locks, no allocation, bounded memory ({@value #SLOTS} slots, 1 MiB), and no text is
 * kept. A slot is overwritten by the next text that maps to it. Two texts are taken for one only
 * when their hashes agree on 56 bits (17 of index, 39 of tag); then a count may be off for one line, which
 * the assembler's exact count of the whole rendering still catches (the budget invariant holds).
 * Counts of 2^24 tokens or more are not cached. Thread-safe.
 */
final class CachingTokenCounter implements TokenCounter {
    private static final int BITS = 17;
    static final int SLOTS = 1 << BITS;
    private static final int COUNT_BITS = 24;
    private static final long COUNT_MASK = (1L << COUNT_BITS) - 1;
    /** Salts a message's key, so a text's count and its message count live in different slots. */
    private static final long MESSAGE_SALT = 0x9E37_79B9_7F4A_7C15L;

    private final TokenCounter counter;
    private final AtomicLongArray slots = new AtomicLongArray(SLOTS);

    private CachingTokenCounter(TokenCounter counter) {
        this.counter = counter;
    }

    /** {@code counter} with a cache in front (itself when it already has one). */
    static TokenCounter of(TokenCounter counter) {
        Checks.notNull("counter", counter);
        return counter instanceof CachingTokenCounter ? counter : new CachingTokenCounter(counter);
    }

    @Override
    public int count(String text) {
        long h = Terms.hash64(text);
        int cached = lookup(h);
        if (cached >= 0) {
            return cached;
        }
        int n = counter.count(text);
        remember(h, n);
        return n;
    }

    @Override
    public boolean additiveAfterNewline() {
        return counter.additiveAfterNewline();
    }

    @Override
    public int messageOverhead() {
        return counter.messageOverhead();
    }

    @Override
    public int countMessage(String content) {
        long h = Terms.hash64(content) ^ MESSAGE_SALT;
        int cached = lookup(h);
        if (cached >= 0) {
            return cached;
        }
        int n = counter.countMessage(content);
        remember(h, n);
        return n;
    }

    private int lookup(long h) {
        long slot = slots.getOpaque(index(h));
        // an empty slot is 0, whose tag never matches: tags are stored with the low bit set
        return slot != 0 && (slot >>> COUNT_BITS) == tag(h) ? (int) (slot & COUNT_MASK) : -1;
    }

    private void remember(long h, int n) {
        if (n >= 0 && n <= COUNT_MASK) {
            slots.setOpaque(index(h), (tag(h) << COUNT_BITS) | n);
        }
    }

    private static int index(long h) {
        return (int) (h & (SLOTS - 1));
    }

    /** The hash's top 40 bits, with the lowest one set so that no tag is 0. */
    private static long tag(long h) {
        return (h >>> (64 - 40)) | 1L;
    }
}
