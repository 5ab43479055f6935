package dev.reverie.store.lucene;

import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.MemoryStores;
import dev.reverie.spi.StoreSafetyContract;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

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
