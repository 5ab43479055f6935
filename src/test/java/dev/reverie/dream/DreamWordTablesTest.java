package dev.reverie.dream;

import dev.reverie.internal.Resources;
import dev.reverie.internal.Terms;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dream cycle's word lists, as loaded from {@code src/main/resources/dev/reverie/dream/words/}:
 * size, no duplicate or blank entry, every entry folded, a few known entries.
 */
class DreamWordTablesTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "filler, 144, hi|sweet|hooray|obrigada",
            "light, 71, i|too|totally|ve",
            "not-entities, 80, i|saturday|user|dra|fri|sept",
            "interjections, 34, hey|thanks|congrats|obrigada"
    })
    void word_list_loads_whole_and_clean(String name, int size, String known) {
        List<String> entries = Resources.entries(Importance.class, "words/" + name + ".txt");

        assertThat(entries).hasSize(size).doesNotHaveDuplicates().contains(known.split("\\|"))
                .allSatisfy(e -> assertThat(e).isNotBlank().isEqualTo(Terms.fold(e)));
    }
}
