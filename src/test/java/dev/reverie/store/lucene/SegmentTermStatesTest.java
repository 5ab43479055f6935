package dev.reverie.store.lucene;

import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Queries built from remembered per-segment term states score exactly as Lucene's own term queries,
 * over many segments, with deletes, terms missing from some segments, and across reader refreshes
 * that add segments and merge others away.
 */
class SegmentTermStatesTest {

    private static final String[] WORDS = {"cello", "river", "tulips", "nurse", "recife", "jazz", "garden",
        "lisbon", "pottery", "camping", "swimming", "painting", "sunday", "teacher", "allergy"};
    private static final List<String> QUERY_TERMS = List.of("cello", "river", "jazz", "camping", "allergy",
            "absent", "teacher");

    @Test
    void cached_term_states_give_the_scores_of_plain_term_queries() throws IOException {
        Random random = new Random(11);
        try (ByteBuffersDirectory dir = new ByteBuffersDirectory();
             IndexWriter w = new IndexWriter(dir, new IndexWriterConfig(new StandardAnalyzer())
                     .setMergePolicy(NoMergePolicy.INSTANCE))) {
            int id = 0;
            for (int segment = 0; segment < 6; segment++) {
                for (int i = 0; i < 40; i++) {
                    w.addDocument(doc(id++, random, segment));
                }
                w.commit();
            }
            w.deleteDocuments(new Term("id", "3"), new Term("id", "77"), new Term("id", "150"));
            DirectoryReader reader = DirectoryReader.open(w);
            assertThat(reader.leaves()).hasSizeGreaterThan(4);
            for (int round = 0; round < 3; round++) {
                IndexSearcher searcher = new IndexSearcher(reader);
                for (int q = 0; q < 2; q++) { // the second time from the table
                    assertSameResults(searcher);
                }
                // more segments, more deletes, then a merge: older segments keep their tables, merged ones go
                for (int i = 0; i < 30; i++) {
                    w.addDocument(doc(id++, random, 6 + round));
                }
                w.deleteDocuments(new Term("id", String.valueOf(random.nextInt(id))));
                if (round == 1) {
                    w.getConfig().setMergePolicy(new org.apache.lucene.index.TieredMergePolicy());
                    w.forceMerge(2);
                }
                DirectoryReader newer = DirectoryReader.openIfChanged(reader, w);
                assertThat(newer).isNotNull();
                reader.close();
                reader = newer;
            }
            assertSameResults(new IndexSearcher(reader));
            reader.close();
        }
    }

    private static void assertSameResults(IndexSearcher searcher) throws IOException {
        BooleanQuery.Builder plain = new BooleanQuery.Builder();
        BooleanQuery.Builder cached = new BooleanQuery.Builder();
        for (String t : QUERY_TERMS) {
            plain.add(new TermQuery(new Term("text", t)), BooleanClause.Occur.SHOULD);
            cached.add(SegmentTermStates.query(searcher, new Term("text", t)), BooleanClause.Occur.SHOULD);
        }
        assertThat(hits(searcher, cached.build())).isEqualTo(hits(searcher, plain.build())).isNotEmpty();
        for (String t : QUERY_TERMS) {
            assertThat(hits(searcher, SegmentTermStates.query(searcher, new Term("text", t))))
                    .isEqualTo(hits(searcher, new TermQuery(new Term("text", t))));
        }
    }

    private static List<String> hits(IndexSearcher searcher, Query q) throws IOException {
        List<String> out = new ArrayList<>();
        for (ScoreDoc d : searcher.search(q, 1_000).scoreDocs) {
            out.add(d.doc + ":" + Float.floatToIntBits(d.score));
        }
        return out;
    }

    /** A document whose words depend on its segment, so some terms are missing from some segments. */
    private static Document doc(int id, Random random, int segment) {
        StringBuilder text = new StringBuilder();
        int n = 3 + random.nextInt(12);
        for (int i = 0; i < n; i++) {
            int bound = Math.min(WORDS.length, 5 + 2 * segment);
            text.append(WORDS[random.nextInt(bound)]).append(' ');
        }
        Document d = new Document();
        d.add(new StringField("id", String.valueOf(id), Field.Store.NO));
        d.add(new TextField("text", text.toString(), Field.Store.NO));
        return d;
    }
}
