package dev.reverie.store.sqlite;

import dev.reverie.internal.Terms;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * BM25 (k1 1.2, b 0.75, FTS5's defaults) over one end user's matching rows, computed in Java from
 * FTS5 {@code highlight()} output: the marked spans are the tokens FTS5 matched (after its Porter
 * stemming), so term frequencies agree with the index. Document frequencies and the mean length
 * come from the end user's own matching rows and the corpus size from the end user's row count, so
 * the statistics are the end user's, not the tenant's.
 *
 * <p>Why not FTS5's {@code bm25()}: to get its statistics it walks the whole doclist of every query
 * term across the table, i.e. across every end user of the tenant, on every query. At 10,000 end
 * users a common query term has ~100,000 postings and a search took 3–16 ms, growing linearly with
 * the tenant; the scope-filtered MATCH alone takes ~0.3 ms (docs/benchmarks-jmh.md). Stateless and
 * thread-safe.
 */
final class ScopedBm25 {

    /** Markers passed to highlight(); a marker character inside user text only blurs a score. */
    static final String OPEN = "char(1)";
    static final String CLOSE = "char(2)";
    private static final char OPEN_CHAR = '\u0001';
    private static final char CLOSE_CHAR = '\u0002';
    private static final double K1 = 1.2;
    private static final double B = 0.75;
    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+");

    private ScopedBm25() {
    }

    /** A row id and its score. */
    record Hit(long rid, double score) {
    }

    /**
     * The best {@code limit} rows, best first (ties by row id).
     *
     * @param rids        the matching rows
     * @param highlighted each row's text with matched tokens between the markers
     * @param queryTerms  the query's folded terms
     * @param corpusSize  how many rows the end user has in the searched table
     */
    static List<Hit> rank(List<Long> rids, List<String> highlighted, List<String> queryTerms, long corpusSize,
                          int limit) {
        int n = rids.size();
        List<Map<String, Integer>> tfs = new ArrayList<>(n);
        int[] lengths = new int[n];
        Map<String, Integer> df = new HashMap<>();
        long totalLength = 0;
        for (int i = 0; i < n; i++) {
            String text = highlighted.get(i);
            Map<String, Integer> tf = new HashMap<>();
            int from = 0;
            while (true) {
                int open = text.indexOf(OPEN_CHAR, from);
                if (open < 0) {
                    break;
                }
                int close = text.indexOf(CLOSE_CHAR, open + 1);
                if (close < 0) {
                    break;
                }
                tf.merge(termOf(Terms.fold(text.substring(open + 1, close)), queryTerms), 1, Integer::sum);
                from = close + 1;
            }
            for (String term : tf.keySet()) {
                df.merge(term, 1, Integer::sum);
            }
            tfs.add(tf);
            Matcher m = WORD.matcher(text);
            int words = 0;
            while (m.find()) {
                words++;
            }
            lengths[i] = Math.max(1, words);
            totalLength += lengths[i];
        }
        double avgLength = n == 0 ? 1 : (double) totalLength / n;
        long corpus = Math.max(corpusSize, n);
        List<Hit> hits = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            double score = 0;
            double norm = K1 * (1 - B + B * lengths[i] / avgLength);
            for (Map.Entry<String, Integer> e : tfs.get(i).entrySet()) {
                int d = df.get(e.getKey());
                double idf = Math.log(1 + (corpus - d + 0.5) / (d + 0.5));
                double tf = e.getValue();
                score += idf * tf * (K1 + 1) / (tf + norm);
            }
            hits.add(new Hit(rids.get(i), score));
        }
        hits.sort(Comparator.comparingDouble(Hit::score).reversed().thenComparingLong(Hit::rid));
        return hits.size() > limit ? new ArrayList<>(hits.subList(0, limit)) : hits;
    }

    /**
     * The query term a matched token stands for: equal, or sharing a stem-length prefix (the index
     * matched {@code allergies} for {@code allergy}); otherwise the token itself.
     */
    static String termOf(String token, List<String> queryTerms) {
        String best = token;
        int bestPrefix = 0;
        for (String q : queryTerms) {
            if (q.equals(token)) {
                return q;
            }
            int p = commonPrefix(q, token);
            if (p >= 3 && p >= Math.min(q.length(), token.length()) - 3 && p > bestPrefix) {
                best = q;
                bestPrefix = p;
            }
        }
        return best;
    }

    private static int commonPrefix(String a, String b) {
        int n = Math.min(a.length(), b.length());
        int i = 0;
        while (i < n && a.charAt(i) == b.charAt(i)) {
            i++;
        }
        return i;
    }
}
