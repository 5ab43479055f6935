package dev.reverie.store.postgres;

import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.MemoryStoreProvider;

/**
 * Serves the {@code postgresql:} scheme: {@code postgresql://host:5432/db?user=...&password=...}, the
 * part of a PostgreSQL JDBC URL after {@code jdbc:} (so every driver option works), opened with a
 * HikariCP pool owned by the store. Needs the PostgreSQL JDBC driver and HikariCP on the class path.
 * Stateless and thread-safe.
 */
public final class PostgresStoreProvider implements MemoryStoreProvider {

    @Override
    public String scheme() {
        return "postgresql";
    }

    @Override
    public MemoryStore open(String location) {
        if (!location.startsWith("//")) {
            throw new IllegalArgumentException("postgresql store uri must look like postgresql://host:5432/db?user=..."
                    + " (the part of a JDBC URL after 'jdbc:'), was 'postgresql:"
                    + PostgresMemoryStore.redact(location) + "'");
        }
        return PostgresMemoryStore.open("postgresql:" + location);
    }
}
