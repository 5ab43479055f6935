package dev.reverie.store.postgres;

import dev.reverie.Scope;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The collection statistics BM25 needs for a scope's table (its row count and mean row length, in
 * lexemes, over all its rows), kept per store instance so that a search costs what its matching rows
 * cost, not a read of the whole scope. A scope's figures are read again once this instance has
 * committed write transactions to the scope numbering an eighth of its rows (every write while it
 * holds fewer than {@link #EXACT_BELOW} rows, so a new end user's first turns are ranked with exact
 * figures), or once they are {@link #MAX_AGE_NANOS} old (writes of other instances on the same
 * database). A generation per scope, taken before the figures are read, makes a write that commits
 * while they are being read count against them, and an erasure retire them. Stale figures only shift
 * scores slightly (a term's IDF with N a few percent off); {@link Bm25} never takes N below a term's
 * document frequency. Thread-safe.
 */
final class Bm25Stats {

    /** Below this many rows a scope's statistics are read again after every write to it. */
    static final int EXACT_BELOW = 256;
    /** Statistics older than this are read again (other instances' writes). */
    static final long MAX_AGE_NANOS = 30_000_000_000L;
    /** At most this many scopes kept (up to three tables' figures each, about 0.5 KB); beyond, all are dropped. */
    static final int MAX_ENTRIES = 100_000;
    /** What an erasure adds to a scope's generation: figures read before it are never used. */
    private static final long ERASED = 1L << 40;

    /** A table's figures for one scope: rows, mean length in lexemes. */
    record Figures(double rows, double meanLength) {
    }

    private record Key(String tenant, String agent, String user) {
    }

    /** Figures read when the scope's generation was {@code generation}. */
    private record Entry(Figures figures, long readAt, long generation) {
    }

    /** The searched tables. */
    static final List<String> TABLES = List.of("memories", "observations", "archive_turns");

    private final ConcurrentMap<Key, AtomicLong> generations = new ConcurrentHashMap<>();
    /**
     * Where new generations start: raised by {@link #ERASED} whenever the maps are dropped, so figures a
     * read stores after a drop, under a generation taken before it, are never taken for fresh.
     */
    private final AtomicLong base = new AtomicLong();
    private final ConcurrentMap<Key, Map<String, Entry>> entries = new ConcurrentHashMap<>();

    /**
     * The figures of {@code table} for {@code scope}, read with {@code c} (schema {@code schema}) when
     * not kept or no longer fresh.
     */
    Figures of(Connection c, String schema, Scope scope, String table) throws SQLException {
        Key key = key(scope);
        long generation = generation(key).get();
        Entry e = entry(key, table);
        long now = System.nanoTime();
        if (e != null && now - e.readAt() < MAX_AGE_NANOS && !stale(e, generation)) {
            return e.figures();
        }
        Figures f = PostgresMemoryStore.query(c, schema,
                "SELECT count(*)::float8, coalesce(avg(length(tsv)), 0)::float8 FROM ${s}." + table
                        + " WHERE agent = ? AND usr = ?",
                rs -> new Figures(rs.getDouble(1), rs.getDouble(2)), scope.agentId(), scope.endUserId()).get(0);
        if (entries.size() > MAX_ENTRIES || generations.size() > MAX_ENTRIES) {
            // a crude bound: figures are cheap to read again; generations go too, and later ones start past them
            base.addAndGet(ERASED);
            entries.clear();
            generations.clear();
            return f;
        }
        entries.computeIfAbsent(key, k -> new ConcurrentHashMap<>()).put(table, new Entry(f, now, generation));
        return f;
    }

    /**
     * The scope's row count in {@code table} as last read by this instance, however old, or -1 when
     * none was read (for choices that a stale count does not spoil; ranking uses {@link #of}).
     */
    double knownRows(Scope scope, String table) {
        Entry e = entry(key(scope), table);
        return e == null ? -1 : e.figures().rows();
    }

    private static Key key(Scope scope) {
        return new Key(scope.tenantId(), scope.agentId(), scope.endUserId());
    }

    private Entry entry(Key key, String table) {
        Map<String, Entry> tables = entries.get(key);
        return tables == null ? null : tables.get(table);
    }

    private AtomicLong generation(Key key) {
        return generations.computeIfAbsent(key, k -> new AtomicLong(base.get()));
    }

    private static boolean stale(Entry e, long generation) {
        long writes = generation - e.generation();
        return writes > 0 && (e.figures().rows() < EXACT_BELOW || writes > e.figures().rows() / 8);
    }

    /** Called after a committed write transaction to {@code scope}. */
    void written(Scope scope) {
        AtomicLong g = generations.get(key(scope));
        if (g != null) { // no generation: nothing kept or being read for the scope
            g.incrementAndGet();
        }
    }

    /** Retires everything kept for {@code scope} (its rows were erased). */
    void forget(Scope scope) {
        Key key = key(scope);
        AtomicLong g = generations.get(key);
        if (g != null) { // none: nothing kept or being read for the scope (a read creates it first)
            g.addAndGet(ERASED);
        }
        entries.remove(key);
    }
}
