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
        store.close();
        Path file = folder.resolve("tenant-acme.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement()) {
            // what a version-1 file looks like
            st.execute("DROP TABLE meta");
            st.execute("DELETE FROM schema_version WHERE version > 1");
        }

        store = openStore(folder);
        assertThat(texts(acme, MemoryFilter.all())).containsExactly("acme's note");
        store.close();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT value FROM meta WHERE key = 'tenant_id'")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("acme");
        }
        store = openStore(folder);
    }
}
