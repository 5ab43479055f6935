package dev.reverie.internal;

import dev.reverie.RedactionTiming;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * What {@link PastedContent} sets aside, line by line: the pasted parts go, the speaker's words
 * around them stay, and ordinary conversation is never read as a paste. The extractor-level cases
 * (which facts come out) are in {@code RuleBasedExtractorTest}.
 */
class PastedContentTest {

    private static final Path LOCOMO = Path.of(System.getProperty("reverie.locomo",
            "../shared/eval/locomo/locomo-dev.json"));

    @Test
    void quoted_titles_are_not_one_quote_from_the_end_of_one_to_the_start_of_the_next() {
        String text = "I think it was called \"Inception\". I've also been playing a game called \"Cyberpunk 2077\".";
        assertThat(PastedContent.ownWords(text)).isEqualTo(text);
    }

    @Test
    void a_quote_in_which_somebody_else_speaks_goes_and_the_words_after_it_stay() {
        assertThat(PastedContent.ownWords("she sent this to the group: \"I'm moving to Canada\" and I live in Rome"))
                .doesNotContain("Canada").contains("and I live in Rome");
        assertThat(PastedContent.ownWords("eu disse-lhe: \"sou alérgico a amendoins\" e mesmo assim"))
                .contains("sou alérgico a amendoins");
    }

    @Test
    void a_quoted_paste_ends_at_the_blank_line_after_it_and_a_paste_of_several_paragraphs_does_not() {
        assertThat(PastedContent.ownWords("my coworker wrote:\n> I'm moving to Berlin\n\nI'm allergic to soy"))
                .doesNotContain("Berlin").contains("I'm allergic to soy");
        assertThat(PastedContent.ownWords("Can you help me reply to this email?\n\nHi Ana,\n\nI'm John, I live in Berlin."
                + "\n\nBest, John")).doesNotContain("Berlin").doesNotContain("John");
        assertThat(PastedContent.ownWords("Can you reply to this email?\n\nHi Ana, I live in Berlin.\n\n"
                + "Anyway, I live in Rome.")).doesNotContain("Berlin").contains("Anyway, I live in Rome.");
    }

    @Test
    void a_copied_chat_keeps_only_the_speakers_own_lines() {
        String chat = "[14:02, 03/01/2026] Rita: moro em Setúbal\n[14:03, 03/01/2026] Eu: moro em Aveiro";
        assertThat(PastedContent.ownWords(chat)).doesNotContain("Setúbal").contains("moro em Aveiro")
                .doesNotContain("14:03");
        assertThat(PastedContent.ownWords("jake: im allergic to dogs\nme: i live in rome\njake: moving to austin"))
                .doesNotContain("dogs").doesNotContain("austin").contains("i live in rome");
    }

    @Test
    void no_turn_of_the_locomo_conversations_is_read_as_a_paste() throws IOException {
        assumeTrue(Files.isRegularFile(LOCOMO), "LoCoMo file not found at " + LOCOMO.toAbsolutePath());
        List<String> turns = RedactionTiming.locomoTurns(LOCOMO);
        List<String> changed = new ArrayList<>();
        for (String text : turns) {
            if (!PastedContent.ownWords(text).equals(text)) {
                changed.add(text);
            }
        }
        System.out.printf("PastedContent: %d of %d LoCoMo turns read as pasting something%n", changed.size(),
                turns.size());
        assertThat(turns.size()).isGreaterThan(1_000);
        assertThat(changed).isEmpty();
    }
}
