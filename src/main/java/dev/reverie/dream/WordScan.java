package dev.reverie.dream;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Hand-written scans that give exactly what the dream's word-bounded regular expressions gave
 * (Java 17's {@code java.util.regex}: {@code \b} between a word character — a letter, a digit or
 * {@code _}, or a non-spacing mark that follows one — and anything else), without running an
 * expression over every text of every night. Deep sleep scored each episode with half a dozen
 * expressions (past tense, plans, dates, names, sentences); these were about a third of a night's
 * CPU. {@code WordScanTest} checks each scan against the expression it replaces on generated
 * texts. Stateless; thread-safe.
 */
final class WordScan {

    private WordScan() {
    }

    /** A word character as {@code \b} sees it in Java 17: a letter, a digit or an underscore. */
    static boolean wordChar(int cp) {
        return cp == '_' || Character.isLetterOrDigit(cp);
    }

    /** Whether the code point that ends just before {@code i} belongs to a word (as {@code \b} decides). */
    static boolean wordBefore(CharSequence s, int i) {
        if (i <= 0) {
            return false;
        }
        int cp = Character.codePointBefore(s, i);
        return wordChar(cp) || (Character.getType(cp) == Character.NON_SPACING_MARK && hasBase(s, i - 1));
    }

    /** Whether the code point at {@code i} belongs to a word (as {@code \b} decides). */
    static boolean wordAt(CharSequence s, int i) {
        if (i >= s.length()) {
            return false;
        }
        int cp = Character.codePointAt(s, i);
        return wordChar(cp) || (Character.getType(cp) == Character.NON_SPACING_MARK && hasBase(s, i));
    }

    /** A non-spacing mark counts as a word character when it follows a letter or digit (over other marks). */
    private static boolean hasBase(CharSequence s, int i) {
        for (int x = i; x >= 0; x--) {
            int cp = Character.codePointAt(s, x);
            if (Character.isLetterOrDigit(cp)) {
                return true;
            }
            if (Character.getType(cp) != Character.NON_SPACING_MARK) {
                return false;
            }
        }
        return false;
    }

    /**
     * The words of {@code s} as {@code \b} delimits them, as [start, end) pairs in one array, by
     * start: each starts where a word character follows a non-word one (or the text's start) and ends
     * at the next non-word character. An expression {@code \b(w1|w2)\b} whose alternatives are made of
     * letters matches exactly such a word equal to one of them. Usually the words are the maximal runs
     * of word characters; a combining mark outside the basic plane after a letter is the exception
     * ({@code \b} counts it as part of the word seen from the right, not from the left), so a word may
     * start inside a run, and the two overlap.
     */
    static int[] runs(String s) {
        int[] out = new int[16];
        int n = 0;
        int len = s.length();
        for (int i = 0; i < len; i += Character.charCount(s.codePointAt(i))) {
            if (!wordAt(s, i) || wordBefore(s, i)) {
                continue;
            }
            int end = i;
            while (end < len && wordAt(s, end)) {
                end += Character.charCount(s.codePointAt(end));
            }
            if (n + 2 > out.length) {
                out = java.util.Arrays.copyOf(out, out.length * 2);
            }
            out[n++] = i;
            out[n++] = end;
        }
        return java.util.Arrays.copyOf(out, n);
    }

    /** Whether {@code s} holds {@code phrase} between two word boundaries; the phrase starts and ends with a word character. */
    static boolean containsWord(String s, String phrase) {
        int from = 0;
        while (true) {
            int at = s.indexOf(phrase, from);
            if (at < 0) {
                return false;
            }
            if (!wordBefore(s, at) && !wordAt(s, at + phrase.length())) {
                return true;
            }
            from = at + 1;
        }
    }

    /** Whether {@code s} holds any of {@code phrases} between word boundaries (see {@link #containsWord}). */
    static boolean containsAnyWord(String s, List<String> phrases) {
        for (String p : phrases) {
            if (containsWord(s, p)) {
                return true;
            }
        }
        return false;
    }

    /** Whether every code point of {@code s} in [start, end) is a letter ({@code \p{L}}). */
    static boolean letters(String s, int start, int end) {
        for (int i = start; i < end; ) {
            int cp = s.codePointAt(i);
            if (!Character.isLetter(cp)) {
                return false;
            }
            i += Character.charCount(cp);
        }
        return true;
    }

    /**
     * Whether some run of {@code s} is one of {@code words}, or is all letters, at least
     * {@code minLetters} code points long and ends in {@code suffix} (as {@code \b(w1|…|\p{L}{k,}suffix)\b}
     * with {@code k = minLetters − suffix length}).
     */
    static boolean anyRun(String s, Set<String> words, String suffix, int minLetters) {
        int[] r = runs(s);
        for (int k = 0; k < r.length; k += 2) {
            String run = s.substring(r[k], r[k + 1]);
            if (words.contains(run)) {
                return true;
            }
            if (suffix != null && run.endsWith(suffix) && run.codePointCount(0, run.length()) >= minLetters
                    && letters(run, 0, run.length())) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether some run of {@code s} is one of {@code single}, a year 1900–2099 written as four ASCII
     * digits, or a word of {@code pairs} followed by one space and one of the words it maps to (as
     * the alternatives "last week", "semana passada" of a {@code \b(…)\b} expression).
     */
    static boolean anyDateWord(String s, Set<String> single, Map<String, Set<String>> pairs) {
        int[] r = runs(s);
        for (int k = 0; k < r.length; k += 2) {
            String run = s.substring(r[k], r[k + 1]);
            if (single.contains(run) || year(run)) {
                return true;
            }
            Set<String> seconds = pairs.get(run);
            if (seconds != null && r[k + 1] < s.length() && s.charAt(r[k + 1]) == ' ') {
                int next = r[k + 1] + 1;
                for (int j = k + 2; j < r.length && r[j] <= next; j += 2) {
                    if (r[j] == next && seconds.contains(s.substring(r[j], r[j + 1]))) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private static boolean year(String run) {
        return run.length() == 4 && (run.startsWith("19") || run.startsWith("20")) && asciiDigit(run.charAt(2))
                && asciiDigit(run.charAt(3));
    }

    private static boolean asciiDigit(char c) {
        return c >= '0' && c <= '9';
    }

    /** A whitespace character as {@code \s} matches it (ASCII only). */
    static boolean regexSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == 0x0B || c == '\f' || c == '\r';
    }

    /**
     * Whether {@code s} holds one of {@code openers} after a word boundary, then whitespace, then a
     * word of letters (at least four code points) ending in one of {@code suffixes}: as
     * {@code \b(o1|o2)\s+\p{L}+(s1|s2)\b} with three-letter suffixes.
     */
    static boolean openerThenWord(String s, List<String> openers, List<String> suffixes) {
        for (String opener : openers) {
            int from = 0;
            while (true) {
                int at = s.indexOf(opener, from);
                if (at < 0) {
                    break;
                }
                from = at + 1;
                if (wordBefore(s, at)) {
                    continue;
                }
                int k = at + opener.length();
                int spaces = k;
                while (k < s.length() && regexSpace(s.charAt(k))) {
                    k++;
                }
                if (k == spaces || !wordAt(s, k)) {
                    continue;
                }
                int end = k;
                while (end < s.length() && wordAt(s, end)) {
                    end += Character.charCount(s.codePointAt(end));
                }
                String word = s.substring(k, end);
                if (word.codePointCount(0, word.length()) >= 4 && letters(word, 0, word.length())
                        && suffixes.stream().anyMatch(word::endsWith)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * The sentences of {@code text} as {@code [^stops]+[ends]*} finds them: each stretch without a
     * stop character together with the end characters that follow it (a stop that is not an end,
     * such as a line break, is left out; stops before any text belong to no sentence).
     */
    static List<String> sentences(String text, String stops, String ends) {
        List<String> out = new ArrayList<>();
        int i = 0;
        int len = text.length();
        while (i < len) {
            if (stops.indexOf(text.charAt(i)) >= 0) {
                i++;
                continue;
            }
            int start = i;
            while (i < len && stops.indexOf(text.charAt(i)) < 0) {
                i++;
            }
            while (i < len && ends.indexOf(text.charAt(i)) >= 0) {
                i++;
            }
            out.add(text.substring(start, i));
        }
        return out;
    }

    /**
     * The capitalized words of {@code s} as [start, end) pairs in one array: an upper-case letter
     * ({@code \p{Lu}}), after a word boundary when {@code bounded}, then letters, apostrophes and
     * hyphens, and digits when {@code digits} — as {@code \b\p{Lu}[\p{L}'’-]*} or
     * {@code \p{Lu}[\p{L}\p{N}'’-]*} find them.
     */
    static int[] capitalized(String s, boolean bounded, boolean digits) {
        int[] out = new int[8];
        int n = 0;
        int i = 0;
        int len = s.length();
        while (i < len) {
            int cp = s.codePointAt(i);
            if (Character.getType(cp) != Character.UPPERCASE_LETTER || (bounded && wordBefore(s, i))) {
                i += Character.charCount(cp);
                continue;
            }
            int start = i;
            i += Character.charCount(cp);
            while (i < len) {
                int c = s.codePointAt(i);
                if (Character.isLetter(c) || c == '\'' || c == '’' || c == '-' || (digits && number(c))) {
                    i += Character.charCount(c);
                } else {
                    break;
                }
            }
            if (n + 2 > out.length) {
                out = java.util.Arrays.copyOf(out, out.length * 2);
            }
            out[n++] = start;
            out[n++] = i;
        }
        return java.util.Arrays.copyOf(out, n);
    }

    /** {@code \p{N}}: a decimal digit, a letter number or another number. */
    private static boolean number(int cp) {
        int t = Character.getType(cp);
        return t == Character.DECIMAL_DIGIT_NUMBER || t == Character.LETTER_NUMBER || t == Character.OTHER_NUMBER;
    }
}
