package dev.reverie.dream;

import dev.reverie.internal.Terms;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The prefix-filtered index finds exactly the pairs a brute-force Jaccard comparison finds. */
class DreamSimilarityIndexTest {

    @ParameterizedTest
    @ValueSource(doubles = {0.3, 0.5, 0.8, 0.92, 1.0})
    void finds_exactly_the_sets_at_or_above_the_threshold(double threshold) {
        Random random = new Random(17);
        List<Set<String>> sets = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            Set<String> s = new HashSet<>();
            for (int n = 1 + random.nextInt(8), k = 0; k < n; k++) {
                s.add("w" + random.nextInt(15));
            }
            sets.add(s);
        }
        SimilarityIndex<Integer> index = new SimilarityIndex<>(threshold);
        for (int i = 0; i < sets.size(); i++) {
            List<Integer> expected = new ArrayList<>();
            for (int j = 0; j < i; j++) {
                if (Terms.jaccard(sets.get(i), sets.get(j)) >= threshold) {
                    expected.add(j);
                }
            }
            assertThat(index.similar(sets.get(i))).as("set %d %s", i, sets.get(i)).containsExactlyElementsOf(expected);
            index.add(i, sets.get(i));
        }
    }
}
