package dev.reverie.internal;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Splits arbitrary user text into plain word terms (letters and digits only), so that no query
 * syntax of any engine can survive. Stateless and thread-safe. Not API.
 */
public final class Terms {
    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+");
    private static final Pattern MARKS = Pattern.compile("\\p{M}+");
    /** Invisible format characters (zero-width space and joiners, BOM, bidi marks, soft hyphen): never part of a word. */
    private static final Pattern FORMAT = Pattern.compile("\\p{Cf}+");

    /** English function words beyond Lucene's short default list (pronouns, auxiliaries, question words). */
    private static final List<String> MORE_ENGLISH = List.of(
            "i", "me", "my", "mine", "myself", "you", "your", "yours", "yourself", "he", "him", "his", "himself",
            "she", "her", "hers", "herself", "we", "us", "our", "ours", "them", "its", "itself", "what", "which",
            "who", "whom", "whose", "when", "where", "why", "how", "do", "does", "did", "doing", "am", "been",
            "being", "have", "has", "had", "having", "can", "could", "would", "should", "shall", "must", "about",
            "from", "so", "than", "too", "very", "just", "also", "any", "some", "each", "other", "here", "only",
            "i'm", "i've", "i'd", "i'll", "it's", "don't", "you're", "she's", "he's", "that's", "what's", "let's");

    /**
     * Words too common to help ranking: Lucene's English and Portuguese stop lists plus English
     * pronouns, auxiliaries and question words, accent-folded. Both stores drop them from queries.
     */
    public static final Set<String> STOP_WORDS = stopWords();

    private Terms() {
    }

    /** Lower-cased, accent-folded word terms of {@code text}, in order, without duplicates, at most {@code max}. */
    public static List<String> of(String text, int max) {
        if (text == null || text.isEmpty()) {
            return List.of();
        }
        String folded = fold(text);
        Set<String> out = new LinkedHashSet<>();
        Set<String> stops = new LinkedHashSet<>();
        Matcher m = WORD.matcher(folded);
        while (m.find() && out.size() < max) {
            String t = m.group();
            if (t.length() > 64) {
                t = t.substring(0, 64);
            }
            if (STOP_WORDS.contains(t) || (t.length() == 1 && !Character.isDigit(t.charAt(0)))) {
                stops.add(t);
            } else {
                out.add(t);
            }
        }
        if (out.isEmpty()) {
            // a query made only of common words still deserves an answer
            out.addAll(stops);
        }
        return new ArrayList<>(out);
    }

    private static Set<String> stopWords() {
        Set<String> set = new java.util.HashSet<>();
        for (Object w : org.apache.lucene.analysis.en.EnglishAnalyzer.ENGLISH_STOP_WORDS_SET) {
            set.add(fold(w instanceof char[] c ? new String(c) : String.valueOf(w)));
        }
        for (Object w : org.apache.lucene.analysis.pt.PortugueseAnalyzer.getDefaultStopSet()) {
            set.add(fold(w instanceof char[] c ? new String(c) : String.valueOf(w)));
        }
        for (String w : MORE_ENGLISH) {
            set.add(fold(w));
        }
        return java.util.Collections.unmodifiableSet(set);
    }

    /**
     * Lower case without diacritics or invisible format characters, compatibility forms unified
     * (NFKD: a ligature or full-width letter folds like the plain letters), so composed, decomposed
     * and zero-width-laced spellings of a word fold alike. The Lucene store's analysis does the same.
     */
    public static String fold(String text) {
        if (ascii(text)) {
            // ASCII has no marks, no format characters and no compatibility forms: NFKD leaves it as it is
            return text.toLowerCase(Locale.ROOT);
        }
        String visible = FORMAT.matcher(text).replaceAll("");
        String decomposed = Normalizer.normalize(visible, Normalizer.Form.NFKD);
        return MARKS.matcher(decomposed.toLowerCase(Locale.ROOT)).replaceAll("");
    }

    private static boolean ascii(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }
}
