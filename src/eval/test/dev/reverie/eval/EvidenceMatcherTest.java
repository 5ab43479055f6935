package dev.reverie.eval;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class EvidenceMatcherTest {

    private static boolean found(String turn, String context) {
        return EvidenceMatcher.of(turn).foundIn(EvidenceMatcher.normalize(context));
    }

    private static String words(int from, int to) {
        List<String> out = new ArrayList<>();
        for (int i = from; i < to; i++) {
            out.add("word" + i);
        }
        return String.join(" ", out);
    }

    @Test
    void finds_a_turn_whatever_its_case_and_whitespace() {
        assertThat(found("I went to a  LGBTQ support group yesterday.",
                "[8 May 2023] Caroline: i went to a lgbtq\n support   group yesterday.")).isTrue();
    }

    @Test
    void needs_word_boundaries_around_the_turn() {
        assertThat(found("Yes!", "My eyes! Oh no")).isFalse();
        assertThat(found("Yes!", "Melanie: Yes! Oh no")).isTrue();
    }

    @Test
    void does_not_find_a_short_turn_of_which_only_part_is_present() {
        assertThat(found("I painted a sunrise last year by the lake", "I painted a sunrise last year")).isFalse();
    }

    @Test
    void finds_a_long_turn_from_a_contiguous_run_of_80_percent_of_its_words() {
        String turn = words(0, 30);
        assertThat(EvidenceMatcher.of(turn).isLong()).isTrue();
        assertThat(found(turn, "before " + words(6, 30) + " after")).isTrue();
        assertThat(found(turn, "before " + words(0, 24) + " after")).isTrue();
        assertThat(found(turn, "before " + words(3, 27) + " after")).isTrue();
    }

    @Test
    void does_not_find_a_long_turn_from_less_than_80_percent_or_a_broken_run() {
        String turn = words(0, 30);
        assertThat(found(turn, words(0, 23))).isFalse();
        assertThat(found(turn, words(0, 15) + " inserted " + words(15, 30))).isFalse();
    }

    @Test
    void a_long_run_must_also_sit_on_word_boundaries() {
        String turn = words(0, 30);
        assertThat(found(turn, "prefix " + words(0, 24) + " suffix")).isTrue();
        assertThat(found(turn, "prefix" + words(0, 24) + "suffix")).isFalse();
    }
}
