package dev.reverie.store.postgres;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class Bm25Test {

    private static String[] of(String... lexemes) {
        return lexemes;
    }

    @Test
    void reads_position_counts_and_lengths_from_a_vector_as_postgresql_prints_it() {
        double[] tf = new double[4];
        int length = Bm25.scan("'a b':3 'it''s':1,4B 'paint':2,5,9 'point':6 'x\\\\y':7 'stripped' 'it''x':8 'strippedness':9",
                new Bm25.QueryLexemes(Map.of("paint", new int[] {0}, "it's", new int[] {1}, "stripped", new int[] {2},
                        "x\\y", new int[] {3})), tf);
        // 'point' and 'it''x' have the length of a query lexeme, not its letters; 'strippedness' is longer than any
        assertThat(length).isEqualTo(8);
        assertThat(tf).containsExactly(3, 2, 1, 1);
        assertThat(Bm25.scan("", new Bm25.QueryLexemes(Map.of("a", new int[] {0})), new double[1])).isZero();
    }

    @Test
    void a_rare_word_outweighs_a_common_one_and_ties_keep_the_order_rows_came_in() {
        Bm25 bm25 = new Bm25(List.of(of("melani"), of("potteri")), List.of(of("melanie"), of("pottery")));
        for (int i = 1; i <= 10; i++) {
            bm25.add(i, null, 0, "'melani':1,4,8 'melanie':2,5,9 'walk':3");
        }
        bm25.add(12, null, 0, "'class':4 'potteri':3 'pottery':5 'sign':1");
        bm25.add(11, null, 0, "'class':4 'potteri':3 'pottery':5 'sign':1");
        List<Bm25.Ranked> ranked = bm25.rank(12, 3, 5);
        assertThat(ranked).extracting(r -> r.row().rid()).containsExactly(12L, 11L, 1L, 2L, 3L);
        assertThat(ranked.get(0).score()).isGreaterThan(ranked.get(2).score());
    }

    @Test
    void a_word_weighs_the_same_whether_or_not_its_stem_differs_from_it() {
        // "dog" is one lexeme holding both positions; "caroline" two lexemes of one position each
        Bm25 bm25 = new Bm25(List.of(of("carolin"), of("dog")), List.of(of("caroline"), of("dog")));
        bm25.add(1, null, 0, "'carolin':1 'caroline':3 'walk':2 'went':4");
        bm25.add(2, null, 0, "'dog':1,3 'park':5 'walk':2 'went':4"); // as long as row 1
        bm25.add(3, null, 0, "'dog':1 'dogs':3 'walk':2 'went':4"); // "dogs": the stem only, half a match
        bm25.add(4, null, 0, "'carolin':1 'carolines':3 'walk':2 'went':4");
        List<Bm25.Ranked> ranked = bm25.rank(10, 3, 4);
        assertThat(ranked.get(0).score()).isCloseTo(ranked.get(1).score(), within(1e-12));
        assertThat(ranked.get(2).score()).isCloseTo(ranked.get(3).score(), within(1e-12));
        assertThat(ranked.get(0).score()).isGreaterThan(ranked.get(2).score());
        assertThat(ranked).extracting(r -> r.row().rid()).containsExactly(1L, 2L, 3L, 4L);
    }

    @Test
    void a_stop_word_counts_whole_and_a_scope_count_below_a_document_frequency_never_turns_an_idf_negative() {
        Bm25 stop = new Bm25(List.<String[]>of(of()), List.<String[]>of(of("the")));
        stop.add(0, "s1", 2, "'the':1");
        stop.add(0, "s1", 1, "'the':1,2 'end':3");
        List<Bm25.Ranked> ranked = stop.rank(0, 0, 5);
        assertThat(ranked).allSatisfy(r -> assertThat(r.score()).isPositive());
        assertThat(ranked).extracting(r -> r.row().seq()).containsExactly(1L, 2L);
        assertThat(new Bm25(List.<String[]>of(of("walk")), List.<String[]>of(of("walk"))).rank(0, 0, 1)).isEmpty();
    }
}
