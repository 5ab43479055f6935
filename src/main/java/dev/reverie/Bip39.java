package dev.reverie;

import dev.reverie.SecretValidator.Span;
import dev.reverie.internal.Resources;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * BIP-39 seed phrases (the English list of 2,048 words, {@code bip39-english.txt}): finds a run of
 * exactly 12, 15, 18, 21 or 24 list words whose last bits are the checksum of the rest, as a wallet
 * writes them (or one with up to four chat words that are list words too at one end: "please keep this safe").
 * Stateless and thread-safe.
 */
final class Bip39 {

    private Bip39() {
    }

    private static final int[] SIZES = {24, 21, 18, 15, 12};

    /** The span of the longest valid phrase among the words of {@code text[start, end)}, or {@code null}. */
    static Span find(String text, int start, int end) {
        Map<String, Integer> index = Words.INDEX;
        List<int[]> words = new ArrayList<>(); // start, end, list index (-1: not a list word)
        int i = start;
        while (i < end) {
            while (i < end && !Character.isLetter(text.charAt(i))) {
                i++;
            }
            int ws = i;
            while (i < end && Character.isLetter(text.charAt(i))) {
                i++;
            }
            if (i > ws) {
                // a phone capitalises the first word
                Integer at = index.get(text.substring(ws, i).toLowerCase(java.util.Locale.ROOT));
                words.add(new int[] {ws, i, at == null ? -1 : at});
            }
        }
        int runStart = 0;
        for (int w = 0; w <= words.size(); w++) {
            if (w == words.size() || words.get(w)[2] < 0) {
                Span s = inRun(words, runStart, w);
                if (s != null) {
                    return s;
                }
                runStart = w + 1;
            }
        }
        return null;
    }

    /**
     * A phrase written as a numbered list in any layout — one word a line, two or three columns read
     * across ("1. weekend    7. divide⏎2. zero    8. spice …"), any case: the words numbered 1 to N (N a
     * phrase's length, every number once, each a list word) put in their numbers' order must pass the
     * checksum. The span runs from the first numbered word to the last. {@code null} when not.
     */
    static Span findNumbered(String text, int start, int end) {
        Map<String, Integer> index = Words.INDEX;
        java.util.regex.Matcher m = NUMBERED.matcher(text).region(start, end);
        Map<Integer, int[]> byNumber = new java.util.HashMap<>();
        int first = -1;
        int last = -1;
        while (m.find()) {
            int number = Integer.parseInt(m.group(1));
            Integer at = index.get(m.group(2).toLowerCase(java.util.Locale.ROOT));
            if (at == null || number < 1 || number > 24 || byNumber.containsKey(number)) {
                return null; // a word off the list, or a number twice: a numbered list of something else
            }
            byNumber.put(number, new int[] {m.start(2), m.end(2), at});
            first = first < 0 ? m.start(2) : Math.min(first, m.start(2));
            last = Math.max(last, m.end(2));
        }
        int size = byNumber.size();
        boolean phraseLength = false;
        for (int n : SIZES) {
            phraseLength |= n == size;
        }
        if (!phraseLength) {
            return null;
        }
        List<int[]> ordered = new ArrayList<>(size);
        for (int n = 1; n <= size; n++) {
            int[] w = byNumber.get(n);
            if (w == null) {
                return null;
            }
            ordered.add(w);
        }
        return checksumHolds(ordered, 0, size) ? new Span(first, last) : null;
    }

    /** A number, a dot, a parenthesis or a colon (or nothing), and a word: "1. weekend", "12) loyal", "3:ABSENT". */
    private static final java.util.regex.Pattern NUMBERED = java.util.regex.Pattern.compile(
            "(?<![\\p{L}\\p{N}])(\\d{1,2})[.):\\-]?[ \\t]{0,4}([A-Za-z]{3,8})(?![\\p{L}])");

    /**
     * The run {@code [from, to)} as a phrase when it is exactly a phrase's length and its checksum
     * holds: a longer run of list words (a shopping list: "sauce noodle beef salt …") is not searched
     * for a window that happens to pass, as one in 16 twelve-word windows would.
     */
    private static Span inRun(List<int[]> words, int from, int to) {
        int length = to - from;
        for (int size : SIZES) {
            if (size == length && checksumHolds(words, from, size)) {
                return new Span(words.get(from)[0], words.get(to - 1)[1]);
            }
        }
        // "please keep this safe <phrase>": up to four chat words that are list words too, at one end
        for (int size : SIZES) {
            int extra = length - size;
            if (extra < 1 || extra > 4) {
                continue;
            }
            if (chatWords(words, from, from + extra) && checksumHolds(words, from + extra, size)) {
                return new Span(words.get(from + extra)[0], words.get(to - 1)[1]);
            }
            if (chatWords(words, to - extra, to) && checksumHolds(words, from, size)) {
                return new Span(words.get(from)[0], words.get(from + size - 1)[1]);
            }
        }
        return null;
    }

    /** Whether the words {@code [from, to)} are ones a chat puts around a phrase ("keep this safe", "my new wallet"). */
    private static boolean chatWords(List<int[]> words, int from, int to) {
        for (int w = from; w < to; w++) {
            if (!CHAT_WORDS.contains(words.get(w)[2])) {
                return false;
            }
        }
        return true;
    }

    /** List indexes of the list words a chat puts around a phrase. */
    private static final java.util.Set<Integer> CHAT_WORDS = chatWordIndexes("keep", "this", "safe", "here", "new",
            "wallet", "phrase", "seed", "word", "save", "secret", "backup", "note", "copy", "write", "down", "also",
            "just", "only", "again", "now", "please", "that", "it", "is", "my", "your", "the", "and", "of");

    private static boolean checksumHolds(List<int[]> words, int at, int size) {
        int bits = size * 11;
        int checksumBits = bits / 33;
        int entropyBytes = (bits - checksumBits) / 8;
        byte[] all = new byte[(bits + 7) / 8];
        for (int w = 0; w < size; w++) {
            int value = words.get(at + w)[2];
            for (int b = 0; b < 11; b++) {
                if ((value >> (10 - b) & 1) != 0) {
                    int bit = w * 11 + b;
                    all[bit / 8] |= (byte) (0x80 >>> (bit % 8));
                }
            }
        }
        byte[] hash;
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(all, 0, entropyBytes);
            hash = sha.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
        int expected = (hash[0] & 0xFF) >>> (8 - checksumBits);
        int actual = (all[entropyBytes] & 0xFF) >>> (8 - checksumBits);
        return expected == actual;
    }

    private static java.util.Set<Integer> chatWordIndexes(String... chat) {
        java.util.Set<Integer> out = new java.util.HashSet<>();
        for (String w : chat) {
            Integer at = Words.INDEX.get(w);
            if (at != null) {
                out.add(at);
            }
        }
        return java.util.Set.copyOf(out);
    }

    /** The list, loaded once. */
    private static final class Words {
        static final Map<String, Integer> INDEX = load();

        private static Map<String, Integer> load() {
            List<String> words = Resources.entries(Bip39.class, "bip39-english.txt");
            if (words.size() != 2048) {
                throw new IllegalStateException("bip39-english.txt must hold 2048 words, holds " + words.size());
            }
            Map<String, Integer> index = new HashMap<>(4096);
            for (String w : words) {
                index.put(w, index.size());
            }
            return Map.copyOf(index);
        }
    }
}
