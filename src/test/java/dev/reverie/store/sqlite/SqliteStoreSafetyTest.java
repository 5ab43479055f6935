package dev.reverie.store.sqlite;

import dev.reverie.MemoryFilter;
import dev.reverie.Scope;
import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.MemoryStores;
import dev.reverie.spi.StoreSafetyContract;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

import static org.assertj.core.api.Assertions.assertThat;

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

    @Test
    void a_file_made_before_the_tenant_check_keeps_its_name_opens_and_records_its_tenant() throws Exception {
        Scope acme = Scope.of("acme", "receptionist", "alice");
        put(acme, memory(acme, "acme's note"));
        store.write(dev.reverie.spi.WriteBatch.of(acme).archive(new dev.reverie.spi.SessionTurn(acme, "s1", 0, "t0",
                dev.reverie.Role.USER, "Alice", "we planted tulips by the river", T0)));
        store.close();
        Path file = folder.resolve("tenant-acme.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement()) {
            // what a version-1 file looks like: no meta table, no archive search columns or index, no
            // vector versions (their triggers name the columns dropped below)
            OldSchemaFiles.dropVectorVersions(st);
            st.execute("DROP TABLE meta");
            st.execute("DROP TABLE leases");
            st.execute("DROP TABLE archive_fts");
            // version 1's indexes held a copy of the words they index (schema version 7 dropped it)
            OldSchemaFiles.withContentIndexes(c, st, "memories_fts", "observations_fts");
            st.execute("DROP INDEX archive_by_time");
            st.execute("DROP INDEX observations_by_status");
            st.execute("ALTER TABLE observations DROP COLUMN consolidated_at");
            st.execute("ALTER TABLE memories DROP COLUMN retrieval_count");
            st.execute("ALTER TABLE memories DROP COLUMN last_retrieved_at");
            for (String column : new String[] {"text", "at", "dim", "embedding"}) {
                st.execute("ALTER TABLE archive_turns DROP COLUMN " + column);
            }
            st.execute("DELETE FROM schema_version WHERE version > 1");
        }

        store = openStore(folder);
        assertThat(texts(acme, MemoryFilter.all())).containsExactly("acme's note");
        assertThat(store.searchMemories(acme, "acme's note", java.util.EnumSet.allOf(dev.reverie.MemoryStatus.class),
                java.util.EnumSet.allOf(dev.reverie.MemoryKind.class), 5)).extracting(h -> h.item().text())
                .containsExactly("acme's note");
        // the archive-search migration filled in the old archive's search entries
        assertThat(store.searchTurns(acme, "Alice tulips", 5)).extracting(h -> h.item().turnId())
                .containsExactly("t0");
        store.close();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT value FROM meta WHERE key = 'tenant_id'")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("acme");
        }
        store = openStore(folder);
    }
}
