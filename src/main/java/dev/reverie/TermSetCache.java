package dev.reverie;

import dev.reverie.internal.Terms;

import java.lang.ref.WeakReference;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The term sets of texts ({@link Terms#comparisonTerms} with at most {@value #MAX_TERMS} terms), as sorted arrays
 * of 64-bit term hashes: diversification compares the same memories and turns call after call, and
 * tokenizing them again cost more than comparing them. A fixed table: bounded memory, no locks.
 *
 * <p>Each text has two slots, chosen from its {@code String.hashCode()} (which a string computes
 * once and keeps); a new entry takes an empty slot of the two, else one whose text is gone, else
 * one of them. With one slot per text (before), two texts of one conversation that shared a slot
 * evicted each other on every call: on LoCoMo ~12 of the ~400 texts a call looks up (MMR at 2,000
 * tokens) were tokenized again, 3–10 µs each. A lookup first compares the slots' texts by identity
 * (the stores' caches hand out the same string call after call), and only then hashes the text (64
 * bits) and compares the hashes: an equal text of another instance is found too. Two texts are
 * taken for one only when they are the same instance or their 64-bit hashes collide. Texts whose
 * {@code hashCode()} collide share both slots and may evict each other: that costs time, never a
 * wrong set. The entries hold their texts weakly: the cache never keeps a text alive (an erased
 * memory's text goes when its last user drops it). Thread-safe.
 */
final class TermSetCache {
    /** The term limit of a set, as diversification has always used. */
    static final int MAX_TERMS = 256;

    /** An entry: the text it was made from (weakly), that text's 64-bit hash, its sorted term hashes. */
    private static final class Entry {
        final WeakReference<String> text;
        final long textHash;
        final long[] terms;

        Entry(String text, long textHash, long[] terms) {
            this.text = new WeakReference<>(text);
            this.textHash = textHash;
            this.terms = terms;
        }
    }

    private final AtomicReferenceArray<Entry> slots;
    private final int bits;
    private final AtomicLong computed = new AtomicLong();

    /** A cache of {@code slots} entries (a power of two, at least 2). */
    TermSetCache(int slots) {
        if (slots <= 1 || Integer.bitCount(slots) != 1) {
            throw new IllegalArgumentException("slots must be a positive power of two (at least 2), was " + slots);
        }
        this.slots = new AtomicReferenceArray<>(slots);
        this.bits = Integer.numberOfTrailingZeros(slots);
    }

    /** The text's hash code spread over 64 bits: its first slot is the top bits, its second lower ones. */
    private static long mix(String text) {
        return text.hashCode() * 0x9E37_79B9_7F4A_7C15L;
    }

    /** The first slot of {@code text}: tests find texts that share it. */
    int firstSlot(String text) {
        return (int) (mix(text) >>> (64 - bits));
    }

    /** The sorted, distinct term hashes of {@code text}; callers must not modify the array. */
    long[] of(String text) {
        long mixed = mix(text);
        int first = (int) (mixed >>> (64 - bits));
        int second = (int) (mixed >>> (32 - bits)) & ((1 << bits) - 1);
        if (second == first) {
            second ^= 1;
        }
        Entry a = slots.getOpaque(first);
        if (a != null && a.text.get() == text) {
            return a.terms;
        }
        Entry b = slots.getOpaque(second);
        if (b != null && b.text.get() == text) {
            return b.terms;
        }
        long h = Terms.hash64(text);
        if (a != null && a.textHash == h) {
            return again(first, a, text);
        }
        if (b != null && b.textHash == h) {
            return again(second, b, text);
        }
        long[] terms = termsOf(text);
        // an empty slot, else one whose text is gone, else the one the hash picks
        int slot = a == null ? first : b == null ? second : a.text.get() == null ? first
                : b.text.get() == null ? second : (h & 1) == 0 ? first : second;
        slots.setOpaque(slot, new Entry(text, h, terms));
        return terms;
    }

    /** How many texts were tokenized (misses), for tests. */
    long computed() {
        return computed.get();
    }

    /** Clears every entry's reference to its text, as the collector does when no one else holds it (tests). */
    void dropTexts() {
        for (int i = 0; i < slots.length(); i++) {
            Entry e = slots.get(i);
            if (e != null) {
                e.text.clear();
            }
        }
    }

    /**
     * The terms of an entry found by hash for another instance of its text: when the entry's own
     * instance is gone, it now points at this one, so the next lookup is by identity again.
     */
    private long[] again(int slot, Entry found, String text) {
        if (found.text.get() == null) {
            slots.compareAndSet(slot, found, new Entry(text, found.textHash, found.terms));
        }
        return found.terms;
    }

    private long[] termsOf(String text) {
        computed.incrementAndGet();
        List<String> words = Terms.comparisonTerms(text, MAX_TERMS);
        long[] terms = new long[words.size()];
        for (int k = 0; k < terms.length; k++) {
            terms[k] = Terms.hash64(words.get(k));
        }
        java.util.Arrays.sort(terms);
        // two words with one 64-bit hash would count twice in a Jaccard: distinct, as documented
        int distinct = 0;
        for (int k = 0; k < terms.length; k++) {
            if (k == 0 || terms[k] != terms[k - 1]) {
                terms[distinct++] = terms[k];
            }
        }
        if (distinct < terms.length) {
            terms = java.util.Arrays.copyOf(terms, distinct);
        }
        return terms;
    }

    /** Jaccard similarity of two sorted, distinct term-hash sets; 1 when both are empty. */
    static double jaccard(long[] a, long[] b) {
        return Terms.jaccardOfSortedHashes(a, b);
    }
}
