package dev.reverie;

import dev.reverie.internal.Terms;

import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The term sets of texts ({@link Terms#comparisonTerms} with at most {@value #MAX_TERMS} terms), as sorted arrays
 * of 64-bit term hashes, cached by the text's 64-bit hash: diversification compares the same
 * memories and turns call after call, and tokenizing them again cost more than comparing them. A
 * fixed, direct-mapped table: bounded memory, no locks, an entry replaced by the next text that
 * maps to its slot; no text is kept. Two texts (or two terms) are taken for one only when their
 * 64-bit hashes collide. Thread-safe.
 */
final class TermSetCache {
    /** The term limit of a set, as diversification has always used. */
    static final int MAX_TERMS = 256;

    private record Entry(long textHash, long[] terms) {
    }

    private final AtomicReferenceArray<Entry> slots;
    private final int mask;

    /** A cache of {@code slots} entries (a power of two). */
    TermSetCache(int slots) {
        if (slots <= 0 || Integer.bitCount(slots) != 1) {
            throw new IllegalArgumentException("slots must be a positive power of two, was " + slots);
        }
        this.slots = new AtomicReferenceArray<>(slots);
        this.mask = slots - 1;
    }

    /** The sorted, distinct term hashes of {@code text}; callers must not modify the array. */
    long[] of(String text) {
        long h = Terms.hash64(text);
        int i = (int) (h & mask);
        Entry e = slots.getOpaque(i);
        if (e != null && e.textHash() == h) {
            return e.terms();
        }
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
        slots.setOpaque(i, new Entry(h, terms));
        return terms;
    }

    /** Jaccard similarity of two sorted, distinct term-hash sets; 1 when both are empty. */
    static double jaccard(long[] a, long[] b) {
        return Terms.jaccardOfSortedHashes(a, b);
    }
}
