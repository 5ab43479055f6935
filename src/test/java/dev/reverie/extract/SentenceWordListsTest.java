package dev.reverie.extract;

import dev.reverie.internal.Terms;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A sentence looks each token up once in a table of the word lists it belongs to; on seeded random
 * sentences made of the lists' own words (and words in none), every figure must equal what one set
 * lookup per list gives: the language scores, the content-word count, small talk, the first person
 * (a listed pronoun, an elided "I" opening the body, a Portuguese first-person verb), and the
 * hedge and reporting-word gates.
 */
class SentenceWordListsTest {

    private static final Set<String> REPORTING = Lexicon.words("reporting-words");
    private static final Set<String> HEDGES = Lexicon.words("hedge-words");
    private static final Set<String> ELIDED = Lexicon.words("elided-first-person");
    private static final String[] OTHERS = {"to", "jazz", "Recife", "cello", "7", "42", "x", "falei", "comprei",
            "andei", "lei", "actually,", "well", "so", "\"", "'", "é", "não", "café", "Dra.", "ok.", "yes!", "Why?"};

    private static List<String> pool() {
        List<String> pool = new ArrayList<>();
        for (Set<String> list : List.of(Lexicon.EN_MARKERS, Lexicon.PT_MARKERS, Lexicon.PT_FIRST_PERSON_VERBS,
                Lexicon.FILLER, Lexicon.STOP, Lexicon.FIRST_PERSON, REPORTING, HEDGES, ELIDED)) {
            pool.addAll(list.stream().sorted().toList());
        }
        pool.addAll(List.of(OTHERS));
        return pool;
    }

    @Test
    void figures_match_one_set_lookup_per_word_list() {
        List<String> pool = pool();
        Random random = new Random(20261201);
        int sentences = 0;
        for (int n = 0; n < 20_000; n++) {
            StringBuilder text = new StringBuilder();
            int words = 1 + random.nextInt(14);
            for (int w = 0; w < words; w++) {
                text.append(w == 0 ? "" : " ").append(pool.get(random.nextInt(pool.size())));
            }
            for (Sentence s : Sentence.split(text.toString(), 64, LocalDate.of(2026, 12, 1))) {
                sentences++;
                check(s);
            }
        }
        assertThat(sentences).isGreaterThan(20_000);
    }

    private static void check(Sentence s) {
        List<int[]> spans = Terms.wordSpans(s.folded);
        List<String> tokens = new ArrayList<>();
        List<String> body = new ArrayList<>();
        for (int[] span : spans) {
            String t = s.folded.substring(span[0], span[1]);
            tokens.add(t);
            if (span[0] >= s.body) {
                body.add(t);
            }
        }
        int en = 0;
        int pt = 0;
        int content = 0;
        boolean filler = true;
        boolean first = false;
        for (String t : tokens) {
            en += Lexicon.EN_MARKERS.contains(t) ? 1 : 0;
            pt += Lexicon.PT_MARKERS.contains(t) || Lexicon.PT_FIRST_PERSON_VERBS.contains(t) && !t.equals("to") ? 1 : 0;
            filler &= Lexicon.FILLER.contains(t);
            content += !Lexicon.STOP.contains(t) && (t.length() > 1 || Character.isDigit(t.charAt(0))) ? 1 : 0;
            first |= Lexicon.FIRST_PERSON.contains(t);
        }
        first |= !body.isEmpty() && ELIDED.contains(body.get(0));
        if (!first && pt > en) {
            for (String t : body) {
                if (Lexicon.PT_FIRST_PERSON_VERBS.contains(t) || (t.length() >= 5 && t.endsWith("ei"))) {
                    first = true;
                    break;
                }
            }
        }
        assertThat(s.tokens).as(s.text).isEqualTo(tokens);
        assertThat(new int[] {s.enScore, s.ptScore, s.contentWords}).as(s.text).containsExactly(en, pt, content);
        assertThat(s.filler).as(s.text).isEqualTo(filler);
        assertThat(s.firstPerson).as(s.text).isEqualTo(first);
        if (tokens.stream().noneMatch(HEDGES::contains)) {
            assertThat(s.hedged).as(s.text).isFalse();
        }
        if (tokens.stream().noneMatch(REPORTING::contains) && s.folded.indexOf('"') < 0 && s.folded.indexOf('\'') < 0) {
            assertThat(s.reported).as(s.text).isFalse();
        }
    }
}
