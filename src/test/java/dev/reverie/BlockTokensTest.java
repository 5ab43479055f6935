package dev.reverie;

import dev.reverie.spi.TokenCounter;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The persistent block's o200k count is the sum of its pieces' counts whenever the pieces split
 * cleanly (the assembler relies on it to avoid tokenizing the block again on every call), checked
 * against the whole count on generated blocks full of what breaks naive splitting: punctuation at
 * line ends and starts, slashes, blank runs, digits, contractions, accents, CJK and emoji.
 */
class BlockTokensTest {

    private static final String[] ATOMS = {"the", "Priya", "GDPR", "support", "group", "I'll", "she's", "we've",
            "don't", "café", "naïve", "Ærø", "東京", "日本語", "😀", "🎉👍", "2023", "12345678", "3.14", "1,000", ".", ",",
            "!", "?", "...", "—", "-", "--", "/", "//", "://", "http://x.y/z", "(", ")", "[", "]", "<", ">", "\"", "'",
            ":", ";", "#", "@", "$", "%", "&", "*", "_", "\t", "  ", "   ", "\r", "\n", "\n\n", " \n", ".\n", "/\n",
            "[shares a photo of: a dog]", "user.location", "Lena:", "(2023-05-08)", "- ", "• ", "» "};

    private final TokenCounter o200k = TokenCounter.o200k();
    private final Random random = new Random(20261130);

    private String line() {
        StringBuilder sb = new StringBuilder();
        int n = 1 + random.nextInt(25);
        for (int i = 0; i < n; i++) {
            String atom = ATOMS[random.nextInt(ATOMS.length)];
            sb.append(atom);
            if (random.nextInt(3) > 0) {
                sb.append(' ');
            }
        }
        return sb.toString();
    }

    @Test
    void the_pieces_of_a_clean_block_add_up_to_the_whole_count() {
        int clean = 0;
        int mismatched = 0;
        for (int b = 0; b < 3_000; b++) {
            List<String> lines = new ArrayList<>();
            int n = random.nextInt(12);
            for (int i = 0; i < n; i++) {
                lines.add(line());
            }
            List<String> pieces = Rendering.blockPieces(lines);
            assertThat(String.join("", pieces)).isEqualTo(Rendering.block(lines));
            if (!Rendering.splitsCleanly(pieces)) {
                continue;
            }
            clean++;
            int sum = 0;
            for (String p : pieces) {
                sum += o200k.count(p);
            }
            if (sum != o200k.count(Rendering.block(lines))) {
                mismatched++;
            }
        }
        assertThat(clean).as("blocks that split cleanly").isGreaterThan(1_000);
        assertThat(o200k.additiveAfterNewline()).isTrue();
        assertThat(((TokenCounter) String::length).additiveAfterNewline()).as("a host's counter, by default").isFalse();
        assertThat(mismatched).isZero();
    }

    @Test
    void a_piece_that_would_join_its_neighbour_makes_the_block_counted_whole() {
        assertThat(Rendering.splitsCleanly(Rendering.blockPieces(List.of("a.", "/etc is a path")))).isFalse();
        assertThat(Rendering.splitsCleanly(Rendering.blockPieces(List.of("a", "")))).isFalse();
        assertThat(Rendering.splitsCleanly(Rendering.blockPieces(List.of("a", "\nb")))).isFalse();
        assertThat(Rendering.splitsCleanly(Rendering.blockPieces(List.of("a:", " b")))).isFalse();
        assertThat(Rendering.splitsCleanly(Rendering.blockPieces(List.of("a:", "\tb")))).isFalse();
        assertThat(Rendering.splitsCleanly(Rendering.blockPieces(List.of("a.", "- b")))).isTrue();
        // and such pieces really do not add up: the newline and the blank after it make one pre-token
        assertThat(o200k.count("// \n") + o200k.count(" \n東京")).isNotEqualTo(o200k.count("// \n \n東京"));
    }
}
