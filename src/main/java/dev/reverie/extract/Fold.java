package dev.reverie.extract;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;

/**
 * Length-preserving case and accent folding: {@code fold(s).length() == s.length()} and every
 * character maps to exactly one character, so an offset found by a pattern on the folded copy is
 * the same offset in the original (which keeps the user's capitals and accents for values).
 * Curly quotes become straight ones. Stateless and thread-safe.
 */
final class Fold {

    private static final char[] LATIN = new char[0x250];

    static {
        for (char c = 0; c < LATIN.length; c++) {
            String d = Normalizer.normalize(String.valueOf(c), Normalizer.Form.NFD);
            LATIN[c] = Character.toLowerCase(d.length() > 1 && Character.getType(d.charAt(1)) == Character.NON_SPACING_MARK
                    ? d.charAt(0) : c);
        }
        LATIN[0xA0] = ' ';
        LATIN[0xB4] = '\'';
        LATIN['`'] = '\'';
        LATIN[0xAB] = '"';
        LATIN[0xBB] = '"';
    }

    private Fold() {
    }

    static String fold(String s) {
        char[] out = new char[s.length()];
        for (int i = 0; i < out.length; i++) {
            out[i] = fold(s.charAt(i));
        }
        return new String(out);
    }

    static char fold(char c) {
        if (c < LATIN.length) {
            return LATIN[c];
        }
        switch (c) {
            case '\u2018', '\u2019', '\u201A', '\u201B', '\u2032':
                return '\'';
            case '\u201C', '\u201D', '\u201E', '\u201F', '\u2033':
                return '"';
            case '\u2013', '\u2014', '\u2212':
                return '-';
            case '\u2026':
                return '.';
            case '\u202F', '\u2009', '\u2007':
                return ' ';
            default:
                return Character.toLowerCase(c);
        }
    }

    /** Word tokens of a folded string: letters and digits, with apostrophes kept inside words ("i'm"). */
    static List<String> tokens(String folded) {
        List<int[]> spans = wordSpans(folded);
        List<String> out = new ArrayList<>(spans.size());
        for (int[] s : spans) {
            out.add(folded.substring(s[0], s[1]));
        }
        return out;
    }

    /** Offsets of the {@link #tokens} of {@code folded}. */
    static List<int[]> wordSpans(String folded) {
        List<int[]> out = new ArrayList<>();
        int n = folded.length();
        int i = 0;
        while (i < n) {
            while (i < n && !Character.isLetterOrDigit(folded.charAt(i))) {
                i++;
            }
            int start = i;
            while (i < n) {
                char c = folded.charAt(i);
                if (Character.isLetterOrDigit(c)) {
                    i++;
                } else if (c == '\'' && i + 1 < n && Character.isLetter(folded.charAt(i + 1)) && i > start) {
                    i++;
                } else {
                    break;
                }
            }
            if (i > start) {
                out.add(new int[] {start, i});
            }
        }
        return out;
    }

    /** Start and end offsets of the word tokens of {@code folded} within {@code [from, to)}. */
    static List<int[]> tokenSpans(String folded, int from, int to) {
        List<int[]> out = new ArrayList<>();
        int i = from;
        while (i < to) {
            while (i < to && !Character.isLetterOrDigit(folded.charAt(i))) {
                i++;
            }
            int start = i;
            while (i < to) {
                char c = folded.charAt(i);
                if (Character.isLetterOrDigit(c) || ((c == '\'' || c == '-' || c == '+' || c == '#' || c == '.')
                        && i + 1 < to && i > start && Character.isLetterOrDigit(folded.charAt(i + 1)))) {
                    i++;
                } else if ((c == '+' || c == '#') && i > start) {
                    i++;
                } else {
                    break;
                }
            }
            if (i > start) {
                out.add(new int[] {start, i});
            }
        }
        return out;
    }

    /** A short stable hash (FNV-1a, 64 bit, 10 hex digits) of the folded word tokens of {@code text}. */
    static String stableHash(String text) {
        long h = 0xcbf29ce484222325L;
        boolean first = true;
        for (String token : tokens(fold(text))) {
            if (!first) {
                h ^= ' ';
                h *= 0x100000001b3L;
            }
            first = false;
            for (int i = 0; i < token.length(); i++) {
                h ^= token.charAt(i);
                h *= 0x100000001b3L;
            }
        }
        String hex = Long.toHexString(h);
        hex = "0".repeat(16 - hex.length()) + hex;
        return hex.substring(0, 10);
    }
}
