package dev.reverie;

import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.MemoryStores;
import dev.reverie.store.postgres.EmbeddedPostgresServer;

import java.nio.file.Path;
import java.util.UUID;

/** The same scenarios on the PostgreSQL store (a fresh database of the embedded server each). */
class AskedSecretsPostgresTest extends AskedSecretsTest {

    @Override
    MemoryStore newStore() {
        return MemoryStores.open(EmbeddedPostgresServer.url(Path.of("asked-secrets-" + UUID.randomUUID())));
    }
}
