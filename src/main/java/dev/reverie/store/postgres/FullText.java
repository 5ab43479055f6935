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
     * The query's word terms separated by spaces, for {@link #VECTOR_SQL}: the lexemes a row would
     * hold for them (the ones {@link Bm25} counts), or {@code null} when it has none.
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
