package dev.reverie.store.postgres;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Okapi BM25 over the rows a full-text search matched, scored in Java from each row's
 * {@code tsvector} (its text form, as PostgreSQL prints it), so the store ranks as the other stores
 * do (Lucene's {@code BM25Similarity}, SQLite's {@code bm25()}): k1 {@value FullText#K1}, b
 * {@value FullText#B}, Lucene's non-negative IDF {@code ln(1 + (N - df + 0.5) / (df + 0.5))}. A term's
 * frequency is the number of its positions in the row's vector (a lexeme without positions counts
 * once), a row's length its number of lexemes, a term's document frequency the number of matched
 * rows holding it (every row holding a query lexeme matches the query, so that is the scope's), N
 * and the mean length the scope's ({@link Bm25Stats}); N is never taken below a document frequency.
 * Not thread-safe: one per search.
 */
final class Bm25 {

    /** A matched row: its key (for ordering ties and reading it), its query-term frequencies and length. */
    record Row(long rid, String session, long seq, int[] tf, int length) {
    }

    /** A scored key, best first after {@link #rank}. */
    record Ranked(Row row, double score) {
    }

    private final Map<String, Integer> terms = new HashMap<>();
    private final List<Row> rows = new ArrayList<>();

    /** @param lexemes the query's lexemes, as the index holds them (duplicates count once) */
    Bm25(String[] lexemes) {
        for (String l : lexemes) {
            terms.putIfAbsent(l, terms.size());
        }
    }

    /** Adds a matched row from its key and its {@code tsvector} as text. */
    void add(long rid, String session, long seq, String vector) {
        int[] tf = new int[terms.size()];
        int length = scan(vector, terms, tf);
        rows.add(new Row(rid, session, seq, tf, length));
    }

    /**
     * The rows, best first, at most {@code limit}; ties by {@code rid}, then session and seq
     * ascending (the order the SQL searches used).
     */
    List<Ranked> rank(double scopeRows, double meanLength, int limit) {
        int k = terms.size();
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
                int tf = r.tf[j];
                if (tf > 0) {
                    score += idf[j] * tf * (FullText.K1 + 1) / (tf + norm);
                }
            }
            out.add(new Ranked(r, score));
        }
        out.sort(Comparator.comparingDouble(Ranked::score).reversed()
                .thenComparingLong(x -> x.row().rid())
                .thenComparing(x -> x.row().session() == null ? "" : x.row().session())
                .thenComparingLong(x -> x.row().seq()));
        return out.size() > limit ? new ArrayList<>(out.subList(0, limit)) : out;
    }

    /**
     * Reads a {@code tsvector}'s text form ({@code 'lexeme':1,5B 'other':3}; quotes and backslashes
     * inside a lexeme doubled), sets the position count of each lexeme of {@code terms} in {@code tf}
     * and returns the number of lexemes.
     */
    static int scan(String vector, Map<String, Integer> terms, int[] tf) {
        int n = vector.length();
        int i = 0;
        int lexemes = 0;
        StringBuilder lexeme = new StringBuilder();
        while (i < n) {
            if (vector.charAt(i) != '\'') {
                i++;
                continue;
            }
            i++;
            lexeme.setLength(0);
            while (i < n) {
                char ch = vector.charAt(i);
                if (ch == '\'') {
                    if (i + 1 < n && vector.charAt(i + 1) == '\'') {
                        lexeme.append('\'');
                        i += 2;
                        continue;
                    }
                    i++;
                    break;
                }
                if (ch == '\\' && i + 1 < n) {
                    lexeme.append(vector.charAt(i + 1));
                    i += 2;
                    continue;
                }
                lexeme.append(ch);
                i++;
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
            Integer at = terms.get(lexeme.toString());
            if (at != null) {
                tf[at] = positions;
            }
        }
        return lexemes;
    }

    @Override
    public String toString() {
        return "Bm25" + Arrays.toString(terms.keySet().toArray());
    }
}
