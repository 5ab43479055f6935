package dev.reverie;

import dev.reverie.spi.MemoryStore;
import dev.reverie.store.lucene.LuceneMemoryStore;

/** The same scenarios on the Lucene store. */
class SentenceLinesLuceneTest extends SentenceLinesTest {

    @Override
    MemoryStore newStore() {
        return LuceneMemoryStore.inMemory();
    }
}
