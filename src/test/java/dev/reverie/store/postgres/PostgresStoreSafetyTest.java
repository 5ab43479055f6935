package dev.reverie.store.postgres;

import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.MemoryStores;
import dev.reverie.spi.StoreSafetyContract;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The safety kit on PostgreSQL: a tenant's "location" is its schema, moving a tenant renames the
 * schema, and the erase check reads the database's table and index files (after a checkpoint writes
 * every dirty page) instead of the test folder. The write-ahead log is left out: PostgreSQL keeps
 * it until a checkpoint recycles it, so an erased row lives there until then (docs/postgres.md).
 */
class PostgresStoreSafetyTest extends StoreSafetyContract {

    @Override
    protected MemoryStore openStore(Path folder) {
        return MemoryStores.open(EmbeddedPostgresServer.url(folder));
    }

    @Override
    protected Path tenantLocation(MemoryStore store, String tenantId) {
        return Path.of(((PostgresMemoryStore) store).schemaName(tenantId));
    }

    @Override
    protected void moveTenant(MemoryStore closedStore, String from, String to) throws IOException {
        try (Connection c = EmbeddedPostgresServer.connect(folder); Statement st = c.createStatement()) {
            st.execute("ALTER SCHEMA " + SchemaNames.quoted(SchemaNames.of(from)) + " RENAME TO "
                    + SchemaNames.quoted(SchemaNames.of(to)));
        } catch (SQLException e) {
            throw new IOException(e);
        }
    }

    @Override
    protected List<String> filesContaining(List<String> needles) throws IOException {
        Path base;
        try (Connection c = EmbeddedPostgresServer.connect(folder); Statement st = c.createStatement()) {
            st.execute("CHECKPOINT");
            try (ResultSet rs = st.executeQuery("SELECT oid FROM pg_database WHERE datname = current_database()")) {
                rs.next();
                base = EmbeddedPostgresServer.dataDirectory().resolve("base").resolve(rs.getString(1));
            }
        } catch (SQLException e) {
            throw new IOException(e);
        }
        return dev.reverie.spi.FileScan.needlesIn(base, needles);
    }
}
