package dev.reverie.dream;

import dev.reverie.internal.Terms;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Finds the items whose token set has a Jaccard similarity of at least a fixed threshold with a query
 * set, without comparing against every item: each set is indexed under its prefix in a global token
 * order (prefix filtering), and two sets that reach the threshold always share a prefix token.
 * Candidates are then verified exactly. Not thread-safe; one instance lives inside one phase.
 *
 * @param <T> the indexed item
 */
final class SimilarityIndex<T> {

    private final double threshold;
    private final Map<String, List<Entry<T>>> postings = new HashMap<>();

    private record Entry<T>(T item, Set<String> terms, int seq) { }

    private int size;

    SimilarityIndex(double threshold) {
        if (threshold <= 0 || threshold > 1) {
            throw new IllegalArgumentException("threshold must be in (0, 1], was " + threshold);
        }
        this.threshold = threshold;
    }

    /** Indexes an item under its terms; an empty set is never similar to anything and is skipped. */
    void add(T item, Set<String> terms) {
        if (terms.isEmpty()) {
            return;
        }
        Entry<T> e = new Entry<>(item, terms, size++);
        for (String t : prefix(terms)) {
            postings.computeIfAbsent(t, k -> new ArrayList<>()).add(e);
        }
    }

    /** The indexed items with Jaccard at least the threshold, in insertion order, each once. */
    List<T> similar(Set<String> terms) {
        if (terms.isEmpty()) {
            return List.of();
        }
        Map<Entry<T>, Boolean> seen = new IdentityHashMap<>();
        List<Entry<T>> hits = new ArrayList<>();
        for (String t : prefix(terms)) {
            for (Entry<T> e : postings.getOrDefault(t, List.of())) {
                if (seen.put(e, Boolean.TRUE) == null && lengthFits(terms.size(), e.terms.size())
                        && Terms.jaccard(terms, e.terms) >= threshold) {
                    hits.add(e);
                }
            }
        }
        if (hits.isEmpty()) {
            return List.of();
        }
        hits.sort((x, y) -> Integer.compare(x.seq, y.seq));
        List<T> out = new ArrayList<>(hits.size());
        for (Entry<T> e : hits) {
            out.add(e.item);
        }
        return out;
    }

    private boolean lengthFits(int a, int b) {
        // Jaccard can reach t only when the smaller set is at least t times the larger
        return Math.min(a, b) >= threshold * Math.max(a, b) - 1e-9;
    }

    /** The first n - ceil(t n) + 1 terms in the global (lexicographic) order. */
    private List<String> prefix(Set<String> terms) {
        List<String> sorted = new ArrayList<>(terms);
        Collections.sort(sorted);
        int n = sorted.size();
        int overlap = (int) Math.ceil(threshold * n - 1e-9);
        int length = Math.max(1, Math.min(n, n - overlap + 1));
        return sorted.subList(0, length);
    }
}
