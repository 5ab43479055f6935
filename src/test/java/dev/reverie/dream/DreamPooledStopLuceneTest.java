package dev.reverie.dream;

import dev.reverie.spi.MemoryStore;
import dev.reverie.store.lucene.LuceneMemoryStore;

/** The same stopped pooled runs on the Lucene store: leases, locks and the writer thread hold there too. */
class DreamPooledStopLuceneTest extends DreamPooledStopTest {

    @Override
    MemoryStore newStore() {
        return LuceneMemoryStore.inMemory();
    }
}
