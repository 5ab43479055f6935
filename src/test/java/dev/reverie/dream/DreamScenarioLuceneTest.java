package dev.reverie.dream;

import dev.reverie.spi.MemoryStore;
import dev.reverie.store.lucene.LuceneMemoryStore;

/** The same scenarios on the Lucene store: the cycle depends only on the SPI. */
class DreamScenarioLuceneTest extends DreamScenarioTest {

    @Override
    MemoryStore newStore() {
        return LuceneMemoryStore.inMemory();
    }
}
