package dev.reverie;

import dev.reverie.spi.MemoryStore;
import dev.reverie.store.lucene.LuceneMemoryStore;

/** The same scenarios on the Lucene store. */
class AskedSecretsLuceneTest extends AskedSecretsTest {

    @Override
    MemoryStore newStore() {
        return LuceneMemoryStore.inMemory();
    }
}
