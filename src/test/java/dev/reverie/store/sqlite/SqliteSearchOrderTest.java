package dev.reverie.store.sqlite;

import dev.reverie.Cardinality;
import dev.reverie.Memory;
import dev.reverie.MemoryKind;
import dev.reverie.MemoryStatus;
import dev.reverie.Observation;
import dev.reverie.ObservationStatus;
import dev.reverie.Outcome;
import dev.reverie.Polarity;
import dev.reverie.Provenance;
import dev.reverie.Role;
import dev.reverie.Scope;
import dev.reverie.Source;
import dev.reverie.Trust;
import dev.reverie.spi.Scored;
import dev.reverie.spi.SessionTurn;
import dev.reverie.spi.WriteBatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Pins the order of the SQLite store's lexical searches, ties included, against the one-phase
 * query they replaced (an FTS5 match joined to the table, filtered, ORDER BY bm25 LIMIT n), run on
 * the same file. The data is built to tie: a vocabulary of eight words, short texts, many
 * duplicates, two end users sharing the tenant's FTS tables, and statuses and kinds the filters
 * remove.
 */
class SqliteSearchOrderTest {

    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");
    private static final Scope ALICE = Scope.of("clinic-1", "receptionist", "alice");
    private static final Scope BOB = Scope.of("clinic-1", "receptionist", "bob");
    private static final String[] WORDS =
            {"tea", "coffee", "paint", "lake", "sunrise", "dog", "garden", "piano"};
    private static final List<String> QUERIES = List.of("tea", "tea coffee", "paint the lake at sunrise",
            "dog garden piano tea", "coffee piano", "lake",
            "every word: tea coffee paint lake sunrise dog garden piano");
    private static final int[] LIMITS = {1, 2, 3, 5, 8, 17, 40, 100, 1_000};

    @TempDir
    Path folder;
    private SqliteMemoryStore store;
    private Connection reference;

    @BeforeEach
    void fill() throws SQLException {
        store = SqliteMemoryStore.open(folder);
        store.indexUpkeepEvery(Integer.MAX_VALUE); // no merge commits mid-test: the searches stay cached
        store.lexicalCache().minRows(0); // scopes kept from their second search: the cache's order is pinned too
        Random random = new Random(13);
        MemoryKind[] kinds = {MemoryKind.FACT, MemoryKind.EVENT, MemoryKind.PREFERENCE, MemoryKind.STYLE};
        MemoryStatus[] statuses = MemoryStatus.values();
        ObservationStatus[] observationStatuses = ObservationStatus.values();
        for (int batch = 0; batch < 12; batch++) {
            // the users' rows interleave in the shared FTS tables
            for (Scope scope : List.of(ALICE, BOB)) {
                WriteBatch b = WriteBatch.of(scope);
                for (int i = 0; i < 30; i++) {
                    String id = batch + "-" + i;
                    b.put(Memory.builder("m" + id, scope, kinds[random.nextInt(kinds.length)], text(random), T0)
                            .status(statuses[random.nextInt(statuses.length)])
                            .provenance(provenance(id)).build());
                    b.put(new Observation("o" + id, scope, MemoryKind.FACT, text(random), "user.fact.o" + id, "v",
                            Cardinality.MULTI, Polarity.POSITIVE, 0.8, T0, "s1", provenance(id), List.of("t" + id),
                            1, observationStatuses[random.nextInt(observationStatuses.length)], null, null));
                    b.archive(new SessionTurn(scope, "s" + batch, i, "t" + id, Role.USER, null, text(random), T0));
                }
                store.write(b);
            }
        }
        reference = DriverManager.getConnection(
                "jdbc:sqlite:" + folder.resolve(SqliteMemoryStore.fileName("clinic-1")));
    }

    @AfterEach
    void close() throws SQLException {
        reference.close();
        store.close();
    }

    /** One to four words, each drawn from the small vocabulary, sometimes repeated: equal scores abound. */
    private static String text(Random random) {
        StringBuilder sb = new StringBuilder();
        int n = 1 + random.nextInt(4);
        for (int i = 0; i < n; i++) {
            sb.append(i == 0 ? "" : " ").append(WORDS[random.nextInt(WORDS.length)]);
        }
        return sb.toString();
    }

    private static Provenance provenance(String id) {
        return new Provenance(Source.USER, "s1", "t" + id, T0, Outcome.UNKNOWN, Trust.FIRST_PARTY);
    }

    @Test
    void memory_search_keeps_the_one_phase_order_and_ties() throws SQLException {
        List<Set<MemoryStatus>> statusSets = List.of(EnumSet.of(MemoryStatus.ACTIVE),
                EnumSet.of(MemoryStatus.ACTIVE, MemoryStatus.DEPRECATED), EnumSet.allOf(MemoryStatus.class));
        List<Set<MemoryKind>> kindSets = List.of(EnumSet.complementOf(EnumSet.of(MemoryKind.STYLE)),
                EnumSet.of(MemoryKind.FACT), EnumSet.allOf(MemoryKind.class));
        int tiedCuts = 0;
        for (Scope scope : List.of(ALICE, BOB)) {
            for (String query : QUERIES) {
                for (Set<MemoryStatus> statuses : statusSets) {
                    for (Set<MemoryKind> kinds : kindSets) {
                        for (int limit : LIMITS) {
                            String sql = "SELECT m.id, bm25(memories_fts) AS r FROM memories_fts JOIN memories m"
                                    + " ON m.rid = memories_fts.rowid WHERE memories_fts MATCH ? AND m.agent = ?"
                                    + " AND m.usr = ? AND m.status IN (" + quoted(statuses) + ") AND m.kind IN ("
                                    + quoted(kinds) + ") ORDER BY r LIMIT ?";
                            List<String> expected = onePhase(sql, scope, query, limit);
                            List<String> actual = new ArrayList<>();
                            for (Scored<Memory> hit : store.searchMemories(scope, query, statuses, kinds, limit)) {
                                actual.add(hit.item().id() + " " + hit.score());
                            }
                            assertThat(actual).as("%s, %s, %s, %s, limit %d", scope, query, statuses, kinds, limit)
                                    .isEqualTo(expected);
                            tiedCuts += tiedAtTheCut(sql, scope, query, limit);
                        }
                    }
                }
            }
        }
        assertThat(tiedCuts).as("searches whose limit cuts through a group of equal scores").isGreaterThan(50);
    }

    @Test
    void observation_search_keeps_the_one_phase_order_and_ties() throws SQLException {
        List<Set<ObservationStatus>> statusSets = List.of(EnumSet.of(ObservationStatus.PENDING),
                EnumSet.of(ObservationStatus.PENDING, ObservationStatus.CONSOLIDATED),
                EnumSet.allOf(ObservationStatus.class));
        int tiedCuts = 0;
        for (Scope scope : List.of(ALICE, BOB)) {
            for (String query : QUERIES) {
                for (Set<ObservationStatus> statuses : statusSets) {
                    for (int limit : LIMITS) {
                        String sql = "SELECT o.id, bm25(observations_fts) AS r"
                                + " FROM observations_fts JOIN observations o ON o.rid = observations_fts.rowid"
                                + " WHERE observations_fts MATCH ? AND o.agent = ? AND o.usr = ?"
                                + " AND o.status IN (" + quoted(statuses) + ") ORDER BY r LIMIT ?";
                        List<String> expected = onePhase(sql, scope, query, limit);
                        List<String> actual = new ArrayList<>();
                        for (Scored<Observation> hit : store.searchObservations(scope, query, statuses, limit)) {
                            actual.add(hit.item().id() + " " + hit.score());
                        }
                        assertThat(actual).as("%s, %s, %s, limit %d", scope, query, statuses, limit)
                                .isEqualTo(expected);
                        tiedCuts += tiedAtTheCut(sql, scope, query, limit);
                    }
                }
            }
        }
        assertThat(tiedCuts).as("searches whose limit cuts through a group of equal scores").isGreaterThan(20);
    }

    @Test
    void turn_search_keeps_the_one_phase_order_and_ties() throws SQLException {
        int tiedCuts = 0;
        for (Scope scope : List.of(ALICE, BOB)) {
            for (String query : QUERIES) {
                for (int limit : LIMITS) {
                    String sql = "SELECT a.session_id || ':' || a.seq, bm25(archive_fts) AS r"
                            + " FROM archive_fts JOIN archive_turns a ON a.rowid = archive_fts.rowid"
                            + " WHERE archive_fts MATCH ? AND a.agent = ? AND a.usr = ? ORDER BY r LIMIT ?";
                    List<String> expected = onePhase(sql, scope, query, limit);
                    List<String> actual = new ArrayList<>();
                    for (Scored<SessionTurn> hit : store.searchTurns(scope, query, limit)) {
                        actual.add(hit.item().sessionId() + ":" + hit.item().seq() + " " + hit.score());
                    }
                    assertThat(actual).as("%s, %s, limit %d", scope, query, limit).isEqualTo(expected);
                    tiedCuts += tiedAtTheCut(sql, scope, query, limit);
                }
            }
        }
        assertThat(tiedCuts).as("searches whose limit cuts through a group of equal scores").isGreaterThan(10);
    }

    @Test
    void observation_search_of_a_user_with_none_in_the_statuses_finds_none() throws SQLException {
        Scope carol = Scope.of("clinic-1", "receptionist", "carol");
        WriteBatch b = WriteBatch.of(carol);
        for (int i = 0; i < 20; i++) {
            b.put(new Observation("c" + i, carol, MemoryKind.FACT, "tea and coffee " + i, "user.fact.c" + i, "v",
                    Cardinality.MULTI, Polarity.POSITIVE, 0.8, T0, "s1", provenance("c" + i), List.of("tc" + i),
                    1, ObservationStatus.CONSOLIDATED, T0, null));
        }
        store.write(b);
        String sql = "SELECT o.id, bm25(observations_fts) AS r FROM observations_fts JOIN observations o"
                + " ON o.rid = observations_fts.rowid WHERE observations_fts MATCH ? AND o.agent = ?"
                + " AND o.usr = ? AND o.status IN (%s) ORDER BY r LIMIT ?";

        assertThat(store.searchObservations(carol, "tea", EnumSet.of(ObservationStatus.PENDING), 10)).isEmpty();
        assertThat(onePhase(sql.formatted("'PENDING'"), carol, "tea", 10)).isEmpty();
        List<String> consolidated = new ArrayList<>();
        for (Scored<Observation> hit : store.searchObservations(carol, "tea",
                EnumSet.of(ObservationStatus.PENDING, ObservationStatus.CONSOLIDATED), 10)) {
            consolidated.add(hit.item().id() + " " + hit.score());
        }
        assertThat(consolidated).hasSize(10)
                .isEqualTo(onePhase(sql.formatted("'PENDING', 'CONSOLIDATED'"), carol, "tea", 10));
    }

    @Test
    void a_file_without_the_status_index_gains_it_keeps_its_version_and_searches_as_before() throws SQLException {
        store.close();
        try (Statement st = reference.createStatement()) {
            st.execute("DROP INDEX observations_by_status");
        }
        store = SqliteMemoryStore.open(folder);

        observation_search_keeps_the_one_phase_order_and_ties();
        try (Statement st = reference.createStatement(); ResultSet rs = st.executeQuery(
                "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'observations_by_status'")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(1);
        }
        // an index is not a migration: the file keeps the version older Reverie versions open
        try (Statement st = reference.createStatement();
             ResultSet rs = st.executeQuery("SELECT MAX(version) FROM schema_version")) {
            assertThat(rs.getInt(1)).isEqualTo(SqliteSchema.latestVersion()).isEqualTo(7);
        }
    }

    @Test
    void neighbour_windows_are_the_turns_the_or_form_read_in_its_order() throws SQLException {
        Random random = new Random(7);
        for (int n : new int[] {1, 2, 5, 40, 600}) {
            List<dev.reverie.spi.TurnRange> ranges = new ArrayList<>();
            StringBuilder sql = new StringBuilder("SELECT session_id || ':' || seq FROM archive_turns"
                    + " WHERE agent = ? AND usr = ? AND (");
            for (int i = 0; i < n; i++) {
                // sessions s0..s11 (seq 0..29) exist, s12 does not; windows overlap, some are empty (from > to);
                // the first always holds turns
                long from = i == 0 ? 3 : random.nextInt(34) - 2;
                ranges.add(new dev.reverie.spi.TurnRange("s" + (i == 0 ? 4 : random.nextInt(13)), Math.max(0, from),
                        from + (i == 0 ? 2 : random.nextInt(6) - 1)));
                sql.append(i == 0 ? "" : " OR ").append("(session_id = ? AND seq >= ? AND seq <= ?)");
            }
            sql.append(") ORDER BY session_id, seq");
            List<String> expected = new ArrayList<>();
            try (PreparedStatement ps = reference.prepareStatement(sql.toString())) {
                int p = 1;
                ps.setString(p++, ALICE.agentId());
                ps.setString(p++, ALICE.endUserId());
                for (dev.reverie.spi.TurnRange r : ranges) {
                    ps.setString(p++, r.sessionId());
                    ps.setLong(p++, r.fromSeq());
                    ps.setLong(p++, r.toSeq());
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        expected.add(rs.getString(1));
                    }
                }
            }

            List<String> actual = new ArrayList<>();
            for (SessionTurn t : store.archivedTurns(ALICE, ranges)) {
                actual.add(t.sessionId() + ":" + t.seq());
            }

            assertThat(actual).as("%d ranges", n).isNotEmpty().isEqualTo(expected);
        }
    }

    /** The one-phase query's hits as "id score", the score negated as the store reports it. */
    private List<String> onePhase(String sql, Scope scope, String query, int limit) throws SQLException {
        List<String> out = new ArrayList<>();
        try (PreparedStatement ps = reference.prepareStatement(sql)) {
            ps.setString(1, SqliteMemoryStore.matchExpression(scope, query));
            ps.setString(2, scope.agentId());
            ps.setString(3, scope.endUserId());
            ps.setInt(4, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1) + " " + -rs.getDouble(2));
                }
            }
        }
        return out;
    }

    /** 1 when the hit just past {@code limit} has the same score as the last one kept, else 0. */
    private int tiedAtTheCut(String sql, Scope scope, String query, int limit) throws SQLException {
        List<String> longer = onePhase(sql, scope, query, limit + 1);
        if (longer.size() <= limit) {
            return 0;
        }
        String kept = longer.get(limit - 1);
        String next = longer.get(limit);
        return kept.substring(kept.indexOf(' ')).equals(next.substring(next.indexOf(' '))) ? 1 : 0;
    }

    private static String quoted(Set<? extends Enum<?>> values) {
        StringBuilder sb = new StringBuilder();
        for (Enum<?> v : values) {
            sb.append(sb.isEmpty() ? "'" : ", '").append(v.name()).append('\'');
        }
        return sb.toString();
    }
}
