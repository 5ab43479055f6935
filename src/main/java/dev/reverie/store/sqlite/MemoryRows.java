package dev.reverie.store.sqlite;

import dev.reverie.Embedding;
import dev.reverie.Memory;
import dev.reverie.MemoryStoreException;
import dev.reverie.internal.DecodedRecords;
import dev.reverie.internal.Vectors;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Objects;

/**
 * How the SQLite store keeps a memory's recall statistics: in the columns {@code retrieval_count}
 * and {@code last_retrieved_at} (schema version 6), which are authoritative over the same fields of
 * the JSON record in {@code data}. Every {@code buildContext} records recalls for the memories it
 * used; writing two columns leaves the JSON text as it was, so the next read of the memory still finds
 * it decoded in {@link DecodedRecords} (keyed by that text) instead of decoding it again, and the
 * write spares reading and re-serializing the record. The JSON keeps the values of the last full
 * write, so every read of a memory selects {@link #columns} and decodes it with {@link #row}, which
 * lays the columns over the decoded record. Stateless and thread-safe.
 */
final class MemoryRows {

    /** How many columns {@link #columns} selects: a query's own columns follow from {@code COUNT + 1}. */
    static final int COUNT = 4;

    private MemoryRows() {
    }

    /** The columns every read of a memory selects, in the order {@link #row} reads them. */
    static String columns(String alias) {
        return SqliteSchema.columns(alias, "data", "embedding", "retrieval_count", "last_retrieved_at");
    }

    /**
     * The memory of a row read through {@link #columns}: the JSON record with the row's embedding and
     * the columns' recall count and time (one copy of the decoded record at most, none when the row has
     * no embedding and the columns agree with the JSON).
     */
    static Memory row(ResultSet rs) throws SQLException {
        Memory m = DecodedRecords.read(rs.getString(1), Memory.class);
        byte[] blob = rs.getBytes(2);
        int count = rs.getInt(3);
        Instant last = SqliteSchema.time(rs.getString(4));
        boolean sameRecalls = m.retrievalCount() == count && Objects.equals(m.lastRetrievedAt(), last);
        if (blob == null && sameRecalls) {
            return m;
        }
        Memory.Builder b = m.toBuilder();
        if (blob != null) {
            b.embedding(Embedding.of(Vectors.fromBytes(blob)));
        }
        if (!sameRecalls) {
            b.retrievalCount(count).lastRetrievedAt(last);
        }
        return b.build();
    }

    /**
     * The failure of the migration to {@link SqliteSchema#RECALL_COLUMNS_VERSION} (cause {@code e}), naming
     * the first memory whose JSON record SQLite cannot read, when one is the reason; called inside the
     * migration's transaction, which the caller then rolls back (so the file stays as it was, at
     * {@code startVersion}: the migrations of one open run in one transaction).
     */
    static MemoryStoreException backfillFailed(Connection c, String label, int startVersion, SQLException e) {
        String prefix = "could not open SQLite database " + label + ": ";
        String[] broken = null;
        try (var st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT id, agent, usr FROM memories WHERE NOT json_valid(data)"
                     + " ORDER BY rid LIMIT 1")) {
            if (rs.next()) {
                broken = new String[] {rs.getString(1), rs.getString(2), rs.getString(3)};
            }
        } catch (SQLException ignored) {
            // the search for the row is only to explain: the migration's own failure is reported below
        }
        if (broken == null) {
            return new MemoryStoreException(prefix + "the migration to schema version "
                    + SqliteSchema.RECALL_COLUMNS_VERSION + " failed (the file was left untouched): " + e.getMessage(), e);
        }
        return new MemoryStoreException(prefix + "the migration to schema version "
                + SqliteSchema.RECALL_COLUMNS_VERSION + " copies each memory's retrievalCount and lastRetrievedAt"
                + " from its JSON record, but the data column of memory '" + broken[0] + "' (agent '" + broken[1]
                + "', end user '" + broken[2] + "') is not valid JSON (" + e.getMessage() + "); the file was left"
                + " untouched at schema version " + startVersion
                + ": repair or delete that row, then open it again", e);
    }
}
