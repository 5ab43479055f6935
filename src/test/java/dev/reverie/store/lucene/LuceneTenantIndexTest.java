package dev.reverie.store.lucene;

import dev.reverie.MemoryStoreException;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.SortedDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FilterDirectory;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.Collection;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The Lucene behaviour the store's atomicity rests on: a batch applied as one
 * {@code updateDocuments} block is all-or-nothing even when Lucene itself rejects a document
 * halfway, and the index stays usable afterwards.
 */
class LuceneTenantIndexTest {

    private TextAnalysis analysis;
    private TenantIndex index;

    @BeforeEach
    void open() {
        analysis = new TextAnalysis();
        index = TenantIndex.open("memory/test", new ByteBuffersDirectory(), analysis.indexAnalyzer(),
                TenantIndex.CommitPolicy.EVERY_WRITE, "test");
    }

    @AfterEach
    void close() {
        index.close();
        analysis.close();
    }

    private static Document doc(String uid, String version) {
        Document d = new Document();
        d.add(new StringField("uid", uid, Field.Store.NO));
        d.add(new StringField("version", version, Field.Store.NO));
        d.add(new NumericDocValuesField("n", 1));
        d.add(new StoredField("json", version));
        return d;
    }

    private long count(String field, String value) {
        return count(index, new TermQuery(new Term(field, value)));
    }

    private static long count(TenantIndex idx, org.apache.lucene.search.Query q) {
        Integer n = idx.read(s -> s.count(q));
        return n;
    }

    @Test
    void a_block_rejected_halfway_by_lucene_leaves_the_previous_versions_in_place() {
        index.write((w, current) -> w.addDocuments(List.of(doc("a", "a1"), doc("b", "b1"))), false);

        Document bad = doc("c", "c1");
        // the same field with another doc-values type is refused by Lucene while indexing the block
        bad.add(new SortedDocValuesField("n", new BytesRef("x")));
        assertThatThrownBy(() -> index.write((w, current) -> w.updateDocuments(
                new TermInSetQuery("uid", List.of(new BytesRef("a"), new BytesRef("b"))),
                List.of(doc("a", "a2"), bad, doc("b", "b2"))), false))
                .isInstanceOf(IllegalArgumentException.class);

        assertThat(count("version", "a1")).isEqualTo(1);
        assertThat(count("version", "b1")).isEqualTo(1);
        assertThat(count("version", "a2")).isZero();
        assertThat(count("uid", "c")).isZero();
        assertThat(count(index, new MatchAllDocsQuery())).isEqualTo(2);

        // still writable, and a good block replaces both at once
        index.write((w, current) -> w.updateDocuments(
                new TermInSetQuery("uid", List.of(new BytesRef("a"), new BytesRef("b"))),
                List.of(doc("a", "a3"), doc("b", "b3"))), false);
        assertThat(count("version", "a3") + count("version", "b3")).isEqualTo(2);
        assertThat(count(index, new MatchAllDocsQuery())).isEqualTo(2);
    }

    @Test
    void close_is_safe_twice_and_use_after_close_is_refused() {
        index.close();
        index.close();
        assertThatThrownBy(() -> count("uid", "a")).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> index.write((w, current) -> w.addDocument(doc("a", "a1")), false))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(index::commit).isInstanceOf(IllegalStateException.class)
                .isNotInstanceOf(MemoryStoreException.class);
    }

    @Test
    void a_commit_that_fails_discards_the_write_and_stops_the_index_until_reopened() {
        FlakyDirectory dir = new FlakyDirectory(new ByteBuffersDirectory());
        TenantIndex flaky = TenantIndex.open("memory/flaky", dir, analysis.indexAnalyzer(),
                TenantIndex.CommitPolicy.EVERY_WRITE, "test");
        flaky.write((w, current) -> w.addDocument(doc("a", "a1")), false);

        dir.failSync = true;
        assertThatThrownBy(() -> flaky.write((w, current) -> w.addDocument(doc("b", "b1")), false))
                .isInstanceOf(MemoryStoreException.class)
                .hasMessageContaining("memory/flaky").hasMessageContaining("rolled back");
        assertThatThrownBy(() -> count(flaky, new MatchAllDocsQuery()))
                .isInstanceOf(MemoryStoreException.class).hasMessageContaining("reopen");
        flaky.close();

        dir.failSync = false;
        TenantIndex reopened = TenantIndex.open("memory/flaky", new FlakyDirectory(dir.getDelegate()),
                analysis.indexAnalyzer(), TenantIndex.CommitPolicy.EVERY_WRITE, "test");
        try {
            assertThat(count(reopened, new MatchAllDocsQuery())).isEqualTo(1);
            assertThat(count(reopened, new TermQuery(new Term("uid", "b")))).isZero();
        } finally {
            reopened.close();
        }
    }

    /** A directory whose fsync can be made to fail, and whose close leaves the data for a reopen. */
    private static final class FlakyDirectory extends FilterDirectory {
        volatile boolean failSync;

        FlakyDirectory(Directory in) {
            super(in);
        }

        @Override
        public void sync(Collection<String> names) throws IOException {
            if (failSync) {
                throw new IOException("injected fsync failure");
            }
            super.sync(names);
        }

        @Override
        public void close() {
            // keep the delegate's files: the test reopens them
        }
    }
}
