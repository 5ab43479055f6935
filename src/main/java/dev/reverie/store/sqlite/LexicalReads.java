package dev.reverie.store.sqlite;

import dev.reverie.Memory;
import dev.reverie.Observation;
import dev.reverie.Scope;
import dev.reverie.internal.DecodedRecords;
import dev.reverie.spi.SessionTurn;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads what {@link LexicalCache} keeps of a scope from a tenant's database: the scope's rows of an
 * FTS5 index (stemmed tokens through {@code fts5vocab}, token counts from the index's
 * {@code _docsize} table, the index-wide totals from its averages record) and the table's rows.
 * Stateless. Not API.
 */
final class LexicalReads {

    /** Row ids per statement when reading token counts (well under SQLite's variable limit). */
    private static final int CHUNK = 500;

    private LexicalReads() {
    }

    /**
     * Reads the scope's rows of {@code table}'s FTS5 index and of the table itself, as {@link
     * LexicalCache} keeps them, or {@code null} when the scope is too large to keep. The caller checks
     * that nothing committed between its two change tokens, so the statements (each its own read)
     * saw one state of the file.
     */
    static LexicalCache.Entry read(Connection c, Scope scope, String table, TenantDatabase.ChangeToken token,
                                   LexicalCache cache) throws SQLException {
        boolean memories = table.equals("memories");
        boolean observations = table.equals("observations");
        String fts = memories ? "memories_fts" : observations ? "observations_fts" : "archive_fts";
        String prefix = SqliteMemoryStore.scopeToken(scope) + "_";
        try (Statement st = c.createStatement()) {
            st.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp." + fts + "_instances USING fts5vocab(main, " + fts
                    + ", instance)");
        }
        LexicalCache.Builder builder = new LexicalCache.Builder();
        // every token of the scope starts with its prefix, which ends in '_': the range up to '`' holds them all
        try (PreparedStatement ps = c.prepareStatement("SELECT term, doc FROM temp." + fts + "_instances"
                + " WHERE term >= ? AND term < ?")) {
            ps.setString(1, prefix);
            ps.setString(2, prefix.substring(0, prefix.length() - 1) + '`');
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    builder.occurrence(rs.getString(1), rs.getLong(2));
                    if (cache.tooLarge(builder.bytes())) {
                        return null;
                    }
                }
            }
        }
        long[] totals = ftsTotals(c, fts);
        Map<Long, Integer> sizes = ftsSizes(c, fts, builder.rids());
        Map<Long, Object> rows = new HashMap<>();
        Map<Long, String> statuses = memories || observations ? new HashMap<>() : null;
        Map<Long, String> kinds = memories || observations ? new HashMap<>() : null;
        Map<String, String> interned = new HashMap<>();
        boolean allRows = true;
        String sql = memories
                ? "SELECT " + MemoryRows.columns("") + ", rid, status, kind FROM memories WHERE agent = ? AND usr = ?"
                : observations
                ? "SELECT " + ObservationRows.columns("") + ", rid, status, kind FROM observations WHERE agent = ? AND usr = ?"
                : "SELECT data, rid FROM archive_turns WHERE agent = ? AND usr = ?";
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, scope.agentId());
            ps.setString(2, scope.endUserId());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    long rid = rs.getLong(memories ? MemoryRows.COUNT + 1 : observations ? ObservationRows.COUNT + 1 : 2);
                    if (!builder.indexed(rid)) {
                        allRows = false;
                        continue; // no token in the index (an empty text, a STYLE observation): no search can find it
                    }
                    if (memories) {
                        Memory m = MemoryRows.row(rs);
                        rows.put(rid, m);
                        statuses.put(rid, interned.computeIfAbsent(rs.getString(MemoryRows.COUNT + 2), k -> k));
                        kinds.put(rid, interned.computeIfAbsent(rs.getString(MemoryRows.COUNT + 3), k -> k));
                        builder.bytes(256 + 2L * m.text().length() + (m.embedding() == null ? 0 : 4L * m.embedding().dimension()));
                    } else if (observations) {
                        Observation o = ObservationRows.row(rs);
                        rows.put(rid, o);
                        statuses.put(rid, interned.computeIfAbsent(rs.getString(ObservationRows.COUNT + 2), k -> k));
                        kinds.put(rid, interned.computeIfAbsent(rs.getString(ObservationRows.COUNT + 3), k -> k));
                        builder.bytes(256 + 2L * o.text().length() + (o.embedding() == null ? 0 : 4L * o.embedding().dimension()));
                    } else {
                        String json = rs.getString(1);
                        rows.put(rid, DecodedRecords.read(json, SessionTurn.class));
                        builder.bytes(128 + 2L * json.length());
                    }
                    if (cache.tooLarge(builder.bytes())) {
                        return null;
                    }
                }
            }
        }
        return builder.build(token, totals[0], totals[1], sizes, rows, statuses, kinds, allRows);
    }

    /**
     * An FTS5 index's row count and token total (its one column), as {@code bm25()} reads them: the
     * averages record (row 1 of its {@code _data} table), two varints; zeros when absent (an index
     * that never held a row: no search finds anything, whatever the totals).
     */
    static long[] ftsTotals(Connection c, String fts) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT block FROM main." + fts + "_data WHERE id = 1");
             ResultSet rs = ps.executeQuery()) {
            byte[] block = rs.next() ? rs.getBytes(1) : null;
            if (block == null || block.length == 0) {
                return new long[] {0, 0};
            }
            long[] rows = varint(block, 0);
            long[] tokens = varint(block, (int) rows[1]);
            return new long[] {rows[0], tokens[0]};
        }
    }

    /** The token count of each of {@code rids}' FTS5 rows (their {@code _docsize} records: one varint per column). */
    static Map<Long, Integer> ftsSizes(Connection c, String fts, List<Long> rids) throws SQLException {
        Map<Long, Integer> sizes = new HashMap<>(rids.size() * 2);
        for (int from = 0; from < rids.size(); from += CHUNK) {
            List<Long> chunk = rids.subList(from, Math.min(rids.size(), from + CHUNK));
            StringBuilder sql = new StringBuilder("SELECT id, sz FROM main." + fts + "_docsize WHERE id IN (");
            for (int k = 0; k < chunk.size(); k++) {
                sql.append(k == 0 ? "?" : ", ?");
            }
            try (PreparedStatement ps = c.prepareStatement(sql.append(')').toString())) {
                for (int k = 0; k < chunk.size(); k++) {
                    ps.setLong(k + 1, chunk.get(k));
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        byte[] sz = rs.getBytes(2);
                        sizes.put(rs.getLong(1), sz == null || sz.length == 0 ? 0 : (int) varint(sz, 0)[0]);
                    }
                }
            }
        }
        return sizes;
    }

    /**
     * SQLite's varint (as FTS5 writes its records): big-endian groups of 7 bits, each byte's high bit
     * saying another follows, the ninth byte giving all 8 bits. Returns the value and the next offset.
     */
    static long[] varint(byte[] b, int at) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            int x = b[at + i] & 0xFF;
            v = (v << 7) | (x & 0x7F);
            if ((x & 0x80) == 0) {
                return new long[] {v, at + i + 1};
            }
        }
        return new long[] {(v << 8) | (b[at + 8] & 0xFF), at + 9};
    }
}
