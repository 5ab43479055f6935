package dev.reverie.internal;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The stop-word table of {@link Terms} ({@code dev/reverie/internal/words/}) and the table loader. */
class StopWordsTableTest {

    @Test
    void more_english_stop_words_load_whole_and_clean() {
        List<String> entries = Resources.entries(Terms.class, "words/more-english-stop-words.txt");

        assertThat(entries).hasSize(76).doesNotHaveDuplicates().contains("i", "been", "let's", "whom")
                .allSatisfy(e -> assertThat(e).isNotBlank().isEqualTo(Terms.fold(e)));
        assertThat(Terms.STOP_WORDS).containsAll(entries).contains("the", "de", "nao");
    }

    @Test
    void a_missing_table_is_named_in_the_error() {
        assertThatThrownBy(() -> Resources.entries(Terms.class, "words/none.txt"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("dev/reverie/internal/words/none.txt");
    }
}
