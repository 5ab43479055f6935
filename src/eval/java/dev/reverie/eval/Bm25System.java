package dev.reverie.eval;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.ByteBuffersDirectory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Baseline: BM25 over the raw turns with Lucene, the top turns packed greedily to the budget (a turn
 * that does not fit is skipped and packing goes on down the ranking).
 *
 * <p>Each turn is one document holding {@code speaker: text} (caption included), analysed with
 * Lucene's {@link EnglishAnalyzer} (standard tokenizer, lower case, English stop words, possessive
 * removal, Porter stemming); BM25 with Lucene's defaults ({@code k1 = 1.2, b = 0.75}). The question is
 * run through the same analyzer and searched as a disjunction of its distinct terms, so no user text
 * reaches a query parser. One in-memory index per sample. Not thread-safe.
 */
final class Bm25System implements EvalSystem {
    private static final String FIELD = "text";

    private final TurnPacker packer;
    private final Analyzer analyzer = new EnglishAnalyzer();
    private List<TurnPacker.PackableTurn> turns = List.of();
    private DirectoryReader reader;
    private IndexSearcher searcher;
    private int[] positionOfDoc = new int[0];

    Bm25System(TurnPacker packer) {
        this.packer = packer;
    }

    @Override
    public String name() {
        return "bm25";
    }

    @Override
    public String description() {
        return "BM25 over raw turns (Lucene, EnglishAnalyzer), packed greedily by rank";
    }

    @Override
    public void ingest(LocomoData.Sample sample) {
        closeReader();
        turns = packer.prepare(sample);
        ByteBuffersDirectory directory = new ByteBuffersDirectory();
        IndexWriterConfig config = new IndexWriterConfig(analyzer).setSimilarity(new BM25Similarity());
        try (IndexWriter writer = new IndexWriter(directory, config)) {
            for (TurnPacker.PackableTurn turn : turns) {
                Document doc = new Document();
                doc.add(new StoredField("position", turn.position()));
                doc.add(new TextField(FIELD, TurnPacker.retrievalText(turn.turn()), Field.Store.NO));
                writer.addDocument(doc);
            }
            writer.commit();
            reader = DirectoryReader.open(directory);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot index sample " + sample.id() + " for BM25", e);
        }
        searcher = new IndexSearcher(reader);
        searcher.setSimilarity(new BM25Similarity());
        positionOfDoc = new int[reader.maxDoc()];
        try {
            StoredFields stored = reader.storedFields();
            for (int doc = 0; doc < reader.maxDoc(); doc++) {
                positionOfDoc[doc] = stored.document(doc).getField("position").numericValue().intValue();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the BM25 index of sample " + sample.id(), e);
        }
    }

    @Override
    public RetrievedContext context(String question, int budgetTokens) {
        BooleanQuery.Builder query = new BooleanQuery.Builder();
        for (String term : terms(question)) {
            query.add(new TermQuery(new Term(FIELD, term)), BooleanClause.Occur.SHOULD);
        }
        List<TurnPacker.Ranked> ranked = new ArrayList<>();
        try {
            for (ScoreDoc hit : searcher.search(query.build(), Math.max(1, turns.size())).scoreDocs) {
                ranked.add(new TurnPacker.Ranked(turns.get(positionOfDoc[hit.doc]), hit.score));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("BM25 search failed", e);
        }
        return packer.pack(question, budgetTokens, ranked, false);
    }

    private Set<String> terms(String text) {
        Set<String> terms = new LinkedHashSet<>();
        try (TokenStream stream = analyzer.tokenStream(FIELD, text)) {
            CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
            stream.reset();
            while (stream.incrementToken()) {
                terms.add(term.toString());
            }
            stream.end();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot analyse question", e);
        }
        return terms;
    }

    private void closeReader() {
        if (reader != null) {
            try {
                reader.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            reader = null;
        }
    }

    @Override
    public void close() {
        closeReader();
        analyzer.close();
    }
}
