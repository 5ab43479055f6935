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

    /** Words too common to help ranking (English and Portuguese). */
    private static final Set<String> STOP = new java.util.HashSet<>(java.util.Arrays.asList(
            "a", "an", "the", "and", "or", "but", "of", "to", "in", "on", "at", "for", "with", "is", "are", "was",
            "were", "be", "been", "it", "this", "that", "as", "by", "from", "do", "does", "did", "so", "if", "than",
            "o", "os", "as", "um", "uma", "de", "do", "da", "dos", "das", "e", "em", "no", "na", "nos", "nas", "que",
            "por", "para", "com", "se", "ao", "é"));

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
            if (STOP.contains(t)) {
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

    /** Lower case without diacritics. */
    public static String fold(String text) {
        String lower = text.toLowerCase(Locale.ROOT);
        String decomposed = Normalizer.normalize(lower, Normalizer.Form.NFD);
        return MARKS.matcher(decomposed).replaceAll("");
    }
}
