package dev.reverie.store.sqlite;

import dev.reverie.Observation;
import dev.reverie.ObservationStatus;
import dev.reverie.internal.Jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Objects;

/**
 * How the SQLite store keeps an observation's status and consolidation time: in the columns
 * {@code status} and {@code consolidated_at} (schema version 5), which are authoritative over the
 * same fields of the JSON record in {@code data}. A dream night judges every pending observation;
 * writing two columns spares SQLite parsing and re-serializing each row's JSON ({@code json_set} was
 * over a third of the native time of a night's status statements). The JSON keeps the values of the
 * last full write, so every read of an observation selects {@link #columns} and decodes it with
 * {@link #row}, which lays the columns over the decoded record. Stateless and thread-safe.
 */
final class ObservationRows {

    /** How many columns {@link #columns} selects: a query's own columns follow from {@code COUNT + 1}. */
    static final int COUNT = 4;

    private ObservationRows() {
    }

    /** The columns every read of an observation selects, in the order {@link #row} reads them. */
    static String columns(String alias) {
        return SqliteSchema.columns(alias, "data", "embedding", "status", "consolidated_at");
    }

    /** The observation of a row read through {@link #columns}: the JSON record with the columns' status and time. */
    static Observation row(ResultSet rs) throws SQLException {
        Observation o = Jdbc.observationRow(rs);
        ObservationStatus status = ObservationStatus.valueOf(rs.getString(3));
        Instant consolidatedAt = SqliteSchema.time(rs.getString(4));
        return o.status() == status && Objects.equals(o.consolidatedAt(), consolidatedAt)
                ? o : o.withStatus(status, consolidatedAt);
    }
}
