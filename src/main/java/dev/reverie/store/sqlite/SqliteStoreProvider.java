package dev.reverie.store.sqlite;

import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.MemoryStoreProvider;

import java.nio.file.Path;

/**
 * Serves the {@code sqlite:} scheme: {@code sqlite:<folder>} (one database file per tenant, durable),
 * {@code sqlite:<folder>?sync=normal} (faster; an acknowledged write may be lost on power failure,
 * never on a process crash), and {@code sqlite::memory:}. Stateless and thread-safe.
 */
public final class SqliteStoreProvider implements MemoryStoreProvider {

    @Override
    public String scheme() {
        return "sqlite";
    }

    @Override
    public MemoryStore open(String location) {
        if (location.equals(":memory:")) {
            return SqliteMemoryStore.inMemory();
        }
        boolean relaxed = false;
        String path = location;
        int q = location.indexOf('?');
        if (q >= 0) {
            String option = location.substring(q + 1);
            path = location.substring(0, q);
            if (option.equals("sync=normal")) {
                relaxed = true;
            } else if (!option.equals("sync=full")) {
                throw new IllegalArgumentException("unknown sqlite option '" + option
                        + "'; supported: sync=full (default), sync=normal");
            }
        }
        if (path.isBlank()) {
            throw new IllegalArgumentException("sqlite location must name a folder, e.g. sqlite:./reverie-data");
        }
        return SqliteMemoryStore.open(Path.of(path), relaxed);
    }
}
