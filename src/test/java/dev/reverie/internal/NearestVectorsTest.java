package dev.reverie.internal;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class NearestVectorsTest {

    /** Rows of a few distinct vectors, so many cosines tie exactly and the key decides. */
    @Test
    void the_kept_rows_are_the_best_of_a_full_sort_ties_by_key_whatever_the_order_offered() {
        Random random = new Random(11);
        for (int round = 0; round < 300; round++) {
            int dim = 1 + random.nextInt(8);
            float[][] distinct = new float[1 + random.nextInt(6)][];
            for (int d = 0; d < distinct.length; d++) {
                distinct[d] = vector(random, dim);
            }
            int rows = random.nextInt(60);
            List<float[]> vectors = new ArrayList<>();
            List<Long> keys = new ArrayList<>();
            for (int r = 0; r < rows; r++) {
                vectors.add(random.nextInt(4) == 0 ? vector(random, dim) : distinct[random.nextInt(distinct.length)]);
                keys.add((long) random.nextInt(1_000)); // repeated keys too
            }
            float[] query = vector(random, dim);
            int limit = 1 + random.nextInt(20);
            double floor = random.nextBoolean() ? Double.NEGATIVE_INFINITY : random.nextDouble() * 2 - 1;
            double queryNorm = Vectors.norm(query);
            NearestVectors<Long> decoded = new NearestVectors<>(query, limit, floor, "test", Comparator.naturalOrder());
            NearestVectors<Long> blobs = new NearestVectors<>(query, limit, floor, "test", Comparator.naturalOrder());
            List<NearestVectors.Hit<Long>> allDecoded = new ArrayList<>();
            List<NearestVectors.Hit<Long>> allBlobs = new ArrayList<>();
            for (int r = 0; r < rows; r++) {
                float[] v = vectors.get(r);
                allDecoded.add(new NearestVectors.Hit<>(keys.get(r), Vectors.cosine(query, v, queryNorm, Vectors.norm(v))));
                allBlobs.add(new NearestVectors.Hit<>(keys.get(r), Vectors.cosine(query, v, queryNorm)));
                decoded.offer(keys.get(r), v, Vectors.norm(v));
            }
            for (int r = rows - 1; r >= 0; r--) { // the other order, as BLOBs
                blobs.offer(keys.get(r), dim, Vectors.toBytes(vectors.get(r)));
            }
            assertThat(decoded.best()).as("round %d", round).isEqualTo(best(allDecoded, limit, floor));
            assertThat(blobs.best()).as("round %d", round).isEqualTo(best(allBlobs, limit, floor));
        }
    }

    @Test
    void a_stored_vector_of_another_dimension_is_refused_with_where_it_was() {
        NearestVectors<Long> nearest = new NearestVectors<>(new float[] {1, 0}, 5, 0, "memories of scope x",
                Comparator.naturalOrder());
        assertThatThrownBy(() -> nearest.offer(1L, new float[] {1, 0, 0}, 1.0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("dimension 2").hasMessageContaining("memories of scope x");
        assertThatThrownBy(() -> new NearestVectors<Long>(new float[] {1, 0}, 0, 0, "x", Comparator.naturalOrder()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("limit");
    }

    private static float[] vector(Random random, int dim) {
        float[] v = new float[dim];
        for (int i = 0; i < dim; i++) {
            v[i] = random.nextInt(5) - 2; // small integers: equal cosines are common
        }
        return v;
    }

    /** The textbook answer: every row at or above the floor, sorted by cosine then key, the first {@code limit}. */
    private static List<NearestVectors.Hit<Long>> best(List<NearestVectors.Hit<Long>> all, int limit, double floor) {
        List<NearestVectors.Hit<Long>> kept = new ArrayList<>();
        for (NearestVectors.Hit<Long> h : all) {
            if (h.score() >= floor) {
                kept.add(h);
            }
        }
        kept.sort(Comparator.comparingDouble((NearestVectors.Hit<Long> h) -> h.score()).reversed()
                .thenComparing(NearestVectors.Hit::key));
        return kept.subList(0, Math.min(limit, kept.size()));
    }
}
