package dev.reverie.dream;

import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.MemoryStores;
import dev.reverie.store.postgres.EmbeddedPostgresServer;

import java.nio.file.Path;
import java.util.UUID;

/** The same stopped pooled runs on the PostgreSQL store (a fresh database of the embedded server). */
class DreamPooledStopPostgresTest extends DreamPooledStopTest {

    @Override
    MemoryStore newStore() {
        return MemoryStores.open(EmbeddedPostgresServer.url(Path.of("dream-stop-" + UUID.randomUUID())));
    }
}
