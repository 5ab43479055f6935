package dev.reverie.store.postgres;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Okapi BM25 over the rows a full-text search matched, scored in Java from each row's
 * {@code tsvector} (its text form, as PostgreSQL prints it), so the store ranks as the other stores
 * do (Lucene's {@code BM25Similarity}, SQLite's {@code bm25()}): k1 {@value FullText#K1}, b
 * {@value FullText#B}, Lucene's non-negative IDF {@code ln(1 + (N - df + 0.5) / (df + 0.5))}.
 *
 * <p>A term is a query word. A row's vector holds each of its words twice ({@link FullText}: the
 * {@code english} stem and the {@code simple} word), as one lexeme with both positions when the stem is
 * the word ("dog") and as two lexemes otherwise ("caroline": {@code carolin} and {@code caroline}).
 * So a word's frequency in a row is half the positions of its lexemes (each lexeme counted once): an
 * occurrence of the word itself counts 1 whether or not its stem differs from it, of another word with
 * its stem one half ("dogs" for "dog"), of the stem itself when that is a word 1 ("dog" for "dogs",
 * as a stemming index counts it). A word with no {@code english} lexeme (a stop word in a query of stop
 * words) counts its {@code simple} positions whole. A row's length is its number of lexemes (a word
 * whose stem differs from it adds two, so a row is a little longer than its words: BM25's length
 * normalisation moves by a few percent at most at LoCoMo's ~30 lexemes a turn); a term's document
 * frequency is the number of matched rows holding it (N is never taken below it); N and the mean
 * length are the scope's ({@link Bm25Stats}). Not thread-safe: one per search.
 */
final class Bm25 {

    /** A matched row: its key (for reading it) and its terms' frequencies and length. */
    record Row(long rid, String session, long seq, double[] tf, int length) {
    }

    /** A scored row, best first after {@link #rank}. */
    record Ranked(Row row, double score) {
    }

    /** The query's lexemes, each with the query words (term numbers) it belongs to. */
    private final QueryLexemes lexicon;
    /** Per term: the factor its lexemes' positions are counted with. */
    private final double[] weight;
    private final List<Row> rows = new ArrayList<>();

    /**
     * @param english per query word, its {@code english} lexemes (none for a stop word)
     * @param simple  per query word, its {@code simple} lexemes
     */
    Bm25(List<String[]> english, List<String[]> simple) {
        int words = english.size();
        weight = new double[words];
        Map<String, List<Integer>> byLexeme = new HashMap<>();
        for (int w = 0; w < words; w++) {
            Set<String> lexemes = new LinkedHashSet<>(List.of(english.get(w)));
            lexemes.addAll(List.of(simple.get(w)));
            weight[w] = english.get(w).length == 0 ? 1.0 : 0.5;
            for (String l : lexemes) {
                byLexeme.computeIfAbsent(l, k -> new ArrayList<>(1)).add(w);
            }
        }
        Map<String, int[]> lexemeTerms = new HashMap<>();
        byLexeme.forEach((l, ws) -> lexemeTerms.put(l, ws.stream().mapToInt(Integer::intValue).toArray()));
        lexicon = new QueryLexemes(lexemeTerms);
    }

    /** Adds a matched row from its key and its {@code tsvector} as text. */
    void add(long rid, String session, long seq, String vector) {
        double[] tf = new double[weight.length];
        int length = scan(vector, lexicon, tf);
        for (int w = 0; w < tf.length; w++) {
            tf[w] *= weight[w];
        }
        rows.add(new Row(rid, session, seq, tf, length));
    }

    /** Whether no row was added. */
    boolean isEmpty() {
        return rows.isEmpty();
    }

    /**
     * The rows, best first, at most {@code limit}; rows of equal score stay in the order they were
     * added (the search adds them in its SQL order: {@code rid}, or session and seq).
     */
    List<Ranked> rank(double scopeRows, double meanLength, int limit) {
        int k = weight.length;
        int[] df = new int[k];
        for (Row r : rows) {
            for (int j = 0; j < k; j++) {
                if (r.tf[j] > 0) {
                    df[j]++;
                }
            }
        }
        double[] idf = new double[k];
        for (int j = 0; j < k; j++) {
            double n = Math.max(scopeRows, df[j]);
            idf[j] = Math.log(1 + (n - df[j] + 0.5) / (df[j] + 0.5));
        }
        double avg = Math.max(meanLength, 1);
        List<Ranked> out = new ArrayList<>(rows.size());
        for (Row r : rows) {
            double norm = FullText.K1 * (1 - FullText.B + FullText.B * r.length / avg);
            double score = 0;
            for (int j = 0; j < k; j++) {
                double tf = r.tf[j];
                if (tf > 0) {
                    score += idf[j] * tf * (FullText.K1 + 1) / (tf + norm);
                }
            }
            out.add(new Ranked(r, score));
        }
        out.sort(Comparator.comparingDouble(Ranked::score).reversed()); // stable: ties keep the SQL order
        return out.size() > limit ? new ArrayList<>(out.subList(0, limit)) : out;
    }

    /**
     * Reads a {@code tsvector}'s text form ({@code 'lexeme':1,5B 'other':3}; quotes and backslashes
     * inside a lexeme doubled), adds the position count of each lexeme of {@code terms} (a lexeme
     * without positions counts once) to the counts of its terms in {@code tf}, and returns the number
     * of lexemes. A lexeme of the vector is compared in place with the query's of its length, and a
     * string is made only for one with a quote or backslash in it (reading every matched row's vector
     * was a fifth of the store's Java time in a LoCoMo {@code buildContext}, most of it making a string
     * and a hash of each lexeme).
     */
    static int scan(String vector, QueryLexemes terms, double[] tf) {
        int n = vector.length();
        int i = 0;
        int lexemes = 0;
        while (i < n) {
            if (vector.charAt(i) != '\'') {
                i++;
                continue;
            }
            int start = ++i;
            boolean escaped = false;
            while (i < n) {
                char ch = vector.charAt(i);
                if (ch == '\'') {
                    if (i + 1 < n && vector.charAt(i + 1) == '\'') {
                        escaped = true;
                        i += 2;
                        continue;
                    }
                    break;
                }
                if (ch == '\\' && i + 1 < n) {
                    escaped = true;
                    i += 2;
                    continue;
                }
                i++;
            }
            int end = i;
            if (i < n) {
                i++; // the closing quote
            }
            lexemes++;
            int positions = 1;
            if (i < n && vector.charAt(i) == ':') {
                i++;
                while (i < n && vector.charAt(i) != ' ') {
                    if (vector.charAt(i) == ',') {
                        positions++;
                    }
                    i++;
                }
            }
            int[] at = escaped ? terms.of(unescaped(vector, start, end)) : terms.of(vector, start, end);
            if (at != null) {
                for (int t : at) {
                    tf[t] += positions;
                }
            }
        }
        return lexemes;
    }

    /** A lexeme with its doubled quotes and backslash escapes undone. */
    private static String unescaped(String vector, int start, int end) {
        StringBuilder lexeme = new StringBuilder(end - start);
        for (int i = start; i < end; i++) {
            char ch = vector.charAt(i);
            if ((ch == '\'' || ch == '\\') && i + 1 < end) {
                i++;
                ch = vector.charAt(i);
            }
            lexeme.append(ch);
        }
        return lexeme.toString();
    }

    /** The query's lexemes by length, each with the query words (term numbers) it belongs to. */
    static final class QueryLexemes {
        private final String[][] byLength;
        private final int[][][] termsByLength;

        QueryLexemes(Map<String, int[]> terms) {
            int longest = 0;
            for (String l : terms.keySet()) {
                longest = Math.max(longest, l.length());
            }
            byLength = new String[longest + 1][];
            termsByLength = new int[longest + 1][][];
            for (Map.Entry<String, int[]> e : terms.entrySet()) {
                int len = e.getKey().length();
                int k = byLength[len] == null ? 0 : byLength[len].length;
                byLength[len] = Arrays.copyOf(byLength[len] == null ? new String[0] : byLength[len], k + 1);
                termsByLength[len] = Arrays.copyOf(termsByLength[len] == null ? new int[0][] : termsByLength[len], k + 1);
                byLength[len][k] = e.getKey();
                termsByLength[len][k] = e.getValue();
            }
        }

        /** The terms of the lexeme {@code vector[start, end)}, or {@code null}. */
        int[] of(String vector, int start, int end) {
            int len = end - start;
            String[] candidates = len < byLength.length ? byLength[len] : null;
            if (candidates != null) {
                for (int k = 0; k < candidates.length; k++) {
                    if (vector.regionMatches(start, candidates[k], 0, len)) {
                        return termsByLength[len][k];
                    }
                }
            }
            return null;
        }

        int[] of(String lexeme) {
            return of(lexeme, 0, lexeme.length());
        }
    }
}
