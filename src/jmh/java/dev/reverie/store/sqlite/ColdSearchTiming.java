package dev.reverie.store.sqlite;

import dev.reverie.ContextManager;
import dev.reverie.MemoryKind;
import dev.reverie.MemoryStatus;
import dev.reverie.ObservationStatus;
import dev.reverie.Scope;
import dev.reverie.benchmarks.TenantDataGenerator;
import dev.reverie.spi.MemoryStore;
import org.sqlite.SQLiteConfig;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Random;
import java.util.stream.Stream;

/**
 * Where {@code buildContext} spends its time for an end user it has not seen, on the JMH data set
 * (issue 13: p50 ≤ 1 ms at 10,000 end users). Requests spread over that many users never meet a kept
 * lexical-cache scope, so each call runs the three scoped FTS5 searches (memories, pending
 * observations, archived turns) from SQLite. Two parts, each on a random end user and question per
 * request (seeded), printed as p50 / p90 / p99 of the second of two passes (the passes draw their
 * users independently, so with 3,000 requests over 10,000 users some of the second pass's users were
 * served in the first; the lexical cache keeps a scope only when it is searched twice at one change
 * token, which a request here never is):
 * <ol>
 *   <li>the store's calls one by one ({@code searchMemories}, {@code searchObservations},
 *       {@code searchTurns}, {@code pinnedMemories}) and a whole {@code buildContext} for another
 *       random user, through a {@link ContextManager} as the benchmark builds it;</li>
 *   <li>the memory search's SQL alone on a read-only connection of its own, built up step by step:
 *       the FTS5 {@code MATCH} (rowids only), plus {@code bm25()} ranking, plus the join that filters
 *       on scope and status (the store's inner query), then the store's two-phase form (rank, then
 *       read the kept rows; the store's statement also filters on kind, and binds statuses and limit)
 *       and a one-phase variant that reads the columns in the ranked query. The two-phase and one-phase
 *       statements run in alternating order, so neither always finds the pages the other read.</li>
 * </ol>
 * With {@code lucene} as the third argument, part 1 runs on the Lucene data set and part 2 is skipped.
 * The floor of part 2 is SQLite's own work for one search; three of them are the part of a cold call
 * that no Java change removes. Not a test; the data set must exist (a JMH run or
 * {@code TenantDataGenerator} fills it). Run:
 * <pre>
 * mvn -q -o -Pjmh compile exec:exec -Djmh.main=dev.reverie.store.sqlite.ColdSearchTiming -Djmh.args="10000 3000 [sqlite|lucene]"
 * </pre>
 */
public final class ColdSearchTiming {

    private ColdSearchTiming() {
    }

    public static void main(String[] args) throws SQLException, java.io.IOException {
        int users = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int requests = args.length > 1 ? Integer.parseInt(args[1]) : 3_000;
        String store = args.length > 2 ? args[2] : "sqlite";
        if (!store.equals("sqlite") && !store.equals("lucene")) {
            throw new IllegalArgumentException("store (third argument) must be sqlite or lucene, was " + store);
        }
        TenantDataGenerator.Dataset dataset = TenantDataGenerator.prepare(store, users, false);
        System.out.println("data set: " + dataset);
        storeCalls(dataset, users, requests);
        if (!store.equals("sqlite")) {
            return;
        }
        Path file;
        try (Stream<Path> files = Files.walk(dataset.folder())) {
            file = files.filter(p -> p.toString().endsWith(".db")).findFirst()
                    .orElseThrow(() -> new IllegalStateException("no .db file under " + dataset.folder()));
        }
        sqlFloor(file, users, requests);
    }

    private static void storeCalls(TenantDataGenerator.Dataset dataset, int users, int requests) {
        String[] names = {"searchMemories", "searchObservations", "searchTurns", "pinnedMemories", "buildContext"};
        long[][] nanos = new long[names.length][requests];
        try (MemoryStore store = dataset.open();
             ContextManager manager = ContextManager.builder().store(store)
                     .clock(Clock.fixed(TenantDataGenerator.NOW, ZoneOffset.UTC))
                     .immutable(TenantDataGenerator.SYSTEM_PROMPT).build()) {
            Random random = new Random(7);
            for (int pass = 0; pass < 2; pass++) {
                for (int i = 0; i < requests; i++) {
                    int user = random.nextInt(users);
                    Scope scope = TenantDataGenerator.user(user);
                    String query = TenantDataGenerator.query(user, random);
                    long t0 = System.nanoTime();
                    store.searchMemories(scope, query, EnumSet.of(MemoryStatus.ACTIVE), EnumSet.allOf(MemoryKind.class), 50);
                    long t1 = System.nanoTime();
                    store.searchObservations(scope, query, EnumSet.of(ObservationStatus.PENDING), 50);
                    long t2 = System.nanoTime();
                    store.searchTurns(scope, query, 50);
                    long t3 = System.nanoTime();
                    store.pinnedMemories(scope, 8);
                    long t4 = System.nanoTime();
                    int other = random.nextInt(users);
                    manager.buildContext(TenantDataGenerator.request(TenantDataGenerator.user(other),
                            TenantDataGenerator.query(other, random)));
                    long t5 = System.nanoTime();
                    nanos[0][i] = t1 - t0;
                    nanos[1][i] = t2 - t1;
                    nanos[2][i] = t3 - t2;
                    nanos[3][i] = t4 - t3;
                    nanos[4][i] = t5 - t4;
                }
            }
        }
        System.out.println("store calls, " + requests + " random end users (second pass):");
        for (int k = 0; k < names.length; k++) {
            print(names[k], nanos[k], -1);
        }
    }

    private static void sqlFloor(Path file, int users, int requests) throws SQLException {
        String columns = MemoryRows.columns("m");
        String filter = "m.agent = ? AND m.usr = ? AND m.status IN ('ACTIVE')";
        String join = " FROM memories_fts CROSS JOIN memories m ON m.rid = memories_fts.rowid WHERE memories_fts MATCH ? AND ";
        String[] names = {"MATCH only", "+ bm25 order", "+ scope join", "two-phase", "one-phase"};
        String[] sql = {
            "SELECT rowid FROM memories_fts WHERE memories_fts MATCH ?",
            "SELECT rowid, bm25(memories_fts) AS r FROM memories_fts WHERE memories_fts MATCH ? ORDER BY r LIMIT 50",
            "SELECT m.rid AS k, bm25(memories_fts) AS r" + join + filter + " ORDER BY r, k LIMIT 50",
            "SELECT " + columns + ", t.r FROM (SELECT m.rid AS k, bm25(memories_fts) AS r" + join + filter
                    + " ORDER BY r, k LIMIT 50) t JOIN memories m ON m.rid = t.k ORDER BY t.r, t.k",
            "SELECT " + columns + ", bm25(memories_fts) AS r" + join + filter + " ORDER BY r, m.rid LIMIT 50",
        };
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        long[][] nanos = new long[sql.length][requests];
        long[] rows = new long[sql.length];
        int timed = 0;
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file, config.toProperties())) {
            PreparedStatement[] statements = new PreparedStatement[sql.length];
            for (int k = 0; k < sql.length; k++) {
                statements[k] = c.prepareStatement(sql[k]);
            }
            Random random = new Random(11);
            for (int pass = 0; pass < 2; pass++) {
                Arrays.fill(rows, 0);
                timed = 0;
                for (int r = 0; r < requests; r++) {
                    int user = random.nextInt(users);
                    Scope scope = TenantDataGenerator.user(user);
                    String match = SqliteMemoryStore.matchExpression(scope, TenantDataGenerator.query(user, random));
                    if (match == null) {
                        continue; // a question of stop words only: no search, not timed
                    }
                    int i = timed++;
                    for (int j = 0; j < sql.length; j++) {
                        int k = j < 3 || i % 2 == 0 ? j : (j == 3 ? 4 : 3); // alternate the last two
                        PreparedStatement ps = statements[k];
                        ps.setString(1, match);
                        if (k >= 2) {
                            ps.setString(2, scope.agentId());
                            ps.setString(3, scope.endUserId());
                        }
                        long t0 = System.nanoTime();
                        try (ResultSet rs = ps.executeQuery()) {
                            while (rs.next()) {
                                rows[k]++;
                            }
                        }
                        nanos[k][i] = System.nanoTime() - t0;
                        ps.clearParameters();
                    }
                }
            }
            for (PreparedStatement ps : statements) {
                ps.close();
            }
        }
        System.out.println("memory search SQL alone, same connection, " + requests + " random end users (second pass):");
        for (int k = 0; k < sql.length; k++) {
            print(names[k], Arrays.copyOf(nanos[k], timed), rows[k] / (double) timed);
        }
    }

    private static void print(String name, long[] nanos, double rowsPerCall) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        System.out.printf(Locale.ROOT, "  %-20s p50 %7.3f ms  p90 %7.3f  p99 %7.3f%s%n", name, sorted[n / 2] / 1e6,
                sorted[n * 9 / 10] / 1e6, sorted[n * 99 / 100] / 1e6,
                rowsPerCall < 0 ? "" : String.format(Locale.ROOT, "  rows per call %.1f", rowsPerCall));
    }
}
