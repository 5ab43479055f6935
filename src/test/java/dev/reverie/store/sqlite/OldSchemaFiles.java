package dev.reverie.store.sqlite;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** SQLite files as earlier schema versions left them, for the migration tests, and ways to look into them. */
final class OldSchemaFiles {

    /** Instants of every shape a TEXT time column must hold exactly (fractions, before 1970, past year 9999). */
    static final List<java.time.Instant> TIMES = List.of(java.time.Instant.parse("2026-01-08T03:00:00Z"),
            java.time.Instant.parse("2026-01-08T03:00:00.120Z"),
            java.time.Instant.parse("2026-01-08T03:00:00.123456789Z"),
            java.time.Instant.parse("1969-12-31T23:59:59.999999999Z"),
            java.time.Instant.parse("+12026-01-08T03:00:00.5Z"));

    private OldSchemaFiles() {
    }

    /**
     * A new file at schema {@code version} for {@code tenant}, as the released migrations made it (in
     * WAL mode, as the store opens it).
     */
    static void create(Connection c, int version, String tenant) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("PRAGMA journal_mode = WAL");
            st.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)");
            for (int v = 0; v < version; v++) {
                for (String sql : SqliteSchema.MIGRATIONS.get(v)) {
                    st.execute(sql);
                }
                st.execute("INSERT INTO schema_version (version) VALUES (" + (v + 1) + ")");
            }
            for (String sql : SqliteSchema.INDEXES) {
                st.execute(sql);
            }
            st.execute("INSERT INTO meta (key, value) VALUES ('" + SqliteSchema.TENANT_KEY + "', '" + tenant + "')");
        }
    }

    /** Takes away what a file gets when opened since session 10: the vector versions and their triggers. */
    static void dropVectorVersions(Statement st) throws SQLException {
        for (String table : SqliteSchema.VECTOR_TABLES) {
            for (String op : new String[] {"insert", "update", "delete"}) {
                st.execute("DROP TRIGGER IF EXISTS " + table + "_vectors_" + op); // a file without vectors has none
            }
        }
        st.execute("DROP TABLE vector_versions");
    }

    /**
     * Replaces each of {@code indexes} (of a file at schema version 7 or later) by the FTS5 index that
     * versions 1 to 6 created, one with a copy of the words it indexes, holding what those versions
     * wrote into it: each row's text prefixed by its end user's scope token
     * ({@link SqliteMemoryStore#scopedWords}).
     */
    static void withContentIndexes(Connection c, Statement st, String... indexes) throws SQLException {
        for (String index : indexes) {
            String table = switch (index) {
                case "memories_fts" -> "memories";
                case "observations_fts" -> "observations";
                case "archive_fts" -> "archive_turns";
                default -> throw new IllegalArgumentException("not an FTS5 index of the schema: " + index);
            };
            st.execute("DROP TABLE " + index);
            st.execute("CREATE VIRTUAL TABLE " + index + " USING fts5(text, tokenize = '" + SqliteSchema.TOKENIZER + "')");
            List<Object[]> rows = new java.util.ArrayList<>();
            try (java.sql.ResultSet rs = st.executeQuery("SELECT rid, agent, usr, text FROM " + table)) {
                while (rs.next()) {
                    rows.add(new Object[] {rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4)});
                }
            }
            try (java.sql.PreparedStatement ps = c.prepareStatement("INSERT INTO " + index + " (rowid, text) VALUES (?, ?)")) {
                for (Object[] r : rows) {
                    ps.setLong(1, (Long) r[0]);
                    ps.setString(2, SqliteMemoryStore.scopedWords(
                            SqliteMemoryStore.scopeToken((String) r[1], (String) r[2]), (String) r[3]));
                    ps.executeUpdate();
                }
            }
        }
    }

    /** The one number a query gives. */
    static int number(Statement st, String sql) throws SQLException {
        try (ResultSet rs = st.executeQuery(sql)) {
            assertThat(rs.next()).isTrue();
            return rs.getInt(1);
        }
    }

    /** The schema, every row of {@code table} and the schema versions of the file, as text. */
    static String dump(Path file, String table) throws SQLException {
        StringBuilder sb = new StringBuilder();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement()) {
            for (String sql : List.of("SELECT type, name, sql FROM sqlite_master ORDER BY name",
                    "SELECT * FROM " + table + " ORDER BY rid", "SELECT * FROM schema_version")) {
                try (ResultSet rs = st.executeQuery(sql)) {
                    int n = rs.getMetaData().getColumnCount();
                    while (rs.next()) {
                        for (int k = 1; k <= n; k++) {
                            sb.append(rs.getString(k)).append('|');
                        }
                        sb.append('\n');
                    }
                }
            }
        }
        return sb.toString();
    }
}
