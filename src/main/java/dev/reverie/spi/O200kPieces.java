package dev.reverie.spi;

/**
 * o200k_base's pre-tokenizer ({@link JTokkitTokenCounter#O200K_PIECES}) as a hand-written scanner:
 * the same pieces as the regular expression's {@code find()} loop, without its backtracking over
 * seven alternatives per position (the expression was most of the cost of counting a text whose
 * pieces the counter already knew). {@code O200kPiecesTest} compares the two on millions of generated
 * texts. Stateless, thread-safe. Package-private.
 *
 * <p>At each position the first alternative that matches wins, as in the expression:
 * <ol>
 *   <li>an optional lead character (not CR, LF, a letter or a number), then upper-case-like letters
 *       ({@code Lu Lt Lm Lo M}) and at least one lower-case-like letter ({@code Ll Lm Lo M}), then an
 *       optional contraction ({@code 's 't 're 've 'm 'll 'd}, any case);</li>
 *   <li>the same with at least one upper-case-like letter and any lower-case-like ones;</li>
 *   <li>one to three numbers;</li>
 *   <li>an optional space, symbols (not white space, letters or numbers), then CRs, LFs and slashes;</li>
 *   <li>white space ending with its last CR or LF;</li>
 *   <li>white space not followed by anything else but white space (all but the last character of a
 *       run followed by text);</li>
 *   <li>white space.</li>
 * </ol>
 */
final class O200kPieces {

    private O200kPieces() {
    }

    /** The end (exclusive) of the piece that starts at {@code start} ({@code start < text.length()}). */
    static int end(String text, int start) {
        int n = text.length();
        int c = text.codePointAt(start);
        int next = start + Character.charCount(c);
        // 1, then 2, each with the lead character first, then without it (only a mark is both a lead
        // character and a letter-like one, so only a mark tells the orders apart)
        boolean lead = lead(c) && next < n;
        int e = lead ? lowerEnding(text, next) : -1;
        if (e < 0) {
            e = lowerEnding(text, start);
        }
        if (e < 0 && lead) {
            e = upperEnding(text, next);
        }
        if (e < 0) {
            e = upperEnding(text, start);
        }
        if (e >= 0) {
            return e;
        }
        // 3
        if (number(c)) {
            int end = next;
            for (int k = 1; k < 3 && end < n; k++) {
                int d = text.codePointAt(end);
                if (!number(d)) {
                    break;
                }
                end += Character.charCount(d);
            }
            return end;
        }
        // 4
        int from = c == ' ' ? next : start;
        if (from < n && symbol(text.codePointAt(from))) {
            int end = skip(text, from, O200kPieces::symbol);
            while (end < n) {
                char d = text.charAt(end);
                if (d != '\r' && d != '\n' && d != '/') {
                    break;
                }
                end++;
            }
            return end;
        }
        // 5, 6 and 7: a white-space run
        if (!space(c)) {
            throw new IllegalStateException("no o200k piece starts at " + start); // every character is one of the kinds
        }
        int runEnd = next;
        int lastBreak = c == '\r' || c == '\n' ? next : -1;
        int lastStart = start;
        while (runEnd < n) {
            int d = text.codePointAt(runEnd);
            if (!space(d)) {
                break;
            }
            lastStart = runEnd;
            runEnd += Character.charCount(d);
            if (d == '\r' || d == '\n') {
                lastBreak = runEnd;
            }
        }
        if (lastBreak > 0) {
            return lastBreak;
        }
        if (runEnd == n || lastStart == start) {
            return runEnd; // 6 at the end of the text; 7 for a single white space before text
        }
        return lastStart; // 6: the last white space stays for the piece after it
    }

    /**
     * The end of alternative 1 from {@code from} (upper-case-like letters, at least one lower-case-like
     * one, a contraction), or -1. The expression's backtracking, worked out: after the longest run of
     * upper-case-like letters, the lower-case-like ones that follow it; with none, the run up to its
     * last letter that is lower-case-like too.
     */
    private static int lowerEnding(String text, int from) {
        int n = text.length();
        int run = from;
        int lastLowerInRun = -1;
        while (run < n) {
            int d = text.codePointAt(run);
            if (!upperLike(d)) {
                break;
            }
            if (lowerLike(d)) {
                lastLowerInRun = run;
            }
            run += Character.charCount(d);
        }
        int end;
        if (run < n && lowerLike(text.codePointAt(run))) {
            end = skip(text, run, O200kPieces::lowerLike);
        } else if (lastLowerInRun >= 0) {
            end = lastLowerInRun + Character.charCount(text.codePointAt(lastLowerInRun));
        } else {
            return -1;
        }
        return end + contraction(text, end);
    }

    /** The end of alternative 2 from {@code from} (upper-case-like letters, lower-case-like ones, a contraction), or -1. */
    private static int upperEnding(String text, int from) {
        int end = skip(text, from, O200kPieces::upperLike);
        if (end == from) {
            return -1;
        }
        end = skip(text, end, O200kPieces::lowerLike);
        return end + contraction(text, end);
    }

    /** The end of the run of characters of {@code kind} from {@code from}. */
    private static int skip(String text, int from, java.util.function.IntPredicate kind) {
        int end = from;
        while (end < text.length()) {
            int d = text.codePointAt(end);
            if (!kind.test(d)) {
                break;
            }
            end += Character.charCount(d);
        }
        return end;
    }

    /** The length of a contraction at {@code at} ({@code 's 't 're 've 'm 'll 'd}, any case), or 0. */
    private static int contraction(String text, int at) {
        if (at + 1 >= text.length() || text.charAt(at) != '\'') {
            return 0;
        }
        char a = text.charAt(at + 1);
        if (is(a, 's') || is(a, 't') || is(a, 'm') || is(a, 'd')) {
            return 2;
        }
        if (at + 2 < text.length()) {
            char b = text.charAt(at + 2);
            if (is(a, 'r') && is(b, 'e') || is(a, 'v') && is(b, 'e') || is(a, 'l') && is(b, 'l')) {
                return 3;
            }
        }
        return 0;
    }

    /** Case-insensitive equality as {@code java.util.regex} has it with Unicode case ({@code 'ſ'} is an s). */
    private static boolean is(char c, char lower) {
        return c == lower || Character.toLowerCase(Character.toUpperCase(c)) == lower;
    }

    private static boolean upperLike(int c) {
        return switch (Character.getType(c)) {
            case Character.UPPERCASE_LETTER, Character.TITLECASE_LETTER, Character.MODIFIER_LETTER,
                    Character.OTHER_LETTER, Character.NON_SPACING_MARK, Character.ENCLOSING_MARK,
                    Character.COMBINING_SPACING_MARK -> true;
            default -> false;
        };
    }

    private static boolean lowerLike(int c) {
        return switch (Character.getType(c)) {
            case Character.LOWERCASE_LETTER, Character.MODIFIER_LETTER, Character.OTHER_LETTER,
                    Character.NON_SPACING_MARK, Character.ENCLOSING_MARK, Character.COMBINING_SPACING_MARK -> true;
            default -> false;
        };
    }

    private static boolean letter(int c) {
        return switch (Character.getType(c)) {
            case Character.UPPERCASE_LETTER, Character.LOWERCASE_LETTER, Character.TITLECASE_LETTER,
                    Character.MODIFIER_LETTER, Character.OTHER_LETTER -> true;
            default -> false;
        };
    }

    private static boolean number(int c) {
        return switch (Character.getType(c)) {
            case Character.DECIMAL_DIGIT_NUMBER, Character.LETTER_NUMBER, Character.OTHER_NUMBER -> true;
            default -> false;
        };
    }

    /** {@code [^\r\n\p{L}\p{N}]}: the optional lead character of a word. */
    private static boolean lead(int c) {
        return c != '\r' && c != '\n' && !letter(c) && !number(c);
    }

    /** {@code [^\s\p{L}\p{N}]}. */
    private static boolean symbol(int c) {
        return !space(c) && !letter(c) && !number(c);
    }

    /** {@code \s} with {@code UNICODE_CHARACTER_CLASS}: Unicode's White_Space property. */
    static boolean space(int c) {
        return c >= 0x09 && c <= 0x0D || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680
                || c >= 0x2000 && c <= 0x200A || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F
                || c == 0x3000;
    }
}
