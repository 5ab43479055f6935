package dev.reverie.store.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Planner statistics for a tenant's tables that have none yet. PostgreSQL plans a query from the
 * statistics {@code ANALYZE} gathers; autovacuum gathers them, but only on its next round (a minute
 * by default) and only where it runs. Until then every column looks equally selective, so for a
 * lookup by (agent, end user, session, seq) the planner may take the smaller (agent, end user, time)
 * index and read each key's whole scope: a LoCoMo conversation's first questions, asked right after
 * it was loaded, took 26–31 ms a {@code buildContext} (no dream) against 9–12 ms with this class
 * (docs/postgres.md).
 *
 * <p>So the store checks a tenant's tables when it first opens the tenant's schema, at
 * {@code maintain}, and after every {@value #CHECK_EVERY_ROWS} rows it writes to the tenant (counted as
 * batch operations), until each of {@link #TABLES} has statistics; it analyses those it owns that have
 * no statistics and at least {@value #ANALYSE_FROM_ROWS} rows (statistics of a handful of rows would
 * say each end user holds one row, and the store does not look at a table with statistics again).
 * From then on autovacuum keeps them current, as for any table; where autovacuum is off, the
 * statistics stay those of the first analysis. A check is one catalog query and one bounded row count
 * per table without statistics; an analysis reads a sample of the table (30,000 rows at PostgreSQL's
 * default statistics target), once per table. Thread-safe: one check of a tenant at a time (a second
 * caller skips it), and an analysis another session holds the lock for is skipped after
 * {@value #LOCK_TIMEOUT_MS} ms and retried at the next check. Not API.
 */
final class PlannerStatistics {

    /** Rows written to a tenant between two checks, until its tables all have statistics. */
    static final long CHECK_EVERY_ROWS = 1_000;
    /** The tables whose plans depend on statistics: the end users' searches and lookups by key. */
    static final List<String> TABLES = List.of("memories", "observations", "session_turns", "archive_turns");
    /** The rows a table needs before it is analysed. */
    static final int ANALYSE_FROM_ROWS = 100;
    /** How long an analysis waits for a lock another session holds (for instance its own analysis). */
    static final int LOCK_TIMEOUT_MS = 1_000;

    private final ConcurrentMap<String, Tenant> tenants = new ConcurrentHashMap<>();

    private static final class Tenant {
        final AtomicLong unchecked = new AtomicLong();
        final AtomicBoolean checking = new AtomicBoolean();
        volatile boolean settled;
    }

    private Tenant tenant(String tenantId) {
        return tenants.computeIfAbsent(tenantId, k -> new Tenant());
    }

    /**
     * Counts {@code rows} written to the tenant; true when a check is due ({@link #check}).
     */
    boolean written(String tenantId, long rows) {
        Tenant t = tenant(tenantId);
        return !t.settled && t.unchecked.addAndGet(rows) >= CHECK_EVERY_ROWS;
    }

    /** Whether a check of the tenant is running (callers skip theirs). */
    boolean checking(String tenantId) {
        return tenant(tenantId).checking.get();
    }

    /** Whether every one of the tenant's {@link #TABLES} has had statistics at a check (tests). */
    boolean settled(String tenantId) {
        return tenant(tenantId).settled;
    }

    /**
     * Analyses those of the tenant's {@link #TABLES} that have enough rows and no statistics, on
     * {@code c} (in auto-commit mode, left so); returns the tables analysed, empty when another thread
     * of this store is checking the tenant. {@code schema} is the tenant's unquoted schema name,
     * {@code quoted} the same quoted.
     */
    List<String> check(Connection c, String tenantId, String schema, String quoted) throws SQLException {
        Tenant t = tenant(tenantId);
        if (!t.checking.compareAndSet(false, true)) {
            return List.of();
        }
        try {
            t.unchecked.set(0);
            List<String> without = withoutStatistics(c, schema);
            List<String> analysed = new ArrayList<>();
            boolean settled = true;
            for (String table : without) {
                if (!enoughRows(c, quoted, table)) {
                    settled = false; // too little to sample yet: checked again after more writes
                } else if (analyse(c, quoted, table)) {
                    analysed.add(table);
                } else {
                    settled = false;
                }
            }
            t.settled = settled;
            return analysed;
        } finally {
            t.checking.set(false);
        }
    }

    /**
     * Those of {@link #TABLES} the current user may analyse (it has its owner's privileges) without a
     * row in {@code pg_stats}, in {@link #TABLES} order; a table the user does not own is left to its
     * owner and to autovacuum ({@code ANALYZE} would only warn).
     */
    private static List<String> withoutStatistics(Connection c, String schema) throws SQLException {
        List<String> found = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT c.relname FROM pg_catalog.pg_class c"
                + " JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
                + " WHERE n.nspname = ? AND c.relname = ANY(?::text[]) AND c.relkind = 'r'"
                + " AND pg_catalog.pg_has_role(c.relowner, 'USAGE')"
                + " AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_stats s WHERE s.schemaname = n.nspname"
                + " AND s.tablename = c.relname)")) {
            ps.setString(1, schema);
            ps.setArray(2, c.createArrayOf("text", TABLES.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    found.add(rs.getString(1));
                }
            }
        }
        List<String> out = new ArrayList<>(found.size());
        for (String table : TABLES) {
            if (found.contains(table)) {
                out.add(table);
            }
        }
        return out;
    }

    private static boolean enoughRows(Connection c, String quoted, String table) throws SQLException {
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*) FROM (SELECT 1 FROM " + quoted + "." + table
                     + " LIMIT " + ANALYSE_FROM_ROWS + ") r")) {
            return rs.next() && rs.getLong(1) >= ANALYSE_FROM_ROWS;
        }
    }

    /**
     * {@code ANALYZE} of one table in a transaction of its own that waits at most
     * {@value #LOCK_TIMEOUT_MS} ms for the table's lock; false when it gave up waiting.
     */
    private static boolean analyse(Connection c, String quoted, String table) throws SQLException {
        c.setAutoCommit(false);
        try (Statement st = c.createStatement()) {
            st.execute("SET LOCAL lock_timeout = " + LOCK_TIMEOUT_MS);
            st.execute("ANALYZE " + quoted + "." + table);
            c.commit();
            return true;
        } catch (SQLException e) {
            try {
                c.rollback();
            } catch (SQLException again) {
                e.addSuppressed(again);
            }
            if ("55P03".equals(e.getSQLState())) {
                return false; // lock_not_available: another session is analysing or altering it
            }
            throw e;
        } finally {
            c.setAutoCommit(true);
        }
    }
}
