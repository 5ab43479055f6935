package dev.reverie.store.postgres;

import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.MemoryStoreContract;
import dev.reverie.spi.MemoryStores;

import java.nio.file.Path;

class PostgresMemoryStoreTest extends MemoryStoreContract {

    @Override
    protected MemoryStore openStore(Path folder) {
        return MemoryStores.open(EmbeddedPostgresServer.url(folder));
    }
}
