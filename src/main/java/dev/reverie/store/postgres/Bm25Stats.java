package dev.reverie.store.postgres;

import dev.reverie.Scope;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The collection statistics BM25 needs for a scope's table (its row count and mean row length, in
 * lexemes), kept per store instance so that a search costs what its matching rows cost, not a read
 * of the whole scope. A scope's statistics are read again once this instance has written to it
 * {@link #EXACT_BELOW} rows' worth of times (every write while the scope is small, so a new end
 * user's first turns are ranked with exact figures; an eighth of its rows once it is large), or once
 * they are {@link #MAX_AGE_NANOS} old (writes of other instances on the same database). Stale figures
 * only shift scores slightly (a term's IDF with N a few percent off); the search guards against an N
 * below a term's document frequency. Thread-safe.
 */
final class Bm25Stats {

    /** Below this many rows a scope's statistics are read again after every write to it. */
    static final int EXACT_BELOW = 256;
    /** Statistics older than this are read again (other instances' writes). */
    static final long MAX_AGE_NANOS = 30_000_000_000L;

    /** A table's figures for one scope: rows, mean length in lexemes. */
    record Figures(double rows, double meanLength) {
    }

    private record Key(String tenant, String agent, String user, String table) {
    }

    private static final class Entry {
        final Figures figures;
        final long readAt;
        final AtomicInteger writes = new AtomicInteger();

        Entry(Figures figures, long readAt) {
            this.figures = figures;
            this.readAt = readAt;
        }
    }

    /** The searched tables. */
    static final List<String> TABLES = List.of("memories", "observations", "archive_turns");

    private final ConcurrentMap<Key, Entry> entries = new ConcurrentHashMap<>();

    /**
     * The figures of {@code table} for {@code scope}, read with {@code c} (schema {@code schema}) when
     * not kept or no longer fresh.
     */
    Figures of(Connection c, String schema, Scope scope, String table) throws SQLException {
        Key key = new Key(scope.tenantId(), scope.agentId(), scope.endUserId(), table);
        Entry e = entries.get(key);
        long now = System.nanoTime();
        if (e != null && now - e.readAt < MAX_AGE_NANOS && !stale(e)) {
            return e.figures;
        }
        Figures f = PostgresMemoryStore.query(c, schema,
                "SELECT count(*)::float8, coalesce(avg(length(tsv)), 0)::float8 FROM ${s}." + table
                        + " WHERE agent = ? AND usr = ?",
                rs -> new Figures(rs.getDouble(1), rs.getDouble(2)), scope.agentId(), scope.endUserId()).get(0);
        if (entries.size() > MAX_ENTRIES) {
            entries.clear(); // a crude bound: statistics are cheap to read again
        }
        entries.put(key, new Entry(f, now));
        return f;
    }

    /** At most this many scope-tables kept (about 100 bytes each). */
    static final int MAX_ENTRIES = 100_000;

    private static boolean stale(Entry e) {
        int writes = e.writes.get();
        return writes > 0 && (e.figures.rows() < EXACT_BELOW || writes > e.figures.rows() / 8);
    }

    /** Called after a committed write to {@code scope}. */
    void written(Scope scope) {
        for (String table : TABLES) {
            Entry e = entries.get(new Key(scope.tenantId(), scope.agentId(), scope.endUserId(), table));
            if (e != null) {
                e.writes.incrementAndGet();
            }
        }
    }

    /** Forgets everything kept for {@code scope} (its rows were erased or replaced). */
    void forget(Scope scope) {
        for (String table : TABLES) {
            entries.remove(new Key(scope.tenantId(), scope.agentId(), scope.endUserId(), table));
        }
    }
}
