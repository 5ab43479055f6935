package dev.reverie.dream;

import dev.reverie.internal.Terms;
import dev.reverie.spi.Subjects;

import java.util.Locale;

/**
 * The dream cycle's own text rules: subject families (episodic fallbacks), keys and abbreviations.
 * Folding, words and similarity come from {@link Terms}, the one text module. Stateless and
 * thread-safe.
 */
final class Text {

    /** Prefix of the write path's episodic fallback subjects ({@code user.episode.<hash>}). */
    static final String EPISODE_PREFIX = "user.episode.";
    /** Infix of every episodic subject: the user's and third-party ({@code tool.episode.<hash>}) ones. */
    private static final String EPISODE = ".episode.";

    private Text() {
    }

    /** Whether the subject is an episodic fallback, whose key is derived from wording rather than meaning. */
    static boolean episodic(String subject) {
        return subject.contains(EPISODE);
    }

    /**
     * Whether two values of a many-valued subject may name one thing: either is empty, or the words of
     * one are all among the other's ("python" and "python programming"; a plural "s" aside: "peanuts"
     * and "peanut"). Values with a word the other lacks on both sides ("penicillin" and "amoxicillin",
     * "Ana" and "Rita") are two things, whatever a model or an embedder would say of their sentences.
     */
    static boolean valuesMayMatch(String a, String b) {
        String x = Terms.normalizeValue(a == null ? "" : a);
        String y = Terms.normalizeValue(b == null ? "" : b);
        if (x.isBlank() || y.isBlank() || x.equals(y)) {
            return true;
        }
        java.util.Set<String> wx = singulars(x);
        java.util.Set<String> wy = singulars(y);
        return wx.containsAll(wy) || wy.containsAll(wx);
    }

    /** The words of {@code value}, a plural "s" dropped ("peanuts" and "peanut" are one allergy). */
    private static java.util.Set<String> singulars(String value) {
        java.util.Set<String> out = new java.util.HashSet<>();
        for (String w : value.split("\\s+")) {
            out.add(w.length() > 3 && w.endsWith("s") && !w.endsWith("ss") ? w.substring(0, w.length() - 1) : w);
        }
        return out;
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
        return Terms.normalizeValue(s).replace(' ', '_').toLowerCase(Locale.ROOT);
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
