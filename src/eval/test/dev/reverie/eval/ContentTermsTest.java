package dev.reverie.eval;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class ContentTermsTest {

    private final ContentTerms terms = new ContentTerms();
    private final Set<String> names = terms.of("Caroline Melanie");

    @Test
    void a_fact_that_keeps_a_word_of_the_turn_shares_content() {
        assertThat(terms.share("Caroline likes counseling",
                "I'm keen on counseling or working in mental health", names)).isTrue();
    }

    @Test
    void stems_match_across_word_forms() {
        assertThat(terms.share("Melanie paints landscapes", "I painted that lake sunrise", names)).isTrue();
    }

    @Test
    void a_note_that_only_names_the_speaker_shares_nothing() {
        assertThat(terms.share("Caroline writes in English",
                "Gonna continue my edu and check out career options!", names)).isFalse();
        assertThat(terms.share("Caroline: hi", "Caroline, that's great", names)).isFalse();
    }

    @Test
    void coverage_is_the_share_of_the_turns_content_words_the_items_carry() {
        String turn = "Caroline: my grandma gave me this necklace in Sweden";
        assertThat(terms.coverage(turn, List.of("Caroline: a gift from my grandma in Sweden"), names))
                .isCloseTo(2.0 / 4, within(1e-9)); // grandma, sweden of grandma, gave, necklace, sweden
        assertThat(terms.coverage(turn, List.of("grandma necklace", "Sweden gave"), names)).isEqualTo(1.0);
        assertThat(terms.coverage("Caroline: hi", List.of(), names)).isEqualTo(1.0);
    }

    @Test
    void answer_overlap_counts_the_answer_words_the_text_holds() {
        ContentTerms.Overlap overlap = terms.overlap("a sunset by the lake",
                "[8 May 2023] Melanie: I painted the sunset last week", names);

        assertThat(overlap.wanted()).isEqualTo(2);
        assertThat(overlap.present()).isEqualTo(1);
    }

    @Test
    void an_answer_of_names_and_stop_words_has_nothing_to_cover() {
        assertThat(terms.overlap("Caroline", "Caroline: hi", names).wanted()).isZero();
        assertThat(terms.overlap("Caroline and Melanie", "Melanie: hi", names).wanted()).isZero();
    }

    @Test
    void iso_dates_meet_spelled_dates() {
        ContentTerms.Overlap overlap = terms.overlap("7 June 2023", "- [2023-06-07] (event) Melanie ran a race", names);

        assertThat(overlap.present()).isEqualTo(overlap.wanted()).isEqualTo(3);
        assertThat(ContentTerms.spellDates("on 2023-05-07, not 2023-13-45")).isEqualTo("on 7 May 2023, not 2023-13-45");
    }
}
