package dev.reverie.internal;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The exact top-k of a vector search that scans stored vectors: each stored row is offered with its
 * key, its dimension and its little-endian float BLOB; the rows under the similarity floor are never
 * kept, and at most {@code limit} are. The order is total: higher cosine first, then the lower key,
 * so which rows are kept and their order do not depend on the scan's order or on the rows the floor
 * skipped (a floored search returns exactly the unfloored one's hits at or above the floor, ties
 * included). Shared by the SQL stores' scans. Not thread-safe: one per search. Not API.
 *
 * @param <K> the key the store reads the kept rows back by (a rowid, a ctid)
 */
public final class NearestVectors<K> {

    /** A kept row: its key and its cosine to the query. */
    public record Hit<K>(K key, double score) {
    }

    private final float[] query;
    private final double norm;
    private final int limit;
    private final double floor;
    private final String where;
    /** Best first: higher score, then lower key. */
    private final Comparator<Hit<K>> order;
    /** The kept rows, worst at the head. */
    private final PriorityQueue<Hit<K>> top;

    /**
     * @param query the query vector
     * @param limit most rows kept
     * @param floor the least cosine a kept row has ({@code Double.NEGATIVE_INFINITY}: none)
     * @param where what is searched, for the dimension-mismatch message (e.g. "memories of scope ...")
     * @param keys  the order of keys that breaks ties of equal cosines (the lower key ranks first)
     */
    public NearestVectors(float[] query, int limit, double floor, String where, Comparator<? super K> keys) {
        Checks.positive("limit", limit);
        this.query = query;
        this.norm = Vectors.norm(query);
        this.limit = limit;
        this.floor = floor;
        this.where = where;
        Comparator<Hit<K>> byScore = Comparator.comparingDouble(Hit::score);
        this.order = byScore.reversed().thenComparing(Hit::key, keys);
        this.top = new PriorityQueue<>(this.order.reversed());
    }

    /**
     * Scores one stored row and keeps it if it is among the best so far.
     *
     * @throws IllegalArgumentException when the stored dimension is not the query's
     */
    public void offer(K key, int dimension, byte[] vector) {
        if (dimension != query.length) {
            throw new IllegalArgumentException("vector dimension " + query.length
                    + " does not match the stored embeddings' dimension " + dimension + " in " + where);
        }
        keep(key, Vectors.cosine(query, Vectors.fromBytes(vector), norm));
    }

    /**
     * As {@link #offer(Object, int, byte[])} for a stored vector already decoded, with its
     * {@link Vectors#norm}: the same score.
     */
    public void offer(K key, float[] vector, double vectorNorm) {
        if (vector.length != query.length) {
            throw new IllegalArgumentException("vector dimension " + query.length
                    + " does not match the stored embeddings' dimension " + vector.length + " in " + where);
        }
        keep(key, Vectors.cosine(query, vector, norm, vectorNorm));
    }

    private void keep(K key, double score) {
        if (score < floor) {
            return; // under the floor: never read back
        }
        if (top.size() >= limit && score < top.peek().score()) {
            return; // it would be the worst kept and dropped at once (an equal score goes by key below)
        }
        top.add(new Hit<>(key, score));
        if (top.size() > limit) {
            top.poll();
        }
    }

    /** The kept rows, best first. */
    public List<Hit<K>> best() {
        List<Hit<K>> best = new ArrayList<>(top);
        best.sort(order);
        return best;
    }
}
