package dev.reverie.extract;

import dev.reverie.internal.Terms;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Turns the tail a pattern captured ("peanuts and shellfish, so I carry an EpiPen") into clean values
 * ("peanuts", "shellfish"): cut at the first clause boundary, drop trailing fillers and leading
 * articles, split lists, refuse pronouns. Works on the folded copy to decide and returns the original
 * text. Stateless and thread-safe.
 */
final class Values {

    static final int MAX_WORDS = 8;

    /** Boundaries that end a value (folded, with their spaces). */
    private static final String[] CUTS = Lexicon.phrases("value-cuts");

    /** Trailing words that say nothing about the value ("I love jazz too"). */
    private static final String[] TRAILING = {
            " too", " a lot", " so much", " very much", " anymore", " any more", " now", " these days",
            " lately", " as well", " also", " right now", " nowadays", " really", " honestly", " though",
            " of course", " for sure", " at all", " either", " already", " still", " again", " haha", " lol",
            " muito", " demais", " tambem", " mais", " agora", " hoje em dia", " pra caramba", " bastante",
            " atualmente", " ultimamente", " ainda", " de jeito nenhum", " mesmo", " ne", " rs", " kkk",
            " actually", " na verdade", " then", " today", " hoje", " a little", " um pouco", " totally",
            " so much more", " more and more", " very", " enough", " sometimes", " as vezes", " always",
            " sempre", " forever", " myself", " mesmo", " para sempre", " pra sempre"};

    /** Leading words dropped from a value (articles, and "de" left over from "gosto de ler e de cozinhar"). */
    private static final Set<String> ARTICLES = Lexicon.words("articles");

    private static final String[] LIST_SEPARATORS = {", ", " and ", " & ", " or ", " e ", " ou ", " nor ", " plus ",
            " as well as ", " assim como ", " and also ", " e tambem "};

    private Values() {
    }

    /** The cleaned value of {@code s.text[start, end)}, or {@code null} when nothing usable is left. */
    static String phrase(Sentence s, int start, int end, String... extraCuts) {
        int[] span = span(s, start, end, extraCuts);
        if (span == null) {
            return null;
        }
        return accept(s.text.substring(span[0], span[1]), s.folded.substring(span[0], span[1]));
    }

    /** Several values when the tail is a list ("jazz, samba and rock"). */
    static List<String> list(Sentence s, int start, int end, String... extraCuts) {
        int[] span = span(s, start, end, extraCuts);
        if (span == null) {
            return List.of();
        }
        String original = s.text.substring(span[0], span[1]);
        String folded = s.folded.substring(span[0], span[1]);
        List<String> out = new ArrayList<>();
        int from = 0;
        while (from < folded.length()) {
            int cut = folded.length();
            int sepLen = 0;
            for (String sep : LIST_SEPARATORS) {
                int i = folded.indexOf(sep, from);
                if (i >= 0 && i < cut) {
                    cut = i;
                    sepLen = sep.length();
                }
            }
            String item = original.substring(from, cut);
            String itemFolded = folded.substring(from, cut);
            List<String> words = Terms.wordTokens(itemFolded);
            if (!words.isEmpty() && Lexicon.CLAUSE_SUBJECT.contains(words.get(0))) {
                break; // "peanuts and I also love jazz": a new clause starts
            }
            String v = accept(item, itemFolded);
            if (v != null) {
                out.add(v);
            } else if (opensClause(words)) {
                break; // "how you planned the route and the budget": the rest belongs to that clause
            }
            if (cut >= folded.length()) {
                break;
            }
            from = cut + sepLen;
        }
        return out;
    }

    /** The span left after cutting at clause boundaries and trimming fillers, or null. */
    static int[] span(Sentence s, int start, int end, String... extraCuts) {
        String f = s.folded;
        end = Math.min(end, f.length());
        if (start >= end) {
            return null;
        }
        int cut = end;
        for (String c : CUTS) {
            int i = f.indexOf(c, start);
            if (i >= start && i < cut) {
                cut = i;
            }
        }
        for (String c : extraCuts) {
            int i = f.indexOf(c, start);
            if (i >= start && i < cut) {
                cut = i;
            }
        }
        int date = s.dateStart();
        if (date > start && date < cut) {
            cut = date;
        }
        end = cut;
        boolean changed = true;
        while (changed) {
            changed = false;
            while (end > start && !Character.isLetterOrDigit(f.charAt(end - 1)) && "+#)".indexOf(f.charAt(end - 1)) < 0) {
                end--;
                changed = true;
            }
            for (String t : TRAILING) {
                if (end - start > t.length() && f.startsWith(t, end - t.length())) {
                    end -= t.length();
                    changed = true;
                }
            }
        }
        while (start < end && Character.isWhitespace(f.charAt(start))) {
            start++;
        }
        return end > start ? new int[] {start, end} : null;
    }

    /** Drops leading articles; refuses empty, pronoun-led or overlong values. */
    static String accept(String original, String folded) {
        int a = 0;
        int b = folded.length();
        while (true) {
            while (a < b && !Character.isLetterOrDigit(folded.charAt(a))) {
                a++;
            }
            while (b > a && !Character.isLetterOrDigit(folded.charAt(b - 1)) && "+#".indexOf(folded.charAt(b - 1)) < 0) {
                b--;
            }
            int sp = folded.indexOf(' ', a);
            if (sp > a && sp < b && ARTICLES.contains(folded.substring(a, sp))) {
                a = sp + 1;
            } else {
                break;
            }
        }
        if (b <= a) {
            return null;
        }
        List<String> words = Terms.wordTokens(folded.substring(a, b));
        if (words.isEmpty() || words.size() > MAX_WORDS) {
            return null;
        }
        if (opensClause(words) || DANGLING.contains(words.get(words.size() - 1))) {
            return null; // a pronoun or a verb is no thing; "escaping into" lost its object at a cut
        }
        return original.substring(a, b).strip();
    }

    /**
     * Whether words led by this word are no value but a clause: a pronoun, a wh-word or a finite
     * verb ({@link Lexicon#NOT_A_VALUE}; "one" only alone, "one of the best" is a value).
     */
    private static boolean opensClause(List<String> words) {
        return !words.isEmpty() && Lexicon.NOT_A_VALUE.contains(words.get(0))
                && !(words.size() > 1 && words.get(0).equals("one"));
    }

    /** Prepositions that cannot end a value: the phrase was cut before their object. */
    private static final Set<String> DANGLING = Set.of("to", "with", "at", "for", "from", "of", "into", "about", "by",
            "onto", "toward", "towards", "de", "com", "para", "pra", "por", "em", "sobre");
}
