package dev.reverie.store.sqlite;

import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.MemoryStoreProvider;

import java.nio.file.Path;

/**
 * Serves the {@code sqlite:} scheme: {@code sqlite:<folder>} (one database file per tenant, durable),
 * {@code sqlite:<folder>?sync=normal} (faster; an acknowledged write may be lost on power failure,
 * never on a process crash), {@code sqlite:<folder>?maxOpenTenants=<n>} (how many tenants keep
 * connections open, default 256; options join with {@code &}), and {@code sqlite::memory:}.
 * Stateless and thread-safe.
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
        int maxOpenTenants = SqliteMemoryStore.DEFAULT_MAX_OPEN_TENANTS;
        String path = location;
        int q = location.indexOf('?');
        if (q >= 0) {
            path = location.substring(0, q);
            for (String option : location.substring(q + 1).split("&", -1)) {
                if (option.equals("sync=normal")) {
                    relaxed = true;
                } else if (option.startsWith("maxOpenTenants=")) {
                    maxOpenTenants = positive(option);
                } else if (!option.equals("sync=full")) {
                    throw new IllegalArgumentException("unknown sqlite option '" + option
                            + "'; supported: sync=full (default), sync=normal, maxOpenTenants=<n> (default "
                            + SqliteMemoryStore.DEFAULT_MAX_OPEN_TENANTS + ")");
                }
            }
        }
        if (path.isBlank()) {
            throw new IllegalArgumentException("sqlite location must name a folder, e.g. sqlite:./reverie-data");
        }
        return SqliteMemoryStore.open(Path.of(path), relaxed, maxOpenTenants);
    }

    private static int positive(String option) {
        String value = option.substring(option.indexOf('=') + 1);
        try {
            int n = Integer.parseInt(value);
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new IllegalArgumentException("sqlite option '" + option + "' must be a whole number of at least 1");
    }
}
