package dev.reverie.spi;

import dev.reverie.internal.Checks;

/**
 * A search candidate and the score the store gave it (BM25 for lexical search, cosine for vector
 * search). Scores are only comparable within one result list; the core fuses lists by rank.
 * Immutable and thread-safe when {@code T} is.
 *
 * @param item  the candidate
 * @param score the store's score, higher is better
 * @param <T>   the candidate type
 */
public record Scored<T>(T item, double score) {
    public Scored {
        Checks.notNull("item", item);
    }
}
