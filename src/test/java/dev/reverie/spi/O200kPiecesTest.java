package dev.reverie.spi;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hand-written o200k pre-tokenizer cuts every text exactly where the regular expression it
 * replaces does: on the generated texts of {@link PieceCountsTest} and on dense random strings of
 * the characters the expression treats specially (marks before letters, contractions in every case
 * including the long s, white-space runs with and without line breaks, numbers, symbols, slashes,
 * unpaired surrogates).
 */
class O200kPiecesTest {

    private static final String SPECIAL = "aZ\u01C5\u02B0\u05D0\u0301\u20DD\u0903'sStTmMdDrReEvVlL\u017F"
            + "0\u00B2\u2160 \t\n\r\u000B\u00A0\u2003\u3000/.,!?-_\"#\uD83D\uDE00\uD83D\u00E9\u00C9\u4E2D";

    private static List<String> byRegex(String text) {
        List<String> out = new ArrayList<>();
        Matcher m = JTokkitTokenCounter.O200K_PIECES.matcher(text);
        int at = 0;
        while (m.find()) {
            if (m.start() != at) {
                throw new AssertionError("the expression skipped text at " + at + " in " + escape(text));
            }
            out.add(text.substring(m.start(), m.end()));
            at = m.end();
        }
        if (at != text.length()) {
            throw new AssertionError("the expression left the end of " + escape(text));
        }
        return out;
    }

    private static List<String> byScanner(String text) {
        List<String> out = new ArrayList<>();
        for (int at = 0; at < text.length(); ) {
            int end = O200kPieces.end(text, at);
            out.add(text.substring(at, end));
            at = end;
        }
        return out;
    }

    private static String escape(String s) {
        StringBuilder sb = new StringBuilder();
        s.codePoints().forEach(c -> sb.append(c < 0x20 || c > 0x7E ? String.format("\\u%04X", c) : (char) c));
        return sb.toString();
    }

    @Test
    void cuts_generated_texts_where_the_expression_does() {
        Random random = new Random(20261201);
        List<String> differing = new ArrayList<>();
        for (int i = 0; i < 100_000; i++) {
            String text = PieceCountsTest.text(random);
            if (!byScanner(text).equals(byRegex(text))) {
                differing.add(escape(text) + ": " + byScanner(text) + " vs " + byRegex(text));
            }
        }
        assertThat(differing).isEmpty();
    }

    @Test
    void cuts_dense_random_strings_where_the_expression_does() {
        Random random = new Random(7);
        int[] special = SPECIAL.codePoints().toArray();
        List<String> differing = new ArrayList<>();
        for (int i = 0; i < 300_000; i++) {
            StringBuilder sb = new StringBuilder();
            int n = 1 + random.nextInt(12);
            for (int k = 0; k < n; k++) {
                int r = random.nextInt(20);
                if (r == 0) {
                    sb.appendCodePoint(random.nextInt(0x3000)); // any BMP character, surrogates included
                } else if (r == 1) {
                    sb.appendCodePoint(0x10000 + random.nextInt(0x20000));
                } else {
                    sb.append(Character.toChars(special[random.nextInt(special.length)]));
                }
            }
            String text = sb.toString();
            if (!byScanner(text).equals(byRegex(text))) {
                differing.add(escape(text) + ": " + byScanner(text) + " vs " + byRegex(text));
            }
        }
        assertThat(differing).isEmpty();
    }
}
