package dev.reverie.store.postgres;

import dev.reverie.internal.Terms;

import java.util.List;

/**
 * PostgreSQL full-text search for Reverie: text is folded in Java exactly as the other stores fold
 * it ({@link Terms#fold}: case, accents, compatibility forms and invisible format characters), then
 * indexed with two built-in configurations, {@code english} (Snowball stems and stop words, so
 * "paintings" finds "painting") and {@code simple} (every folded word as it is, so Portuguese words
 * and stop-word-only queries still match). Folding in Java needs no extension ({@code unaccent}
 * may not be installable on a managed server) and handles what {@code unaccent} does not (zero-width
 * characters, full-width letters).
 *
 * <p>A query is built only from {@link Terms#of} word terms (letters and digits), each single-quoted
 * as a {@code tsquery} lexeme and joined with {@code |}: no user text reaches {@code tsquery} syntax.
 * Stateless and thread-safe.
 */
final class FullText {

    static final int MAX_QUERY_TERMS = 32;
    /** A tsvector holds at most 1 MB; text beyond this many characters is not indexed (it is still stored). */
    static final int MAX_INDEXED_CHARS = 200_000;

    /** The SQL expression that indexes a parameter holding folded text. */
    static final String VECTOR_SQL = "(to_tsvector('pg_catalog.english', ?) || to_tsvector('pg_catalog.simple', ?))";
    /** The SQL expression of a query from a parameter holding {@link #queryText} (bound twice). */
    static final String QUERY_SQL = "(to_tsquery('pg_catalog.english', ?) || to_tsquery('pg_catalog.simple', ?))";

    /** BM25's term-frequency saturation, as in Lucene's {@code BM25Similarity} and SQLite's FTS5. */
    static final double K1 = 1.2;
    /** BM25's length normalisation, as in Lucene's {@code BM25Similarity} and SQLite's FTS5. */
    static final double B = 0.75;

    private FullText() {
    }

    /**
     * A BM25 search of {@code table}'s rows that satisfy {@code where} (a condition on alias
     * {@code t}, its parameters bound after the query's), selecting {@code columns} then the score,
     * best first, ties by {@code tieBreak} (columns too, ascending), at most a bound {@code LIMIT}.
     * Parameters, in order: {@link #queryText} twice, {@link #queryWords} twice, {@code where}'s,
     * the scope's row count and mean row length ({@link Bm25Stats}), the limit.
     *
     * <p>The score is Okapi BM25 over the scope (N and the average length are the scope's rows' in
     * the table, a term's document frequency counts the rows {@code where} selects holding it), with
     * Lucene's non-negative IDF {@code ln(1 + (N - df + 0.5) / (df + 0.5))}, a term's frequency from
     * its positions in {@code tsv} and a row's length as its distinct lexemes. The other stores rank
     * by BM25 too (Lucene's similarity, SQLite's {@code bm25()}); {@code ts_rank_cd} has no IDF, so a
     * word in every turn of a conversation (a speaker's name) weighed as much as the one word that
     * finds the answer (LoCoMo, lexical default, 512 tokens: word cover 60.5 % on PostgreSQL
     * against 71.1 % on SQLite). Every row that matches the query is scored, as with {@code ts_rank_cd}.
     */
    static String bm25Sql(String table, String where, List<String> columns, List<String> tieBreak) {
        StringBuilder carried = new StringBuilder();
        StringBuilder selected = new StringBuilder();
        for (String col : columns) {
            carried.append(", t.").append(col);
            selected.append("m.").append(col).append(", ");
        }
        StringBuilder order = new StringBuilder();
        for (String col : tieBreak) {
            if (!columns.contains(col)) {
                carried.append(", t.").append(col);
            }
            order.append(", m.").append(col);
        }
        return "WITH q AS (SELECT " + QUERY_SQL + " AS q, tsvector_to_array(" + VECTOR_SQL + ") AS lex),"
                + " m AS (SELECT t.ctid AS row_id, t.tsv" + carried + " FROM ${s}." + table + " t, q WHERE " + where
                + " AND t.tsv @@ q.q),"
                + " st AS (SELECT ?::float8 AS n, greatest(?::float8, 1) AS avgdl),"
                + " tf AS (SELECT m.row_id, u.lexeme, coalesce(cardinality(u.positions), 1)::float8 AS tf,"
                + " length(m.tsv)::float8 AS dl FROM m, q, unnest(m.tsv) u WHERE u.lexeme = ANY(q.lex)),"
                + " df AS (SELECT lexeme, count(*)::float8 AS df FROM tf GROUP BY lexeme),"
                + " sc AS (SELECT tf.row_id, sum(ln(1 + (greatest(st.n, df.df) - df.df + 0.5) / (df.df + 0.5)) * tf.tf * "
                + (K1 + 1) + " / (tf.tf + " + K1 + " * (" + (1 - B) + " + " + B + " * tf.dl / st.avgdl))) AS r"
                + " FROM tf JOIN df USING (lexeme) CROSS JOIN st GROUP BY tf.row_id)"
                + " SELECT " + selected + "sc.r FROM m JOIN sc USING (row_id)"
                + " ORDER BY sc.r DESC" + order + " LIMIT ?";
    }

    /**
     * The query's word terms separated by spaces, for {@link #VECTOR_SQL}: the lexemes a row would
     * hold for them (the ones {@link #bm25Sql} counts), or {@code null} when it has none.
     */
    static String queryWords(String text) {
        List<String> terms = Terms.of(text, MAX_QUERY_TERMS);
        return terms.isEmpty() ? null : String.join(" ", terms);
    }

    /** The text to index: folded, without NUL, at most {@link #MAX_INDEXED_CHARS} characters. */
    static String indexText(String text) {
        String folded = Terms.fold(text).replace('\u0000', ' ');
        return folded.length() > MAX_INDEXED_CHARS ? folded.substring(0, MAX_INDEXED_CHARS) : folded;
    }

    /**
     * The {@code tsquery} text for arbitrary user text: its word terms, each quoted as a lexeme and
     * OR-ed, or {@code null} when it has none.
     */
    static String queryText(String text) {
        List<String> terms = Terms.of(text, MAX_QUERY_TERMS);
        if (terms.isEmpty()) {
            return null;
        }
        StringBuilder sb = new StringBuilder();
        for (String term : terms) {
            if (!sb.isEmpty()) {
                sb.append(" | ");
            }
            // terms are letters and digits only; quoting (quotes and backslashes doubled) keeps it so
            sb.append('\'').append(term.replace("\\", "\\\\").replace("'", "''")).append('\'');
        }
        return sb.toString();
    }
}
