package dev.reverie.store.lucene;

import dev.reverie.MemoryFilter;
import dev.reverie.Scope;
import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.MemoryStores;
import dev.reverie.spi.StoreSafetyContract;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class LuceneStoreSafetyTest extends StoreSafetyContract {

    @Override
    protected MemoryStore openStore(Path folder) {
        return MemoryStores.open("lucene:" + folder);
    }

    @Override
    protected Path tenantLocation(MemoryStore store, String tenantId) {
        return ((LuceneMemoryStore) store).tenantFolder(tenantId);
    }

    @Override
    protected void moveTenant(MemoryStore closedStore, String from, String to) throws IOException {
        Files.move(folder.resolve(LuceneMemoryStore.folderName(from)), folder.resolve(LuceneMemoryStore.folderName(to)));
    }

    @Test
    void an_index_made_before_the_tenant_check_keeps_its_name_opens_and_records_its_tenant() throws Exception {
        store.close();
        Path dir = folder.resolve("tenant-acme");
        try (Directory d = FSDirectory.open(dir);
             IndexWriter w = new IndexWriter(d, new IndexWriterConfig(new StandardAnalyzer()))) {
            w.commit(); // a commit without the tenant id, as every index had before
        }

        store = openStore(folder);
        assertThat(store.memories(Scope.of("acme", "receptionist", "alice"), MemoryFilter.all())).isEmpty();
        store.close();
        try (Directory d = FSDirectory.open(dir)) {
            assertThat(SegmentInfos.readLatestCommit(d).getUserData()).containsEntry(TenantIndex.TENANT_KEY, "acme");
        }
        store = openStore(folder);
    }

    /** The same properties in group-commit mode, where recent segments live in RAM until the next commit. */
    static class GroupCommit extends LuceneStoreSafetyTest {
        @Override
        protected MemoryStore openStore(Path folder) {
            return LuceneMemoryStore.builder(folder).groupCommit(java.time.Duration.ofMinutes(1)).build();
        }

        @Override
        protected void commitPending() {
            ((LuceneMemoryStore) store).commit();
        }
    }
}
