package dev.reverie.internal;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link Terms} finds words by scanning code points instead of with the regular expression
 * {@code [\p{L}\p{N}]+}; the words must stay exactly those the expression finds, whatever the text.
 */
class TermsWordScanTest {

    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+");
    /** Letters, digits, other numbers, marks, format characters, surrogate pairs and lone surrogates, punctuation. */
    private static final int[] ALPHABET = {'a', 'Z', '7', ' ', '_', '\'', '-', '.', 0xE9, 0x301, 0x200B, 0xB2, 0x2167,
            0x0663, 0x4E2D, 0x1D400, 0x1F600, 0xD800, 0xDC00, 0x02B0, 0x01C5, 0xA0, 0x2019, 0x0E01, 0x0E31, 0xFF21};

    @Test
    void folded_words_are_exactly_what_the_letter_or_number_expression_finds() {
        Random random = new Random(13);
        for (int n = 0; n < 20_000; n++) {
            String text = randomText(random);

            assertThat(Terms.foldedWords(text)).as("words of %s", text).isEqualTo(regexWords(text));
        }
    }

    private static List<String> regexWords(String text) {
        List<String> out = new ArrayList<>();
        Matcher m = WORD.matcher(text);
        while (m.find()) {
            out.add(m.group());
        }
        return out;
    }

    private static String randomText(Random random) {
        StringBuilder b = new StringBuilder();
        int length = random.nextInt(24);
        for (int i = 0; i < length; i++) {
            b.appendCodePoint(ALPHABET[random.nextInt(ALPHABET.length)]);
        }
        return b.toString();
    }
}
