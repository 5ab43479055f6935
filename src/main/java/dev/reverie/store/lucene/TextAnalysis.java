package dev.reverie.store.lucene;

import dev.reverie.MemoryStoreException;
import dev.reverie.internal.Terms;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.StopFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.en.PorterStemFilter;
import org.apache.lucene.analysis.miscellaneous.ASCIIFoldingFilter;
import org.apache.lucene.analysis.standard.StandardTokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Text analysis for the Lucene store, shared by indexing and querying so both sides produce the
 * same terms: Unicode NFKC normalization with invisible format characters (zero-width space and
 * joiners, BOM, bidi marks, soft hyphen) removed ({@link Terms#normalizeForIndex}), so
 * {@code cafe\u0301}, {@code café} and {@code ca\u200Bfé} are one word as in the SQLite store's
 * {@code Terms.fold}; then
 * {@link StandardTokenizer} (Unicode word boundaries, emoji kept as tokens), lower case,
 * {@link ASCIIFoldingFilter} (so {@code alérgica} and {@code alergica} match, the usual way
 * Portuguese is typed on an English keyboard) and {@link PorterStemFilter}.
 *
 * <p>Why Porter rather than {@code EnglishMinimalStemFilter}: the minimal stemmer only strips
 * plurals, so {@code liked}, {@code likes} and {@code liking} stay apart, while Porter conflates
 * them; on Portuguese text Porter mostly strips plural and a few suffixes ({@code alergias} →
 * {@code alergia}), which is harmless because the same stemmer runs at index and query time, so an
 * exact word always matches itself. It is also the stemmer of the SQLite store's FTS5 tokenizer
 * ({@code porter unicode61 remove_diacritics 2}), so both stores return comparable candidates.
 * Language-specific stemmers would need a language per text, which the store does not know.
 *
 * <p>Stop words (English and Portuguese, accent-folded) are dropped from queries only, never from
 * the index: function words such as {@code my} or {@code de} would otherwise give a memory a
 * non-zero relevance for sharing nothing but grammar. A query made only of stop words falls back to
 * all its terms. Queries are built from these analyzed terms alone, never parsed, so no query syntax
 * can pass through.
 *
 * <p>Thread-safe: Lucene analyzers keep per-thread token stream components. Close it when the store
 * closes.
 */
final class TextAnalysis implements AutoCloseable {

    /** Most distinct terms a query keeps; more add noise and cost without changing the candidates. */
    static final int MAX_QUERY_TERMS = 64;

    private static final CharArraySet QUERY_STOP_WORDS = stopWords();

    private final Analyzer index = new Chain(null);
    private final Analyzer query = new Chain(QUERY_STOP_WORDS);

    /** The analyzer for indexed text fields (no stop words removed). */
    Analyzer indexAnalyzer() {
        return index;
    }

    /**
     * The distinct analyzed terms of arbitrary user text, in order, at most {@link #MAX_QUERY_TERMS}:
     * without stop words, or with them when nothing else is left. Empty for blank or token-free text.
     */
    List<String> queryTerms(String text) {
        if (text == null || text.isBlank()) {
            return List.of();
        }
        List<String> terms = analyze(query, text);
        return terms.isEmpty() ? analyze(index, text) : terms;
    }

    private static List<String> analyze(Analyzer analyzer, String text) {
        Set<String> out = new LinkedHashSet<>();
        try (TokenStream ts = analyzer.tokenStream("text", text)) {
            CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
            ts.reset();
            while (out.size() < MAX_QUERY_TERMS && ts.incrementToken()) {
                out.add(term.toString());
            }
            ts.end();
        } catch (IOException e) {
            throw new MemoryStoreException("could not analyze query text: " + e.getMessage(), e);
        }
        return new ArrayList<>(out);
    }

    private static CharArraySet stopWords() {
        CharArraySet set = new CharArraySet(Terms.STOP_WORDS, false);
        return CharArraySet.unmodifiableSet(set);
    }

    @Override
    public void close() {
        index.close();
        query.close();
    }

    private static Reader normalized(Reader in) {
        try {
            StringBuilder sb = new StringBuilder();
            char[] buf = new char[4096];
            for (int n; (n = in.read(buf)) != -1; ) {
                sb.append(buf, 0, n);
            }
            return new StringReader(Terms.normalizeForIndex(sb.toString()));
        } catch (IOException e) {
            throw new UncheckedIOException("could not read text to analyze: " + e.getMessage(), e);
        }
    }

    /** Normalization, StandardTokenizer, lower case, ASCII folding, optional stop words, Porter stemming. */
    private static final class Chain extends Analyzer {
        private final CharArraySet stopWords;

        Chain(CharArraySet stopWords) {
            this.stopWords = stopWords;
        }

        @Override
        protected TokenStreamComponents createComponents(String fieldName) {
            Tokenizer source = new StandardTokenizer();
            TokenStream stream = new LowerCaseFilter(source);
            stream = new ASCIIFoldingFilter(stream);
            if (stopWords != null) {
                stream = new StopFilter(stream, stopWords);
            }
            stream = new PorterStemFilter(stream);
            return new TokenStreamComponents(source, stream);
        }

        @Override
        protected Reader initReader(String fieldName, Reader reader) {
            return normalized(reader);
        }

        @Override
        protected Reader initReaderForNormalization(String fieldName, Reader reader) {
            return normalized(reader);
        }

        @Override
        protected TokenStream normalize(String fieldName, TokenStream in) {
            return new ASCIIFoldingFilter(new LowerCaseFilter(in));
        }
    }
}
