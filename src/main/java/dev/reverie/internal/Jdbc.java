package dev.reverie.internal;

import dev.reverie.Embedding;
import dev.reverie.Memory;
import dev.reverie.Observation;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The JDBC plumbing the SQL stores (SQLite, PostgreSQL) share: binding arguments, running a query
 * into a list, an update, and decoding the {@code data, embedding} columns every record table has.
 * Stateless and thread-safe; not API.
 */
public final class Jdbc {

    private Jdbc() {
    }

    /** Row to value; may throw SQLException. */
    public interface RowMapper<T> {
        T map(ResultSet rs) throws SQLException;
    }

    /** Runs a query and maps every row. */
    public static <T> List<T> query(Connection c, String sql, RowMapper<T> mapper, Object... args) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            bind(ps, args);
            try (ResultSet rs = ps.executeQuery()) {
                List<T> out = new ArrayList<>();
                while (rs.next()) {
                    out.add(mapper.map(rs));
                }
                return out;
            }
        }
    }

    /** Runs an update; returns the rows it changed. */
    public static int update(Connection c, String sql, Object... args) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            bind(ps, args);
            return ps.executeUpdate();
        }
    }

    /** Binds arguments in order: {@code null}, byte arrays, string arrays (as SQL text arrays), anything else as an object. */
    public static void bind(PreparedStatement ps, Object... args) throws SQLException {
        for (int i = 0; i < args.length; i++) {
            Object a = args[i];
            if (a == null) {
                ps.setNull(i + 1, Types.NULL);
            } else if (a instanceof byte[] bytes) {
                ps.setBytes(i + 1, bytes);
            } else if (a instanceof String[] strings) {
                ps.setArray(i + 1, ps.getConnection().createArrayOf("text", strings));
            } else {
                ps.setObject(i + 1, a);
            }
        }
    }

    /** The first row, if any. */
    public static <T> Optional<T> first(List<T> rows) {
        return rows.isEmpty() ? Optional.empty() : Optional.of(rows.get(0));
    }

    /** An observation from its {@code data} (JSON) and {@code embedding} (float BLOB) columns, 1 and 2. */
    public static Observation observationRow(ResultSet rs) throws SQLException {
        Observation o = DecodedRecords.read(rs.getString(1), Observation.class);
        byte[] blob = rs.getBytes(2);
        return blob == null ? o : o.withEmbedding(Embedding.of(Vectors.fromBytes(blob)));
    }

    /** A memory from its {@code data} (JSON) and {@code embedding} (float BLOB) columns, 1 and 2. */
    public static Memory memoryRow(ResultSet rs) throws SQLException {
        Memory m = DecodedRecords.read(rs.getString(1), Memory.class);
        byte[] blob = rs.getBytes(2);
        return blob == null ? m : m.toBuilder().embedding(Embedding.of(Vectors.fromBytes(blob))).build();
    }
}
