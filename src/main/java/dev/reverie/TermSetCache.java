package dev.reverie;

import dev.reverie.internal.Terms;

import java.util.List;

/**
 * The term sets of texts ({@link Terms#comparisonTerms} with at most {@value #MAX_TERMS} terms), as sorted arrays
 * of 64-bit term hashes, remembered per text ({@link TextMemo}): diversification compares the same
 * memories and turns call after call, and tokenizing them again (3–10 µs a text) cost more than
 * comparing them. Thread-safe.
 */
final class TermSetCache {
    /** The term limit of a set, as diversification has always used. */
    static final int MAX_TERMS = 256;

    private final TextMemo<long[]> table;

    /** A cache of {@code slots} entries (a power of two, at least 2). */
    TermSetCache(int slots) {
        this.table = new TextMemo<>(slots, TermSetCache::termsOf);
    }

    /** The first slot of {@code text}: tests find texts that share it. */
    int firstSlot(String text) {
        return table.firstSlot(text);
    }

    /** The sorted, distinct term hashes of {@code text}; callers must not modify the array. */
    long[] of(String text) {
        return table.of(text);
    }

    /** How many texts were tokenized (misses), for tests. */
    long computed() {
        return table.computed();
    }

    /** Clears every entry's reference to its text, as the collector does when no one else holds it (tests). */
    void dropTexts() {
        table.dropTexts();
    }

    private static long[] termsOf(String text) {
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
