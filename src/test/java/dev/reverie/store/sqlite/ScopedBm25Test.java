package dev.reverie.store.sqlite;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ScopedBm25Test {

    private static String mark(String word) {
        return "\u0001" + word + "\u0002";
    }

    @Test
    void rank_puts_rows_matching_more_and_rarer_terms_first() {
        List<Long> rids = List.of(1L, 2L, 3L);
        List<String> texts = List.of(
                "likes " + mark("coffee") + " in the morning",
                "allergic to " + mark("dipyrone") + " and drinks " + mark("coffee"),
                mark("coffee") + " with friends on a long and sunny afternoon by the sea");
        List<ScopedBm25.Hit> hits = ScopedBm25.rank(rids, texts, List.of("dipyrone", "coffee"), 100, 10);
        assertThat(hits).extracting(ScopedBm25.Hit::rid).containsExactly(2L, 1L, 3L);
        assertThat(hits.get(0).score()).isGreaterThan(hits.get(1).score());
    }

    @Test
    void rank_keeps_the_best_limit_rows() {
        List<ScopedBm25.Hit> hits = ScopedBm25.rank(List.of(5L, 6L, 7L),
                List.of(mark("tea"), mark("tea") + " " + mark("tea"), "a " + mark("tea") + " b c d e"),
                List.of("tea"), 10, 2);
        assertThat(hits).extracting(ScopedBm25.Hit::rid).containsExactly(6L, 5L);
    }

    @Test
    void termOf_maps_stem_variants_to_the_query_term() {
        List<String> query = List.of("allergy", "run");
        assertThat(ScopedBm25.termOf("allergies", query)).isEqualTo("allergy");
        assertThat(ScopedBm25.termOf("allergic", query)).isEqualTo("allergy");
        assertThat(ScopedBm25.termOf("running", query)).isEqualTo("run");
        assertThat(ScopedBm25.termOf("coffee", query)).isEqualTo("coffee");
    }

    @Test
    void rank_of_nothing_is_empty() {
        assertThat(ScopedBm25.rank(List.of(), List.of(), List.of("x"), 0, 5)).isEmpty();
    }
}
