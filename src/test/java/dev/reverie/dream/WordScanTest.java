package dev.reverie.dream;

import dev.reverie.internal.Terms;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link WordScan} against the regular expressions the dream used before (kept here, verbatim, as
 * the reference): on texts generated from a seed out of the words the expressions look for, their
 * near misses (prefixes, suffixes, digits, underscores, apostrophes, hyphens), upper-case and
 * non-Latin letters, combining marks, supplementary characters and every kind of separator, each
 * scan must answer exactly as its expression did, on the raw text and on its folded form.
 */
class WordScanTest {

    private static final Pattern TEMPORAL = Pattern.compile(
            "\\b(yesterday|today|tonight|tomorrow|ago|last (week|month|year|weekend|night|summer|winter|spring|fall"
                    + "|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|next (week|month|year|weekend"
                    + "|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|this (morning|week|month|year|weekend"
                    + "|summer)|monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april"
                    + "|june|july|august|september|october|november|december|(19|20)\\d\\d|ontem|hoje|amanha"
                    + "|semana passada|mes passado|ano passado|proxima semana|segunda|terca|quarta|quinta|sexta|sabado"
                    + "|domingo)\\b");
    private static final Pattern PAST = Pattern.compile(
            "\\b(went|did|made|took|got|saw|met|ran|bought|began|came|gave|found|won|lost|wrote|built|drew|drove|flew"
                    + "|left|paid|sold|sent|spent|taught|told|brought|caught|chose|became|broke|held|kept|led|sat|slept"
                    + "|spoke|swam|threw|woke|wore|grew|rode|sang|ate|drank|fell|forgot|quit|had|fui|fiz|comprei|comecei"
                    + "|terminei|viajei|mudei|conheci|ganhei|perdi|\\p{L}{3,}ed)\\b");
    private static final Pattern PROGRESSIVE = Pattern.compile("\\b(i'?m|i am|im|we'?re|we are|estou)\\s+\\p{L}+(ing|ndo)\\b");
    private static final Pattern PLAN = Pattern.compile(
            "\\b(i'?m going to|i am going to|gonna|i'?ll|i will|i plan|i'?m planning|planning to|i want to|i'?d love to"
                    + "|we'?re going to|we'?ll|vou|pretendo|quero)\\b");
    private static final Pattern SENTENCE = Pattern.compile("[^.!?]+[.!?]*");
    private static final Pattern CAPITALIZED = Pattern.compile("\\b\\p{Lu}[\\p{L}'’-]*");
    private static final Pattern SYNTHESIS_SENTENCE = Pattern.compile("[^.!?\\n]+[.!?]*");
    private static final Pattern SYNTHESIS_CAPITALIZED = Pattern.compile("\\p{Lu}[\\p{L}\\p{N}'’-]*");

    private static final Set<String> PAST_WORDS = Importance.PAST_WORDS;
    private static final Set<String> TEMPORAL_WORDS = Importance.TEMPORAL_WORDS;
    private static final Map<String, Set<String>> TEMPORAL_PAIRS = Importance.TEMPORAL_PAIRS;
    private static final List<String> OPENERS = Importance.PROGRESSIVE_OPENERS;
    private static final List<String> PLANS = Importance.PLAN_PHRASES;

    /** Pieces the generator strings together: the words looked for, their near misses, and odd characters. */
    private static final List<String> PIECES = pieces();
    private static final String[] SEPARATORS = {" ", " ", " ", "  ", "\t", "\n", "\r", "\f", "\u000B", "", "", "'",
        "’", "-", "_", ".", "!", "?", "...", "?!", ",", ", ", ": ", ";", "(", "\"", "“", "\u00A0", "\u2003", "\u0301",
        "\u200B", "2", "é", "\uD834\uDD67", "\uD834\uDD67 "};

    @Test
    void every_scan_answers_as_the_expression_it_replaces() {
        Random random = new Random(20261130L);
        int positives = 0;
        for (int n = 0; n < 60_000; n++) {
            String raw = text(random);
            for (String s : List.of(raw, Terms.fold(raw), Terms.fold(raw.replace('’', '\'')))) {
                boolean temporal = TEMPORAL.matcher(s).find();
                assertThat(WordScan.anyDateWord(s, TEMPORAL_WORDS, TEMPORAL_PAIRS)).as("temporal in [%s]", s)
                        .isEqualTo(temporal);
                boolean past = PAST.matcher(s).find();
                assertThat(WordScan.anyRun(s, PAST_WORDS, "ed", 5)).as("past in [%s]", s).isEqualTo(past);
                boolean progressive = PROGRESSIVE.matcher(s).find();
                assertThat(WordScan.openerThenWord(s, OPENERS, Importance.PROGRESSIVE_ENDINGS)).as("progressive in [%s]", s)
                        .isEqualTo(progressive);
                boolean plan = PLAN.matcher(s).find();
                assertThat(WordScan.containsAnyWord(s, PLANS)).as("plan in [%s]", s).isEqualTo(plan);
                positives += (temporal ? 1 : 0) + (past ? 1 : 0) + (progressive ? 1 : 0) + (plan ? 1 : 0);
                assertThat(WordScan.sentences(s, ".!?", ".!?")).as("sentences of [%s]", s).isEqualTo(all(SENTENCE, s));
                assertThat(WordScan.sentences(s, ".!?\n", ".!?")).as("synthesis sentences of [%s]", s)
                        .isEqualTo(all(SYNTHESIS_SENTENCE, s));
                assertThat(spans(WordScan.capitalized(s, true, false), s)).as("names in [%s]", s)
                        .isEqualTo(all(CAPITALIZED, s));
                assertThat(spans(WordScan.capitalized(s, false, true), s)).as("entities in [%s]", s)
                        .isEqualTo(all(SYNTHESIS_CAPITALIZED, s));
            }
        }
        // the generated texts exercise both answers of every expression, not only "no match"
        assertThat(positives).isGreaterThan(100_000);
    }

    @Test
    void boundaries_follow_the_expressions_on_the_hard_cases() {
        assertThat(WordScan.anyRun("he walked_home", PAST_WORDS, "ed", 5)).isFalse();
        assertThat(WordScan.anyRun("he walked-home", PAST_WORDS, "ed", 5)).isTrue();
        assertThat(WordScan.anyRun("didn't", PAST_WORDS, "ed", 5)).isFalse(); // "didn" is the word
        assertThat(WordScan.anyRun("I did.", PAST_WORDS, "ed", 5)).isTrue();
        assertThat(WordScan.anyRun("2walked", PAST_WORDS, "ed", 5)).isFalse();
        assertThat(WordScan.anyRun("shed", PAST_WORDS, "ed", 5)).isFalse();
        assertThat(WordScan.anyDateWord("last  week", TEMPORAL_WORDS, TEMPORAL_PAIRS)).isFalse();
        assertThat(WordScan.anyDateWord("last week", TEMPORAL_WORDS, TEMPORAL_PAIRS)).isTrue();
        assertThat(WordScan.anyDateWord("in 20245", TEMPORAL_WORDS, TEMPORAL_PAIRS)).isFalse();
        assertThat(WordScan.anyDateWord("in 2024.", TEMPORAL_WORDS, TEMPORAL_PAIRS)).isTrue();
        assertThat(WordScan.openerThenWord("we are\tmoving", OPENERS, Importance.PROGRESSIVE_ENDINGS)).isTrue();
        assertThat(WordScan.openerThenWord("swim walking", OPENERS, Importance.PROGRESSIVE_ENDINGS)).isFalse();
        assertThat(WordScan.containsAnyWord("oh well.", PLANS)).isTrue();
        // a combining mark after a letter belongs to the word before it
        assertThat(WordScan.anyRun("cafe\u0301d", PAST_WORDS, "ed", 5)).isFalse();
        assertThat(PAST.matcher("cafe\u0301d").find()).isFalse();
        // a combining mark outside the basic plane after a letter: \b sees a word start after it
        assertThat(WordScan.anyRun("a\uD834\uDD67went", PAST_WORDS, "ed", 5)).isTrue();
        assertThat(PAST.matcher("a\uD834\uDD67went").find()).isTrue();
        assertThat(WordScan.anyDateWord("a\uD834\uDD67today", TEMPORAL_WORDS, TEMPORAL_PAIRS)).isTrue();
    }

    private static List<String> all(Pattern p, String s) {
        List<String> out = new ArrayList<>();
        Matcher m = p.matcher(s);
        while (m.find()) {
            out.add(m.start() + ":" + m.group());
        }
        return p == SENTENCE || p == SYNTHESIS_SENTENCE ? out.stream().map(x -> x.substring(x.indexOf(':') + 1)).toList()
                : out;
    }

    private static List<String> spans(int[] r, String s) {
        List<String> out = new ArrayList<>();
        for (int k = 0; k < r.length; k += 2) {
            out.add(r[k] + ":" + s.substring(r[k], r[k + 1]));
        }
        return out;
    }

    private static String text(Random random) {
        StringBuilder sb = new StringBuilder();
        int pieces = 1 + random.nextInt(9);
        for (int i = 0; i < pieces; i++) {
            if (i > 0 || random.nextInt(4) == 0) {
                sb.append(SEPARATORS[random.nextInt(SEPARATORS.length)]);
            }
            String piece = PIECES.get(random.nextInt(PIECES.size()));
            int shape = random.nextInt(10);
            if (shape == 0) {
                piece = piece.toUpperCase(java.util.Locale.ROOT);
            } else if (shape == 1 && !piece.isEmpty()) {
                piece = Character.toUpperCase(piece.charAt(0)) + piece.substring(1);
            } else if (shape == 2 && piece.length() > 2) {
                piece = piece.substring(0, random.nextInt(piece.length()));
            } else if (shape == 3) {
                piece = piece + SEPARATORS[random.nextInt(SEPARATORS.length)] + PIECES.get(random.nextInt(PIECES.size()));
            }
            sb.append(piece);
        }
        if (random.nextInt(3) == 0) {
            sb.append(SEPARATORS[random.nextInt(SEPARATORS.length)]);
        }
        return sb.toString();
    }

    private static List<String> pieces() {
        List<String> p = new ArrayList<>();
        p.addAll(PAST_WORDS);
        p.addAll(TEMPORAL_WORDS);
        TEMPORAL_PAIRS.forEach((first, seconds) -> {
            p.add(first);
            seconds.forEach(second -> p.add(first + " " + second));
        });
        p.addAll(OPENERS);
        p.addAll(PLANS);
        p.addAll(List.of("walked", "played", "shed", "red", "bed", "fed", "wed", "sled", "cafés", "naïve", "jumped2",
                "walking", "lendo", "andando", "sing", "king", "ring", "thing", "ndo", "reading", "estudando", "gonnas",
                "1999", "2024", "2099", "1899", "2100", "20245", "199", "19ab", "２０２４", "٢٠٢٤", "may", "i", "we",
                "m", "re", "d", "ll", "am", "are", "going", "to", "love", "want", "plan", "planning", "will", "ill",
                "well", "Ana", "Priya's", "O'Neil", "Jean-Luc", "McDonald", "iPhone", "ÉMILE", "Σωκράτης", "Дмитрий",
                "中文", "ǅemal", "Ⓐnna", "\uD835\uDC00bc", "\uD835\uDC00\uD835\uDC01ed", "Ⅻ", "x²", "R2D2", "_", "__ed",
                "e\u0301", "e\u0301d", "\u0301", "hello", "thanks", "yes", "ok", "OK", "I'm", "Hey", "dr", "Dr."));
        return List.copyOf(p);
    }
}
