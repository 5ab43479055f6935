package dev.reverie.store.lucene;

import dev.reverie.Memory;
import dev.reverie.MemoryFilter;
import dev.reverie.MemoryKind;
import dev.reverie.MemoryStatus;
import dev.reverie.Scope;
import dev.reverie.spi.Scored;
import dev.reverie.spi.WriteBatch;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Recall statistics in the Lucene store's default (translog) mode: acknowledged in the translog and
 * read at once, but written into the memories' doc values only at the next commit, so a recall flush
 * never makes the next read refresh the searcher (on a large tenant that refresh rewrote whole
 * doc-values fields while reads waited). Real indexes in a temporary folder; background commits are
 * pushed out of the way, so the tests decide when commits happen.
 */
class LuceneUnfoldedRecallsTest {

    private static final Instant T0 = Instant.parse("2026-03-01T09:00:00Z");
    private static final String TENANT = "clinic";
    private static final Scope ANA = Scope.of(TENANT, "desk", "ana");
    private static final Scope BEA = Scope.of(TENANT, "desk", "bea");

    @TempDir
    Path dir;

    private LuceneMemoryStore store;

    @BeforeEach
    void open() {
        store = openStore();
    }

    @AfterEach
    void close() {
        store.close();
    }

    private LuceneMemoryStore openStore() {
        return openStore(dir);
    }

    private static LuceneMemoryStore openStore(Path folder) {
        return LuceneMemoryStore.builder(folder).translogCommitInterval(Duration.ofMinutes(10))
                .recallFoldInterval(Duration.ofMinutes(10)).recallRetireDelay(Duration.ZERO).build();
    }

    private static Memory memory(Scope scope, String id, String text) {
        return Memory.builder(id, scope, MemoryKind.FACT, text, T0).subject("user.fact." + id).build();
    }

    private static Memory recalled(Memory m, int count, Instant at) {
        return m.toBuilder().retrievalCount(count).lastRetrievedAt(at).build();
    }

    @Test
    void recall_writes_are_read_at_once_and_never_make_a_read_refresh() {
        Memory cello = memory(ANA, "m-cello", "plays the cello on Sundays");
        store.write(WriteBatch.of(ANA).put(cello).put(memory(ANA, "m-jazz", "likes jazz")));
        assertThat(store.memory(ANA, "m-cello")).contains(cello);
        long refreshes = store.refreshes(TENANT);

        store.write(WriteBatch.of(ANA).addRecalls("m-cello", 2, T0.plusSeconds(1)));
        store.writeEach(List.of(WriteBatch.of(ANA).addRecalls("m-cello", 1, T0.plusSeconds(3)),
                WriteBatch.of(ANA).addRecalls("m-jazz", 4, T0.plusSeconds(2)),
                WriteBatch.of(ANA).addRecalls("m-cello", 3, T0.plusSeconds(2))));

        Memory expected = recalled(cello, 6, T0.plusSeconds(3));
        assertThat(store.memory(ANA, "m-cello")).contains(expected);
        assertThat(store.searchMemories(ANA, "cello", EnumSet.allOf(MemoryStatus.class),
                EnumSet.allOf(MemoryKind.class), 5)).extracting(Scored::item).containsExactly(expected);
        assertThat(store.memories(ANA, MemoryFilter.all())).extracting(Memory::retrievalCount)
                .containsExactly(6, 4);
        assertThat(store.refreshes(TENANT)).as("no read refreshed for the recalls").isEqualTo(refreshes);
        assertThat(store.unfoldedRecalls(TENANT)).isEqualTo(2);

        // an ordinary write still makes the next read refresh, and the recalls stay as they were
        store.write(WriteBatch.of(ANA).put(memory(ANA, "m-tea", "drinks green tea")));
        assertThat(store.memory(ANA, "m-cello")).contains(expected);
        assertThat(store.refreshes(TENANT)).isEqualTo(refreshes + 1);
    }

    @Test
    void a_commit_folds_them_into_the_doc_values_and_they_survive_reopening() throws IOException {
        Memory cello = memory(ANA, "m-cello", "plays the cello on Sundays");
        store.write(WriteBatch.of(ANA).put(cello));
        store.write(WriteBatch.of(ANA).addRecalls("m-cello", 5, T0.plusSeconds(9)));
        assertThat(committedRecallCount(cello)).as("not in the index before a commit").isZero();

        store.commit();
        assertThat(committedRecallCount(cello)).as("folded by the commit").isEqualTo(5);
        assertThat(store.memory(ANA, "m-cello")).contains(recalled(cello, 5, T0.plusSeconds(9)));

        // the next commit drops them from memory: the published searcher has them now
        store.write(WriteBatch.of(ANA).addRecalls("m-cello", 1, T0.plusSeconds(10)));
        store.commit();
        store.commit();
        assertThat(store.unfoldedRecalls(TENANT)).isZero();
        Memory after = recalled(cello, 6, T0.plusSeconds(10));
        assertThat(store.memory(ANA, "m-cello")).contains(after);

        store.close();
        store = openStore();
        assertThat(store.memory(ANA, "m-cello")).contains(after);
    }

    @Test
    void a_status_change_keeps_them_and_a_rewrite_or_delete_replaces_them() throws IOException {
        Memory cello = memory(ANA, "m-cello", "plays the cello on Sundays");
        store.write(WriteBatch.of(ANA).put(cello));
        store.write(WriteBatch.of(ANA).addRecalls("m-cello", 3, T0.plusSeconds(1)));

        // one group: recalls, a status change that rewrites the memory, recalls again
        store.writeEach(List.of(WriteBatch.of(ANA).addRecalls("m-cello", 2, T0.plusSeconds(2)),
                WriteBatch.of(ANA).setMemoryStatus("m-cello", MemoryStatus.SUPERSEDED, "m-other", T0.plusSeconds(3)),
                WriteBatch.of(ANA).addRecalls("m-cello", 1, T0.plusSeconds(4))));
        Memory superseded = store.memory(ANA, "m-cello").orElseThrow();
        assertThat(superseded.status()).isEqualTo(MemoryStatus.SUPERSEDED);
        assertThat(superseded.retrievalCount()).isEqualTo(6);
        assertThat(superseded.lastRetrievedAt()).isEqualTo(T0.plusSeconds(4));

        // a put with its own statistics replaces the unfolded ones, also through the commit
        Memory reset = cello.toBuilder().retrievalCount(0).lastRetrievedAt(null).build();
        store.write(WriteBatch.of(ANA).put(reset));
        assertThat(store.memory(ANA, "m-cello")).contains(reset);
        store.commit();
        assertThat(store.memory(ANA, "m-cello")).contains(reset);
        assertThat(committedRecallCount(cello)).isZero();

        // a joint write (the dream's) reads them too and leaves no stale ones behind
        store.write(WriteBatch.of(ANA).addRecalls("m-cello", 2, T0.plusSeconds(5)));
        assertThat(store.writeAll(List.of(WriteBatch.of(ANA).addRecalls("m-cello", 1, T0.plusSeconds(6)),
                WriteBatch.of(BEA).put(memory(BEA, "m-bea", "runs marathons"))))).isTrue();
        assertThat(store.memory(ANA, "m-cello")).contains(recalled(cello, 3, T0.plusSeconds(6)));
        store.commit();
        assertThat(committedRecallCount(cello)).isEqualTo(3);

        // a deleted memory keeps nothing: put again under its id, it starts from its own record
        store.write(WriteBatch.of(ANA).addRecalls("m-cello", 4, T0.plusSeconds(7)));
        store.write(WriteBatch.of(ANA).deleteMemory("m-cello"));
        assertThat(store.memory(ANA, "m-cello")).isEmpty();
        store.write(WriteBatch.of(ANA).put(cello));
        store.commit();
        assertThat(store.memory(ANA, "m-cello")).contains(cello);
        assertThat(committedRecallCount(cello)).isZero();
    }

    @Test
    void erasing_a_user_drops_theirs_and_keeps_the_others() {
        Memory ana = memory(ANA, "m-1", "plays the cello");
        Memory bea = memory(BEA, "m-1", "plays the cello too");
        store.write(WriteBatch.of(ANA).put(ana));
        store.write(WriteBatch.of(BEA).put(bea));
        store.writeEach(List.of(WriteBatch.of(ANA).addRecalls("m-1", 2, T0.plusSeconds(1)),
                WriteBatch.of(BEA).addRecalls("m-1", 3, T0.plusSeconds(1))));

        store.erase(ANA);

        assertThat(store.unfoldedRecalls(TENANT)).isEqualTo(1);
        assertThat(store.memory(BEA, "m-1")).contains(recalled(bea, 3, T0.plusSeconds(1)));
        store.write(WriteBatch.of(ANA).put(ana));
        assertThat(store.memory(ANA, "m-1")).contains(ana);
    }

    @Test
    void background_commits_leave_them_unfolded_and_a_crash_loses_none_of_them() throws IOException {
        Memory cello = memory(ANA, "m-cello", "plays the cello on Sundays");
        Memory jazz = memory(ANA, "m-jazz", "likes jazz");
        Memory tea = memory(ANA, "m-tea", "drinks green tea");
        store.write(WriteBatch.of(ANA).put(cello).put(jazz).put(tea));
        store.write(WriteBatch.of(ANA).addRecalls("m-cello", 2, T0.plusSeconds(1)));
        store.write(WriteBatch.of(ANA).addRecalls("m-tea", 7, T0.plusSeconds(1)));
        store.commitTick(); // a background commit before the fold is due: it commits the memories, not the recalls
        assertThat(committedRecallCount(cello)).isZero();

        store.writeEach(List.of(WriteBatch.of(ANA).addRecalls("m-cello", 3, T0.plusSeconds(2)),
                WriteBatch.of(ANA).addRecalls("m-jazz", 1, T0.plusSeconds(2))));
        // rewritten with its statistics of then (5), after which its recalls count from there
        store.write(WriteBatch.of(ANA).addRecalls("m-cello", 1, T0.plusSeconds(3))
                .setMemoryStatus("m-cello", MemoryStatus.SUPERSEDED, "m-other", T0.plusSeconds(3)));
        store.write(WriteBatch.of(ANA).addRecalls("m-cello", 1, T0.plusSeconds(4)));
        store.write(WriteBatch.of(ANA).put(tea)); // put again with its own (zero) statistics
        store.commitTick();
        assertThat(committedRecallCount(cello)).as("the rewrite's own statistics").isEqualTo(6);
        store.write(WriteBatch.of(ANA).addRecalls("m-cello", 4, T0.plusSeconds(5)));
        store.write(WriteBatch.of(ANA).addRecalls("m-jazz", 1, T0.plusSeconds(6)));

        Memory celloNow = recalled(cello, 11, T0.plusSeconds(5)).toBuilder().status(MemoryStatus.SUPERSEDED)
                .supersededBy("m-other").updatedAt(T0.plusSeconds(3)).build();
        Memory jazzNow = recalled(jazz, 2, T0.plusSeconds(6));
        assertThat(store.memory(ANA, "m-cello")).contains(celloNow);
        assertThat(store.memory(ANA, "m-jazz")).contains(jazzNow);
        assertThat(store.memory(ANA, "m-tea")).contains(tea);
        Path crashed = dir.resolve("crashed");
        LuceneTranslogTest.copy(dir.resolve(LuceneMemoryStore.folderName(TENANT)),
                crashed.resolve(LuceneMemoryStore.folderName(TENANT)));

        for (int open = 0; open < 2; open++) { // replayed, then found folded and committed
            try (LuceneMemoryStore reopened = openStore(crashed)) {
                assertThat(reopened.memory(ANA, "m-cello")).contains(celloNow);
                assertThat(reopened.memory(ANA, "m-jazz")).contains(jazzNow);
                assertThat(reopened.memory(ANA, "m-tea")).contains(tea);
            }
        }
    }

    @Test
    void a_background_commit_folds_them_once_the_fold_is_due() throws IOException {
        store.close();
        store = LuceneMemoryStore.builder(dir).translogCommitInterval(Duration.ofMinutes(10))
                .recallFoldInterval(Duration.ZERO).build();
        Memory cello = memory(ANA, "m-cello", "plays the cello on Sundays");
        store.write(WriteBatch.of(ANA).put(cello));
        store.write(WriteBatch.of(ANA).addRecalls("m-cello", 2, T0.plusSeconds(1)));
        store.commitTick();
        assertThat(committedRecallCount(cello)).isEqualTo(2);
    }

    @Test
    void a_memory_from_before_the_recall_doc_values_is_rewritten_at_open_and_counted_once_after_a_crash()
            throws IOException {
        Memory old = memory(ANA, "m-old", "plays the cello on Sundays").toBuilder().retrievalCount(4).build();
        Memory jazz = memory(ANA, "m-jazz", "likes jazz");
        store.write(WriteBatch.of(ANA).put(old).put(jazz));
        store.close();
        // what an index written before the recall doc values holds: the memory without them
        LuceneMemoryStoreTest.putWithoutRecallDocValues(dir.resolve(LuceneMemoryStore.folderName(TENANT)), old);
        store = openStore();
        assertThat(store.memory(ANA, "m-old")).contains(old); // opens the tenant's index
        assertThat(committedRecallCount(old)).as("rewritten with its recall doc values at open").isEqualTo(4);

        store.write(WriteBatch.of(ANA).addRecalls("m-jazz", 1, T0.plusSeconds(1)));
        store.write(WriteBatch.of(ANA).addRecalls("m-old", 2, T0.plusSeconds(2)));
        store.commitTick(); // leaves them unfolded
        Memory expected = recalled(old, 6, T0.plusSeconds(2));
        assertThat(store.memory(ANA, "m-old")).contains(expected);
        Path crashed = dir.resolve("crashed");
        LuceneTranslogTest.copy(dir.resolve(LuceneMemoryStore.folderName(TENANT)),
                crashed.resolve(LuceneMemoryStore.folderName(TENANT)));
        try (LuceneMemoryStore reopened = openStore(crashed)) {
            assertThat(reopened.memory(ANA, "m-old")).contains(expected);
            assertThat(reopened.memory(ANA, "m-jazz")).contains(recalled(jazz, 1, T0.plusSeconds(1)));
        }
    }

    @Test
    void folded_values_stay_in_memory_for_their_delay_and_are_not_folded_twice() throws IOException {
        Memory cello = memory(ANA, "m-cello", "plays the cello on Sundays");
        Memory jazz = memory(ANA, "m-jazz", "likes jazz");
        store.write(WriteBatch.of(ANA).put(cello).put(jazz));
        store.memory(ANA, "m-cello");
        store.foldEvery(TENANT, Duration.ofMinutes(10), Duration.ofHours(1));

        store.write(WriteBatch.of(ANA).addRecalls("m-cello", 2, T0.plusSeconds(1)));
        // a dream's joint writes in quick succession: each folds and commits
        assertThat(store.writeAll(List.of(WriteBatch.of(BEA).put(memory(BEA, "m-b1", "runs"))))).isTrue();
        store.write(WriteBatch.of(ANA).addRecalls("m-jazz", 3, T0.plusSeconds(2)));
        assertThat(store.writeAll(List.of(WriteBatch.of(BEA).put(memory(BEA, "m-b2", "swims"))))).isTrue();

        assertThat(store.unfoldedRecalls(TENANT)).as("kept for reads on older searchers").isEqualTo(2);
        assertThat(committedRecallCount(cello)).isEqualTo(2);
        assertThat(committedRecallCount(jazz)).isEqualTo(3);
        assertThat(store.memory(ANA, "m-cello")).contains(recalled(cello, 2, T0.plusSeconds(1)));

        store.foldEvery(TENANT, Duration.ofMinutes(10), Duration.ZERO);
        store.commit();
        assertThat(store.unfoldedRecalls(TENANT)).as("both folds retired on their own").isZero();
        assertThat(store.memory(ANA, "m-jazz")).contains(recalled(jazz, 3, T0.plusSeconds(2)));
    }

    @Test
    void an_idle_index_folds_once_the_fold_is_due() throws IOException {
        Memory cello = memory(ANA, "m-cello", "plays the cello on Sundays");
        store.write(WriteBatch.of(ANA).put(cello));
        store.write(WriteBatch.of(ANA).addRecalls("m-cello", 2, T0.plusSeconds(1)));
        store.commitTick(); // commits the write, leaves the recalls unfolded
        assertThat(committedRecallCount(cello)).isZero();

        store.foldEvery(TENANT, Duration.ZERO, Duration.ZERO);
        store.commitTick(); // nothing written since: it commits only to fold
        assertThat(committedRecallCount(cello)).isEqualTo(2);
        store.commitTick();
        assertThat(store.unfoldedRecalls(TENANT)).isZero();
    }

    @Test
    void the_unfolded_generation_is_trusted_only_with_the_commit_it_was_written_with() {
        assertThat(TenantIndex.foldedGeneration(null, 7)).isEqualTo(7);
        assertThat(TenantIndex.foldedGeneration("3@7", 7)).isEqualTo(3);
        // left behind by a later commit of a Reverie that does not know the key: ignored
        assertThat(TenantIndex.foldedGeneration("3@6", 7)).isEqualTo(7);
        assertThat(TenantIndex.foldedGeneration("9@7", 7)).isEqualTo(7);
        assertThat(TenantIndex.foldedGeneration("3", 7)).isEqualTo(7);
        assertThat(TenantIndex.foldedGeneration("x@7", 7)).isEqualTo(7);
    }

    /** The recall count the last commit on disk holds for the memory (0: none, or no document). */
    private long committedRecallCount(Memory m) throws IOException {
        try (Directory d = FSDirectory.open(dir.resolve(LuceneMemoryStore.folderName(TENANT)));
             DirectoryReader r = DirectoryReader.open(d)) {
            BytesRef uid = new BytesRef(LuceneDocuments.uid(LuceneDocuments.Type.MEMORY, m.scope(), m.id()));
            for (LeafReaderContext leaf : r.leaves()) {
                PostingsEnum docs = leaf.reader().postings(new Term(LuceneDocuments.UID, uid));
                if (docs == null) {
                    continue;
                }
                for (int doc = docs.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = docs.nextDoc()) {
                    if (leaf.reader().getLiveDocs() == null || leaf.reader().getLiveDocs().get(doc)) {
                        LuceneDocuments.Recalls recalls = LuceneDocuments.recalls(leaf.reader(), doc);
                        return recalls == null ? 0 : recalls.count();
                    }
                }
            }
            return 0;
        }
    }
}
