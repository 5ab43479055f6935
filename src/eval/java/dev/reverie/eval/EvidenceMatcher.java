package dev.reverie.eval;

import java.text.Normalizer;
import java.util.Arrays;
import java.util.Locale;

/**
 * Decides whether a context holds a turn's text, the first of the two ways the README's scoring
 * counts an evidence turn as found.
 *
 * <p>Both sides are normalised the same way: Unicode NFKC, lower case, every run of whitespace one
 * space, trimmed. A turn is held when its whole normalised text occurs in the normalised context on
 * word boundaries (so "yes!" is not found inside "eyes!"). A long turn (at least
 * {@value #LONG_TURN_WORDS} words) is also held when a run of at least 80 % of its words, in order
 * and contiguous, occurs: that is what survives when a system trims a long turn at either end.
 *
 * <p>The long-turn check is cheap: with {@code n} words and a run length {@code k = ceil(0.8 n)},
 * every run of {@code k} words contains the middle words {@code [n-k, k)}, so one search for that
 * core rules most contexts out; only then are the {@code n-k+1} runs tried. A run longer than
 * {@code k} contains a run of exactly {@code k}, so trying those suffices.
 *
 * <p>Immutable and thread-safe.
 */
public final class EvidenceMatcher {

    /** Turns with at least this many words may be found by an 80 % run. */
    static final int LONG_TURN_WORDS = 20;

    /** The share of a long turn's words a run must cover. */
    static final double LONG_TURN_SHARE = 0.8;

    private final String full;
    private final String core;
    private final String[] runs;

    private EvidenceMatcher(String full, String core, String[] runs) {
        this.full = full;
        this.core = core;
        this.runs = runs;
    }

    /** A matcher for one turn's text. */
    public static EvidenceMatcher of(String turnText) {
        String full = normalize(turnText);
        String[] words = full.isEmpty() ? new String[0] : full.split(" ");
        int n = words.length;
        if (n < LONG_TURN_WORDS) {
            return new EvidenceMatcher(full, null, new String[0]);
        }
        int k = (int) Math.ceil(LONG_TURN_SHARE * n);
        String core = String.join(" ", Arrays.copyOfRange(words, n - k, k));
        String[] runs = new String[n - k + 1];
        for (int start = 0; start + k <= n; start++) {
            runs[start] = String.join(" ", Arrays.copyOfRange(words, start, start + k));
        }
        return new EvidenceMatcher(full, core, runs);
    }

    /**
     * NFKC, lower case, whitespace runs collapsed to one space, trimmed. Apply it once to a
     * context and pass the result to {@link #foundIn(String)}.
     */
    public static String normalize(String text) {
        String nfkc = Normalizer.normalize(text, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT);
        StringBuilder out = new StringBuilder(nfkc.length());
        boolean space = false;
        for (int i = 0; i < nfkc.length(); i++) {
            char c = nfkc.charAt(i);
            if (Character.isWhitespace(c) || Character.isSpaceChar(c)) {
                space = out.length() > 0;
            } else {
                if (space) {
                    out.append(' ');
                    space = false;
                }
                out.append(c);
            }
        }
        return out.toString();
    }

    /** Whether the already {@linkplain #normalize normalised} context holds this turn. */
    public boolean foundIn(String normalizedContext) {
        if (full.isEmpty()) {
            return false;
        }
        if (occursOnWordBoundaries(normalizedContext, full)) {
            return true;
        }
        if (core == null || !normalizedContext.contains(core)) {
            return false;
        }
        for (String run : runs) {
            if (occursOnWordBoundaries(normalizedContext, run)) {
                return true;
            }
        }
        return false;
    }

    /** Whether this turn would be found only by the 80 % rule (for diagnostics and tests). */
    boolean isLong() {
        return core != null;
    }

    private static boolean occursOnWordBoundaries(String haystack, String needle) {
        boolean checkLeft = isWordChar(needle.charAt(0));
        boolean checkRight = isWordChar(needle.charAt(needle.length() - 1));
        for (int at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) {
            int end = at + needle.length();
            boolean leftOk = !checkLeft || at == 0 || !isWordChar(haystack.charAt(at - 1));
            boolean rightOk = !checkRight || end == haystack.length() || !isWordChar(haystack.charAt(end));
            if (leftOk && rightOk) {
                return true;
            }
        }
        return false;
    }

    private static boolean isWordChar(char c) {
        return Character.isLetterOrDigit(c);
    }
}
