package dev.reverie.spi;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The o200k counter sums remembered piece counts instead of asking JTokkit for the whole text; on
 * generated texts full of what the pre-tokenizer treats specially (case changes, contractions in any
 * case, digit runs, punctuation runs before newlines and slashes, white-space runs before words,
 * tabs and carriage returns, accents and combining marks, CJK, emoji and other supplementary
 * characters, unpaired surrogates) every count must equal JTokkit's count of the whole text, counted
 * cold, again from the table, after the table was overwritten, and from several threads at once.
 */
class PieceCountsTest {

    private static final String[] WORDS = {"the", "I", "I'm", "I'LL", "we'Ve", "don't", "DON'T", "she'd", "it'S",
            "Priya", "GDPR", "McDonald", "iPhone", "allergic", "penicillin", "Recife", "café", "naïve", "Ærø",
            "e\u0301", "\u0301", "東京", "日本語", "😀", "🎉👍", "\uD83D", "\uDE00", "Ωμέγα", "привет", "ﬁ", "ǅungla",
            "2023", "12345678", "3.14", "1,000", "0x1F", "sk-ABCdef123", "a_b", "user.location", "http://x.y/z"};
    private static final String[] GLUE = {" ", " ", " ", "  ", "   ", "\t", "\n", "\n\n", "\r\n", " \n", "\n ",
            ".", ",", "!", "?", "...", "—", "-", "--", "/", "//", ".\n", "/\n", "!\n/", "(", ")", "\"", "'", ":", ";",
            "#", "@", "$", "%", "&", "*", "_", "\u00A0", "\u2003", "\u000B", "\f", ""};

    private final Encoding reference = Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.O200K_BASE);
    private final TokenCounter counter = TokenCounter.o200k();

    static String text(Random random) {
        StringBuilder sb = new StringBuilder();
        int n = random.nextInt(40);
        for (int i = 0; i < n; i++) {
            sb.append(GLUE[random.nextInt(GLUE.length)]);
            if (random.nextInt(8) == 0) {
                // any BMP or supplementary code point, surrogates included
                int cp = random.nextInt(4) == 0 ? 0x10000 + random.nextInt(0x20000) : random.nextInt(0x3000);
                sb.appendCodePoint(cp);
            } else {
                sb.append(WORDS[random.nextInt(WORDS.length)]);
            }
        }
        return sb.toString();
    }

    private static List<String> texts(long seed, int n) {
        Random random = new Random(seed);
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            texts.add(text(random));
        }
        return texts;
    }

    @Test
    void counts_match_jtokkit_on_generated_texts_cold_and_remembered() {
        List<String> texts = texts(20261201, 20_000);
        assertCountsMatch(texts); // cold
        assertCountsMatch(texts); // from the table
    }

    private void assertCountsMatch(List<String> texts) {
        for (String t : texts) {
            assertThat(counter.count(t)).as("count of %s", t).isEqualTo(reference.countTokensOrdinary(t));
        }
    }

    @Test
    void counts_stay_exact_after_the_piece_table_was_overwritten() {
        List<String> first = texts(7, 500);
        first.forEach(counter::count);
        // more distinct pieces than the table has entries
        StringBuilder flood = new StringBuilder();
        for (int i = 0; i < JTokkitTokenCounter.PIECE_SLOTS * 2; i++) {
            flood.append(' ').append(Integer.toString(i, 26).replace('0', 'z').replace('1', 'y').replace('2', 'x')
                    .replace('3', 'w').replace('4', 'v').replace('5', 'u').replace('6', 't').replace('7', 's')
                    .replace('8', 'r').replace('9', 'q'));
            if (flood.length() > 4_000) {
                String f = flood.toString();
                assertThat(counter.count(f)).isEqualTo(reference.countTokensOrdinary(f));
                flood.setLength(0);
            }
        }
        assertCountsMatch(first);
    }

    @Test
    void counts_match_jtokkit_from_four_threads_at_once() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Integer>> mismatches = new ArrayList<>();
            for (int w = 0; w < 4; w++) {
                long seed = 100 + w;
                mismatches.add(pool.submit(() -> {
                    Random random = new Random(seed);
                    int wrong = 0;
                    for (int i = 0; i < 5_000; i++) {
                        String t = text(random);
                        if (counter.count(t) != reference.countTokensOrdinary(t)) {
                            wrong++;
                        }
                    }
                    return wrong;
                }));
            }
            for (Future<Integer> f : mismatches) {
                assertThat(f.get()).isZero();
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
