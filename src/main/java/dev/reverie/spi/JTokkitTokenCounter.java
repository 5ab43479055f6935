package dev.reverie.spi;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.regex.Pattern;

/**
 * {@link TokenCounter} on JTokkit, behind {@link TokenCounter#o200k()}; thread-safe (JTokkit
 * encodings are, and the piece table below is lock-free). Package-private: it lives beside the
 * interface so that the SPI depends on no implementation package.
 *
 * <p>Byte-pair encoding never merges across the pre-tokenizer's pieces, so a text's count is the
 * sum of its pieces' counts; the same pieces (" the", " allergic", a user's name) recur in every
 * turn, and their BPE was most of the cost of counting a turn. So the counter splits the text with
 * o200k's pre-tokenizer (the expression below, run as the hand-written {@link O200kPieces}: the
 * expression's backtracking was then most of the cost, a tenth of a SQLite {@code buildContext})
 * and takes each piece's count from a fixed, direct-mapped table of
 * {@value #PIECE_SLOTS} entries, asking JTokkit only for a piece it has not seen (or whose entry was
 * overwritten). An entry keeps no text: two hashes of the piece, 96 bits compared (a 64-bit FNV-1a
 * and its {@code String.hashCode}), and the count; a piece is hashed where it lies in the text, so
 * a piece seen before costs no allocation. {@code PieceCountsTest} checks the sum against JTokkit's own count on
 * generated texts.
 */
final class JTokkitTokenCounter implements TokenCounter {
    /**
     * o200k_base's pre-tokenizer exactly as JTokkit 1.1 builds it ({@code EncodingFactory.o200kBase}:
     * these alternatives joined by {@code |}, compiled with {@code UNICODE_CHARACTER_CLASS}).
     */
    static final Pattern O200K_PIECES = Pattern.compile(String.join("|",
            "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+"
                    + "(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
            "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*"
                    + "(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
            "\\p{N}{1,3}",
            " ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*",
            "\\s*[\\r\\n]+",
            "\\s+(?!\\S)",
            "\\s+"), Pattern.UNICODE_CHARACTER_CLASS);
    /** Entries of the piece table (two longs each: 1 MiB). */
    static final int PIECE_SLOTS = 1 << 16;

    private static final JTokkitTokenCounter O200K = new JTokkitTokenCounter(
            Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.O200K_BASE));

    private final Encoding encoding;
    /** Entry i: [2i] the piece's 64-bit hash, [2i + 1] its {@code hashCode} (high half) and its count. */
    private final AtomicLongArray slots = new AtomicLongArray(2 * PIECE_SLOTS);

    private JTokkitTokenCounter(Encoding encoding) {
        this.encoding = encoding;
    }

    static JTokkitTokenCounter o200kBase() {
        return O200K;
    }

    @Override
    public int count(String text) {
        if (text.isEmpty()) {
            return 0;
        }
        int n = 0;
        for (int at = 0; at < text.length(); ) {
            int end = O200kPieces.end(text, at);
            n += piece(text, at, end);
            at = end;
        }
        return n;
    }

    /** The count of the piece {@code text[start, end)} (never 0: a piece has at least one byte). */
    private int piece(String text, int start, int end) {
        long h = 0xCBF2_9CE4_8422_2325L;
        int hashCode = 0;
        for (int k = start; k < end; k++) {
            char c = text.charAt(k);
            h = (h ^ c) * 0x1000_0000_01B3L;
            hashCode = 31 * hashCode + c;
        }
        h ^= h >>> 33; // the first steps of MurmurHash3's finalizer (the spi keeps off dev.reverie.internal)
        h *= 0xFF51_AFD7_ED55_8CCDL;
        h ^= h >>> 33;
        int i = (int) (h & (PIECE_SLOTS - 1)) << 1;
        long check = (long) hashCode << 32;
        // a torn pair (another thread rewriting the entry) holds halves of two pieces, which no piece matches
        if (slots.getOpaque(i) == h) {
            long entry = slots.getOpaque(i + 1);
            if ((entry & 0xFFFF_FFFF_0000_0000L) == check && (int) entry > 0) {
                return (int) entry;
            }
        }
        // a piece re-split by the same pre-tokenizer is that one piece, so this is its BPE count
        int n = encoding.countTokensOrdinary(text.substring(start, end));
        slots.setOpaque(i, h);
        slots.setOpaque(i + 1, check | (n & 0xFFFF_FFFFL));
        return n;
    }

    /**
     * o200k's pre-tokenizer continues past a newline only into white space
     * ({@code \s*[\r\n]+}) or a slash ({@code ?[^\s\p{L}\p{N}]+[\r\n/]*}); checked on two million
     * random piece pairs and in {@code BlockTokensTest}.
     */
    @Override
    public boolean additiveAfterNewline() {
        return true;
    }
}
