package dev.reverie.store.postgres;

import dev.reverie.MemoryStoreException;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Creates, migrates and checks one tenant's schema inside the caller's transaction. A
 * transaction-scoped advisory lock on the schema name makes concurrent first uses by several
 * instances safe: one creates and migrates, the others wait and then find it current. A schema
 * written by a newer Reverie, or recording another tenant's id (renamed by hand), is refused and left
 * untouched. Stateless and thread-safe.
 */
final class TenantSchema {

    private TenantSchema() {
    }

    static void migrate(Connection c, String name, String tenantId, String label) throws SQLException {
        String s = SchemaNames.quoted(name);
        try (PreparedStatement lock = c.prepareStatement("SELECT pg_advisory_xact_lock(?)")) {
            lock.setLong(1, PostgresMemoryStore.lockKey("schema", name));
            lock.execute();
        }
        boolean exists;
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM pg_namespace WHERE nspname = ?")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                exists = rs.next();
            }
        }
        try (Statement st = c.createStatement()) {
            if (!exists) {
                // only here: CREATE SCHEMA needs CREATE on the database even with IF NOT EXISTS, and a
                // least-privilege user may be given schemas made by an administrator
                st.execute("CREATE SCHEMA " + s);
            }
            st.execute("CREATE TABLE IF NOT EXISTS " + s + ".schema_version (version integer NOT NULL)");
            int version = 0;
            try (ResultSet rs = st.executeQuery("SELECT COALESCE(MAX(version), 0) FROM " + s + ".schema_version")) {
                if (rs.next()) {
                    version = rs.getInt(1);
                }
            }
            int latest = PostgresSchema.latestVersion();
            if (version > latest) {
                throw new MemoryStoreException("PostgreSQL schema " + name + " on " + label + " has schema version "
                        + version + ", newer than the " + latest + " this Reverie version supports; upgrade Reverie"
                        + " to open it (the schema was left untouched)");
            }
            for (int v = version; v < latest; v++) {
                for (String sql : PostgresSchema.MIGRATIONS.get(v)) {
                    st.execute(sql.replace("${s}", s));
                }
                st.execute("INSERT INTO " + s + ".schema_version (version) VALUES (" + (v + 1) + ")");
            }
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + s + ".meta (key, value) VALUES (?, ?)"
                + " ON CONFLICT (key) DO NOTHING")) {
            ps.setString(1, PostgresSchema.TENANT_KEY);
            ps.setString(2, tenantId);
            ps.executeUpdate();
        }
        String stored;
        try (PreparedStatement ps = c.prepareStatement("SELECT value FROM " + s + ".meta WHERE key = ?")) {
            ps.setString(1, PostgresSchema.TENANT_KEY);
            try (ResultSet rs = ps.executeQuery()) {
                stored = rs.next() ? rs.getString(1) : null;
            }
        }
        if (!tenantId.equals(stored)) {
            throw new MemoryStoreException("PostgreSQL schema " + name + " on " + label + " belongs to tenant '"
                    + stored + "', not to tenant '" + tenantId + "' whose schema name it has (was it renamed?);"
                    + " refusing to open it (the schema was left untouched)");
        }
    }
}
