package dev.reverie.store.postgres;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class Bm25Test {

    @Test
    void reads_position_counts_and_lengths_from_a_vector_as_postgresql_prints_it() {
        int[] tf = new int[4];
        int length = Bm25.scan("'a b':3 'it''s':1,4B 'paint':2,5,9 'x\\\\y':7 'stripped'",
                Map.of("paint", 0, "it's", 1, "stripped", 2, "x\\y", 3), tf);
        assertThat(length).isEqualTo(5);
        assertThat(tf).containsExactly(3, 2, 1, 1);
        assertThat(Bm25.scan("", Map.of("a", 0), new int[1])).isZero();
    }

    @Test
    void a_rare_term_outweighs_a_common_one_and_ties_keep_the_key_order() {
        Bm25 bm25 = new Bm25(new String[] {"melani", "melanie", "potteri", "melani"});
        for (int i = 1; i <= 10; i++) {
            bm25.add(i, null, 0, "'melani':1,4,8 'melanie':1,4,8 'walk':2");
        }
        bm25.add(11, null, 0, "'class':4 'potteri':3 'sign':1");
        bm25.add(12, null, 0, "'class':4 'potteri':3 'sign':1");
        List<Bm25.Ranked> ranked = bm25.rank(12, 3, 5);
        assertThat(ranked).extracting(r -> r.row().rid()).containsExactly(11L, 12L, 1L, 2L, 3L);
        assertThat(ranked.get(0).score()).isGreaterThan(ranked.get(2).score());
        // a scope count below a document frequency (figures read before a write) never makes an IDF negative
        assertThat(new Bm25(new String[] {"walk"}).rank(0, 0, 1)).isEmpty();
        Bm25 stale = new Bm25(new String[] {"walk"});
        stale.add(0, "s1", 2, "'walk':1");
        stale.add(0, "s1", 1, "'walk':1");
        assertThat(stale.rank(0, 0, 5)).allSatisfy(r -> assertThat(r.score()).isPositive())
                .extracting(r -> r.row().seq()).containsExactly(1L, 2L);
    }
}
