package dev.reverie.store.sqlite;

import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.MemoryStores;
import dev.reverie.spi.StoreSafetyContract;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

class SqliteStoreSafetyTest extends StoreSafetyContract {

    @Override
    protected MemoryStore openStore(Path folder) {
        return MemoryStores.open("sqlite:" + folder);
    }

    @Override
    protected Path tenantLocation(MemoryStore store, String tenantId) {
        return ((SqliteMemoryStore) store).tenantFile(tenantId);
    }

    @Override
    protected void moveTenant(MemoryStore closedStore, String from, String to) throws IOException {
        for (String suffix : new String[] {"", "-wal", "-shm"}) {
            Path source = folder.resolve(SqliteMemoryStore.fileName(from) + suffix);
            if (Files.exists(source)) {
                Files.move(source, folder.resolve(SqliteMemoryStore.fileName(to) + suffix));
            }
        }
    }
}
