package dev.reverie.dream;

import dev.reverie.internal.Terms;
import dev.reverie.spi.Subjects;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Text helpers of the dream cycle: word tokens, normalized values, token-set Jaccard and subject
 * families. Stateless and thread-safe.
 */
final class Text {

    /** Prefix of the write path's episodic fallback subjects ({@code user.episode.<hash>}). */
    static final String EPISODE_PREFIX = "user.episode.";
    /** Infix of every episodic subject: the user's and third-party ({@code tool.episode.<hash>}) ones. */
    private static final String EPISODE = ".episode.";

    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+");
    private static final int MAX_TERMS = 256;

    private Text() {
    }

    /** The content terms of a text (lower case, accents folded, common words dropped), for Jaccard. */
    static Set<String> terms(String text) {
        return new LinkedHashSet<>(Terms.of(text, MAX_TERMS));
    }

    /** Every folded word of a text, in order, common words included. */
    static List<String> words(String text) {
        return text == null ? new ArrayList<>() : foldedWords(Terms.fold(text));
    }

    /** The words of an already folded text, in order. */
    static List<String> foldedWords(String folded) {
        List<String> out = new ArrayList<>();
        Matcher m = WORD.matcher(folded);
        while (m.find()) {
            out.add(m.group());
        }
        return out;
    }

    /** A value reduced to its folded words joined by single spaces ({@code "Recife, PE"} → {@code "recife pe"}). */
    static String normalize(String value) {
        return String.join(" ", words(value));
    }

    /** Token-set Jaccard similarity; 0 when either set is empty. */
    static double jaccard(Set<String> a, Set<String> b) {
        if (a.isEmpty() || b.isEmpty()) {
            return 0;
        }
        Set<String> small = a.size() <= b.size() ? a : b;
        Set<String> large = small == a ? b : a;
        int common = 0;
        for (String t : small) {
            if (large.contains(t)) {
                common++;
            }
        }
        return (double) common / (a.size() + b.size() - common);
    }

    /** Whether the subject is an episodic fallback, whose key is derived from wording rather than meaning. */
    static boolean episodic(String subject) {
        return subject.contains(EPISODE);
    }

    /**
     * Whether two subjects may hold the same statement: equal subjects, or two episodic fallbacks of
     * the same owner (their hash keys come from the wording, so near-identical episodes differ only in
     * key; two speakers', or a tool's and the user's, never share a family).
     */
    static boolean sameFamily(String a, String b) {
        return a.equals(b) || (episodic(a) && episodic(b) && Subjects.owner(a).equals(Subjects.owner(b)));
    }

    /** The family of a subject: itself, or for an episodic fallback its owner's episodes ({@code ana.episode.}). */
    static String family(String subject) {
        return episodic(subject) ? Subjects.owner(subject) + EPISODE : subject;
    }

    /** Lower-case ASCII-safe form of a subject suffix for ids and keys. */
    static String key(String s) {
        return normalize(s).replace(' ', '_').toLowerCase(Locale.ROOT);
    }

    /** {@code s} cut to at most {@code max} characters at a word boundary, with an ellipsis when cut. */
    static String abbreviate(String s, int max) {
        String t = s.strip().replaceAll("\\s+", " ");
        if (t.length() <= max) {
            return t;
        }
        int cut = t.lastIndexOf(' ', max - 1);
        return (cut > max / 2 ? t.substring(0, cut) : t.substring(0, max - 1)) + "…";
    }
}
