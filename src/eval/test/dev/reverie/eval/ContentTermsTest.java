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
}
