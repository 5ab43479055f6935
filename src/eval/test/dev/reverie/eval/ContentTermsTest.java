package dev.reverie.eval;

import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

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
}
