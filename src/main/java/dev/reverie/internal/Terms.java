package dev.reverie.internal;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The one home of text analysis: case and accent folding, word tokens, stop words and term-set
 * similarity, for the stores' queries, the extractor's rules, the dream cycle and diversification.
 * Where two users need genuinely different behaviour, each has its own named function here (the
 * differences are in each function's javadoc):
 *
 * <ul>
 *   <li>{@link #fold} (NFKD, marks and format characters removed, lower case: may change the length)
 *       for terms and comparisons, and {@link #foldKeepingLength} (one character for one, Latin-1 and
 *       Latin Extended-A/B accents, curly quotes and dashes) for the extractor, whose patterns find
 *       offsets on the folded copy and cut values from the original;</li>
 *   <li>{@link #of} (query terms: letters and digits, stop words dropped unless nothing else is
 *       left), {@link #words} (every folded word), {@link #wordTokens} (apostrophes kept inside words)
 *       and {@link #tokenSpans} (also {@code c++}, {@code node.js});</li>
 *   <li>{@link #normalizeForIndex} (NFKC without format characters): the Lucene store's analyzer runs
 *       it before its tokenizer, stemmer and ASCII folding, which stay in the store because indexes
 *       written with them must stay searchable, and the secret redactor reads a text through it to
 *       find secrets disguised with invisible or full-width characters;</li>
 *   <li>{@link #comparisonTerms} (what diversification compares: {@link #of}'s terms, with runs of
 *       scripts written without spaces, such as Chinese, Japanese or Thai, cut into overlapping
 *       character pairs; the dream's merges keep {@link #contentTerms});</li>
 *   <li>{@link #jaccard} of term sets (0 when either is empty) and {@link #jaccardOfSortedHashes}
 *       (1 when both are empty, as diversification has always counted two term-less texts alike).</li>
 * </ul>
 *
 * Stateless and thread-safe. Not API.
 */
public final class Terms {
    private static final Pattern MARKS = Pattern.compile("\\p{M}+");
    /** Invisible format characters (zero-width space and joiners, BOM, bidi marks, soft hyphen): never part of a word. */
    private static final Pattern FORMAT = Pattern.compile("\\p{Cf}+");
    /** The content-term limit of {@link #contentTerms}. */
    private static final int MAX_CONTENT_TERMS = 256;
    /** {@link #foldKeepingLength} of the characters below U+0250: lower case, the base letter of an accented one. */
    private static final char[] LATIN = new char[0x250];

    static {
        for (char c = 0; c < LATIN.length; c++) {
            String d = Normalizer.normalize(String.valueOf(c), Normalizer.Form.NFD);
            LATIN[c] = Character.toLowerCase(
                    d.length() > 1 && Character.getType(d.charAt(1)) == Character.NON_SPACING_MARK ? d.charAt(0) : c);
        }
        LATIN[0xA0] = ' ';
        LATIN[0xB4] = '\'';
        LATIN['`'] = '\'';
        LATIN[0xAB] = '"';
        LATIN[0xBB] = '"';
    }

    /** English function words beyond Lucene's short default list (pronouns, auxiliaries, question words). */
    private static final List<String> MORE_ENGLISH =
            Resources.entries(Terms.class, "words/more-english-stop-words.txt");

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
        int at = 0;
        while (out.size() < max) {
            int start = wordStart(folded, at);
            if (start < 0) {
                break;
            }
            at = wordEnd(folded, start);
            String t = folded.substring(start, at);
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

    /**
     * The content terms of a text as a set ({@link #of}, at most 256), for {@link #jaccard}: what the
     * dream's near-duplicate rules compare. Not {@link #comparisonTerms}: a clause of a script written
     * without spaces stays one term here, so two such sentences merge only when that clause is the
     * same; character pairs would make "every Monday" and "every Tuesday", or two phone numbers, look
     * alike enough to merge, and a merge loses a fact.
     */
    public static Set<String> contentTerms(String text) {
        return new LinkedHashSet<>(of(text, MAX_CONTENT_TERMS));
    }

    /**
     * The terms diversification compares texts by: {@link #of}'s word terms, except that in a word
     * holding three or more characters of a script written without spaces between words (Han,
     * Hiragana, Katakana, Thai, Lao, Khmer, Myanmar), where a whole clause is one word to {@link #of},
     * each run of those characters becomes its overlapping two-character pieces and each other run
     * (digits, Latin letters) stays one term, so two sentences that differ in one character share
     * most of their terms instead of none. In order, without duplicates, at most {@code max}. Only for
     * ranking (a false likeness lowers a candidate's diversity bonus); the dream's merges use
     * {@link #contentTerms}.
     */
    public static List<String> comparisonTerms(String text, int max) {
        List<String> words = of(text, max);
        List<String> out = null;
        for (int k = 0; k < words.size(); k++) {
            String w = words.get(k);
            if (!unspaced(w)) {
                if (out != null) {
                    out.add(w);
                }
                continue;
            }
            if (out == null) {
                out = new ArrayList<>(words.subList(0, k));
            }
            int[] cps = w.codePoints().toArray();
            int from = 0;
            while (from < cps.length) {
                boolean pairs = unspacedScript(cps[from]);
                int to = from + 1;
                while (to < cps.length && unspacedScript(cps[to]) == pairs) {
                    to++;
                }
                if (!pairs || to - from == 1) {
                    out.add(new String(cps, from, to - from));
                } else {
                    for (int i = from; i + 1 < to; i++) {
                        out.add(new String(cps, i, 2));
                    }
                }
                from = to;
            }
        }
        if (out == null) {
            return words;
        }
        List<String> distinct = new ArrayList<>(new LinkedHashSet<>(out));
        return distinct.size() > max ? distinct.subList(0, max) : distinct;
    }

    /** Whether a word has three or more code points and one of them is of a script written without spaces. */
    private static boolean unspaced(String word) {
        if (word.codePointCount(0, word.length()) < 3) {
            return false;
        }
        return word.codePoints().anyMatch(Terms::unspacedScript);
    }

    /** Whether a character belongs to a script written without spaces between words. */
    private static boolean unspacedScript(int cp) {
        if (cp < 0x0E00) { // below: Latin, Greek, Cyrillic, Arabic, Indic scripts, all written with spaces
            return false;
        }
        return switch (Character.UnicodeScript.of(cp)) {
            case HAN, HIRAGANA, KATAKANA, THAI, LAO, KHMER, MYANMAR -> true;
            default -> false;
        };
    }

    /** Every {@link #fold folded} word of a text (letters and digits), in order, common words included. */
    public static List<String> words(String text) {
        return text == null ? new ArrayList<>() : foldedWords(fold(text));
    }

    /** The words (letters and digits) of an already folded text, in order. */
    public static List<String> foldedWords(String folded) {
        List<String> out = new ArrayList<>();
        for (int start = wordStart(folded, 0); start >= 0; ) {
            int end = wordEnd(folded, start);
            out.add(folded.substring(start, end));
            start = wordStart(folded, end);
        }
        return out;
    }

    /*
     * A word is a maximal run of letters and digits, exactly what the regular expression
     * [\p{L}\p{N}]+ finds (by code point), scanned by hand: that expression was a sixth of the dream
     * cycle's time.
     */

    /** Where the next word starts at or after {@code from}, or -1. */
    private static int wordStart(String s, int from) {
        int i = from;
        while (i < s.length()) {
            int cp = s.codePointAt(i);
            if (wordChar(cp)) {
                return i;
            }
            i += Character.charCount(cp);
        }
        return -1;
    }

    /** Where the word starting at {@code start} ends (exclusive). */
    private static int wordEnd(String s, int start) {
        int i = start;
        while (i < s.length()) {
            int cp = s.codePointAt(i);
            if (!wordChar(cp)) {
                return i;
            }
            i += Character.charCount(cp);
        }
        return i;
    }

    /** {@code \p{L}} or {@code \p{N}}: a letter (Lu, Ll, Lt, Lm, Lo) or a number (Nd, Nl, No). */
    static boolean wordChar(int cp) {
        if (cp < 0x80) {
            return (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') || (cp >= '0' && cp <= '9');
        }
        int type = Character.getType(cp);
        return (type >= Character.UPPERCASE_LETTER && type <= Character.OTHER_LETTER)
                || (type >= Character.DECIMAL_DIGIT_NUMBER && type <= Character.OTHER_NUMBER);
    }

    /** A value reduced to its folded words joined by single spaces ({@code "Recife, PE"} → {@code "recife pe"}). */
    public static String normalizeValue(String value) {
        return String.join(" ", words(value));
    }

    /** Token-set Jaccard similarity; 0 when either set is empty. */
    public static double jaccard(Set<String> a, Set<String> b) {
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

    /**
     * Jaccard similarity of two sorted, distinct term-hash sets (see {@code TermSetCache}); 1 when
     * both are empty, unlike {@link #jaccard}.
     */
    public static double jaccardOfSortedHashes(long[] a, long[] b) {
        if (a.length == 0 && b.length == 0) {
            return 1;
        }
        // a merge without data-dependent branches (the JIT emits conditional moves): a mispredicted
        // branch per step made it half the cost of MMR on long candidate lists
        int inter = 0;
        int i = 0;
        int j = 0;
        while (i < a.length && j < b.length) {
            long x = a[i];
            long y = b[j];
            inter += x == y ? 1 : 0;
            i += x <= y ? 1 : 0;
            j += x >= y ? 1 : 0;
        }
        return (double) inter / (a.length + b.length - inter);
    }

    /**
     * NFKC with invisible format characters removed, what the Lucene store's analyzer feeds its
     * tokenizer. Unlike {@link #fold} it keeps case and accents (the analyzer's own filters lower-case
     * and ASCII-fold), composes rather than decomposes, and removes format characters one UTF-16 unit
     * at a time (a supplementary format character stays, as it always has in existing indexes).
     */
    public static String normalizeForIndex(String text) {
        StringBuilder visible = null;
        for (int i = 0; i < text.length(); i++) {
            char ch = text.charAt(i);
            if (Character.getType(ch) == Character.FORMAT) {
                if (visible == null) {
                    visible = new StringBuilder(text.length()).append(text, 0, i);
                }
            } else if (visible != null) {
                visible.append(ch);
            }
        }
        String s = visible == null ? text : visible.toString();
        return Normalizer.isNormalized(s, Normalizer.Form.NFKC) ? s : Normalizer.normalize(s, Normalizer.Form.NFKC);
    }

    // ---- length-preserving folding and the extractor's tokens

    public static String foldKeepingLength(String s) {
        char[] out = new char[s.length()];
        for (int i = 0; i < out.length; i++) {
            out[i] = foldKeepingLength(s.charAt(i));
        }
        return new String(out);
    }

    public static char foldKeepingLength(char c) {
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

    /** Word tokens of a {@link #foldKeepingLength folded} string: letters, digits and inner apostrophes ("i'm"). */
    public static List<String> wordTokens(String folded) {
        List<int[]> spans = wordSpans(folded);
        List<String> out = new ArrayList<>(spans.size());
        for (int[] s : spans) {
            out.add(folded.substring(s[0], s[1]));
        }
        return out;
    }

    /** Offsets of the {@link #wordTokens} of {@code folded}. */
    public static List<int[]> wordSpans(String folded) {
        return spans(folded, 0, folded.length(), false);
    }

    /**
     * Start and end offsets of the word tokens of {@code folded} within {@code [from, to)}; unlike
     * {@link #wordSpans} a token may also hold {@code - + # .} between letters or digits and end in
     * {@code +} or {@code #} ({@code c++}, {@code c#}, {@code node.js}, {@code well-known}).
     */
    public static List<int[]> tokenSpans(String folded, int from, int to) {
        return spans(folded, from, to, true);
    }

    private static List<int[]> spans(String folded, int from, int to, boolean names) {
        List<int[]> out = new ArrayList<>();
        int i = from;
        while (i < to) {
            while (i < to && !Character.isLetterOrDigit(folded.charAt(i))) {
                i++;
            }
            int start = i;
            while (i < to && continues(folded, i, to, names)) {
                i++;
            }
            if (i > start) {
                out.add(new int[] {start, i});
            }
        }
        return out;
    }

    /**
     * Whether the character at {@code i}, inside a token that began before it, belongs to the token:
     * a letter or digit; an apostrophe before a letter; with {@code names}, also an apostrophe,
     * {@code - + # .} before a letter or digit, and a trailing {@code +} or {@code #}.
     */
    private static boolean continues(String folded, int i, int to, boolean names) {
        char c = folded.charAt(i);
        if (Character.isLetterOrDigit(c)) {
            return true;
        }
        boolean beforeNext = i + 1 < to;
        if (!names) {
            return c == '\'' && beforeNext && Character.isLetter(folded.charAt(i + 1));
        }
        return (c == '\'' || c == '-' || c == '+' || c == '#' || c == '.') && beforeNext
                && Character.isLetterOrDigit(folded.charAt(i + 1)) || c == '+' || c == '#';
    }

    /** A short stable hash (FNV-1a, 64 bit, 10 hex digits) of the {@link #wordTokens} of {@code text}, folded. */
    public static String stableHash(String text) {
        long h = 0xcbf29ce484222325L;
        boolean first = true;
        for (String token : wordTokens(foldKeepingLength(text))) {
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

    /**
     * A 64-bit hash of text, for caches keyed by content without keeping the text (never stored):
     * FNV-1a in four lanes over the interleaved UTF-16 chars, each lane through a murmur finalizer,
     * the lanes combined by position and finalized again with the length, so every bit depends on
     * every char.
     */
    public static long hash64(String text) {
        // four FNV-1a lanes over interleaved characters: the lanes' multiplications do not wait on
        // each other, so a long text (a record's JSON) hashes several times faster than one chain
        long h0 = 0xCBF2_9CE4_8422_2325L;
        long h1 = 0x84222325CBF29CE4L;
        long h2 = 0x9E37_79B9_7F4A_7C15L;
        long h3 = 0xD6E8_FEB8_6659_FD93L;
        int n = text.length();
        int i = 0;
        for (; i + 3 < n; i += 4) {
            h0 = (h0 ^ text.charAt(i)) * 0x1000_0000_01B3L;
            h1 = (h1 ^ text.charAt(i + 1)) * 0x1000_0000_01B3L;
            h2 = (h2 ^ text.charAt(i + 2)) * 0x1000_0000_01B3L;
            h3 = (h3 ^ text.charAt(i + 3)) * 0x1000_0000_01B3L;
        }
        for (; i < n; i++) {
            h0 = (h0 ^ text.charAt(i)) * 0x1000_0000_01B3L;
        }
        // lanes combined by position (not symmetric: swapping two lanes' text changes the hash)
        long h = ((mix64(h0) * 31 + mix64(h1)) * 31 + mix64(h2)) * 31 + mix64(h3);
        return mix64(h ^ n);
    }

    /** MurmurHash3's 64-bit finalizer. */
    static long mix64(long h) {
        h ^= h >>> 33;
        h *= 0xFF51_AFD7_ED55_8CCDL;
        h ^= h >>> 33;
        h *= 0xC4CE_B9FE_1A85_EC53L;
        h ^= h >>> 33;
        return h;
    }

    /**
     * Whether the folded {@code word} is an ordinary word: one of the 2,048 common English words of the
     * BIP-39 list or of the extractor's stop, filler and informal words. What a label or a subject that
     * is no one's name reads as ("lunch:", "Everything is like, …"); read by the extractor and
     * {@link PastedContent}.
     */
    public static boolean ordinaryWord(String word) {
        return ORDINARY_WORDS.contains(word);
    }

    private static final java.util.Set<String> ORDINARY_WORDS = ordinaryWords();

    private static java.util.Set<String> ordinaryWords() {
        java.util.Set<String> out = new java.util.HashSet<>(Resources.entries(Terms.class, "/dev/reverie/bip39-english.txt"));
        for (String list : java.util.List.of("stop", "filler", "informal")) {
            out.addAll(Resources.entries(Terms.class, "/dev/reverie/extract/words/" + list + ".txt"));
        }
        return java.util.Set.copyOf(out);
    }

    /**
     * {@code text} with the characters that disguise a secret folded to what they look like: NFKC
     * without format characters ({@link #normalizeForIndex}, as the Lucene store indexes text:
     * zero-width spaces and joiners, soft hyphens and direction marks dropped, full-width forms and
     * odd spaces made ASCII), and, inside a word that mixes Latin letters with Cyrillic or Greek ones (or small
     * capitals), those letters replaced by their Latin look-alikes (a word wholly in Cyrillic or Greek is left
     * as it is). The same instance when nothing changes, which is every ASCII text.
     */
    public static String undisguised(String text) {
        int i = 0;
        while (i < text.length() && text.charAt(i) < 0x80) {
            i++;
        }
        if (i == text.length()) {
            return text;
        }
        StringBuilder out = new StringBuilder(normalizeForIndex(text));
        foldMixedWords(out);
        String folded = out.toString();
        return folded.equals(text) ? text : folded;
    }

    /** Cyrillic and Greek letters that look like Latin ones, and the Latin letters they look like. */
    private static final String LOOKALIKES = "аaеeоoрpсcуyхxіiјjѕsԁdАAВBЕEКKМMНHОOРPСCТTХXУYІIЈJЅS"
            + "αaοoρpνvιiκkυuχxΑAΒBΕEΖZΗHΙIΚKΜMΝNΟOΡPΤTΥYΧX"
            // small capitals ("ᴜsᴇʀ"), Latin letters outside ASCII that read as the capital
            + "ᴀaʙbᴄcᴅdᴇeғfɢgʜhɪiᴊjᴋkʟlᴍmɴnᴏoᴘpʀrꜱsᴛtᴜuᴠvᴡwʏyᴢz";

    /** In every word of {@code out} that holds both Latin letters and look-alikes, the look-alikes made Latin. */
    private static void foldMixedWords(StringBuilder out) {
        int i = 0;
        while (i < out.length()) {
            if (!Character.isLetterOrDigit(out.charAt(i))) {
                i++;
                continue;
            }
            int start = i;
            boolean latin = false;
            boolean lookalike = false;
            while (i < out.length() && Character.isLetterOrDigit(out.charAt(i))) {
                char c = out.charAt(i);
                latin |= c < 0x80 && Character.isLetter(c);
                lookalike |= latinLookalike(c) != 0;
                i++;
            }
            if (latin && lookalike) {
                for (int k = start; k < i; k++) {
                    char as = latinLookalike(out.charAt(k));
                    if (as != 0) {
                        out.setCharAt(k, as);
                    }
                }
            }
        }
    }

    /** The Latin letter {@code c} looks like when it is a Cyrillic or Greek look-alike, else 0. */
    private static char latinLookalike(char c) {
        if (c < 0x80) {
            return 0;
        }
        int at = LOOKALIKES.indexOf(c);
        return at >= 0 && at % 2 == 0 ? LOOKALIKES.charAt(at + 1) : 0;
    }
}
