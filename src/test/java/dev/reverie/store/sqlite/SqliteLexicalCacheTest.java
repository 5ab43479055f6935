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
import dev.reverie.StyleProfile;
import dev.reverie.Trust;
import dev.reverie.spi.Scored;
import dev.reverie.spi.SessionTurn;
import dev.reverie.spi.TurnRange;
import dev.reverie.spi.WriteBatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The SQLite store's lexical cache: a scope searched twice while nothing is committed is scored in
 * memory, with exactly the rows, order, ties and scores SQLite's own search gives (the same store
 * with the cache off, on the same file, is the reference), and any commit to the file, by this store
 * or another one, makes the next search read the file again. Real files in a temporary folder.
 */
class SqliteLexicalCacheTest {

    private static final Instant T0 = Instant.parse("2026-04-01T08:00:00Z");
    private static final Scope ANA = Scope.of("atelier", "guide", "ana");
    private static final Scope BEA = Scope.of("atelier", "guide", "bea");
    private static final Scope CAI = Scope.of("atelier", "guide", "cai");
    /** Inflections that FTS5's Porter stemmer folds together, and some it does not. */
    private static final String[] WORDS = {"paint", "painted", "painting", "paints", "run", "running", "ran",
        "happy", "happiness", "generous", "generously", "sing", "singing", "lake", "lakes", "café", "naïve",
        "2023", "a1b2", "日本語", "tea", "the", "is", "sunrise", "gardening", "gardens", "relational",
        "conditional", "hopefully", "electricity", "x", "i", "ies",
        "pneumonoultramicroscopicsilicovolcanoconiosisplusmoreletters"};
    private static final List<String> QUERIES = List.of("painting", "paint the lake", "running happily",
        "what did she sing at the lake?", "café naïve 2023", "the is", "gardener relations", "日本語 tea",
        "generosity hope", "pneumonoultramicroscopicsilicovolcanoconiosisplusmorelettersandevenmore",
        "sunrise sunrise lakes", "I x ies", "zzz unknownword", "paints painted painting paint");
    private static final EnumSet<MemoryStatus> ACTIVE = EnumSet.of(MemoryStatus.ACTIVE);

    @TempDir
    Path dir;
    private SqliteMemoryStore store;
    private final Random random = new Random(29);

    @BeforeEach
    void open() {
        store = quiet(SqliteMemoryStore.open(dir));
    }

    /**
     * The store without background index merges (a merge commits, which would retire entries
     * mid-test), reading a scope whole at its second search at one token.
     */
    private static SqliteMemoryStore quiet(SqliteMemoryStore s) {
        s.indexUpkeepEvery(Integer.MAX_VALUE);
        s.lexicalCache().minRows(0);
        return s;
    }

    @AfterEach
    void close() {
        store.close();
    }

    private String text() {
        StringBuilder sb = new StringBuilder();
        int n = 1 + random.nextInt(12);
        for (int i = 0; i < n; i++) {
            sb.append(i == 0 ? "" : " ").append(WORDS[random.nextInt(WORDS.length)]);
        }
        return sb.toString();
    }

    private void fill(int batches) {
        MemoryKind[] kinds = {MemoryKind.FACT, MemoryKind.EVENT, MemoryKind.PREFERENCE, MemoryKind.STYLE};
        MemoryStatus[] statuses = MemoryStatus.values();
        for (int batch = 0; batch < batches; batch++) {
            for (Scope scope : List.of(ANA, BEA, CAI)) {
                WriteBatch b = WriteBatch.of(scope);
                for (int i = 0; i < 20; i++) {
                    String id = scope.endUserId() + batch + "-" + i;
                    b.put(Memory.builder("m" + id, scope, kinds[random.nextInt(kinds.length)], text(), T0)
                            .status(statuses[random.nextInt(statuses.length)]).build());
                    b.archive(new SessionTurn(scope, "s" + batch, i, "t" + id, Role.USER, null, text(), T0));
                    // every fourth a STYLE observation, which no search returns (the cache as SQLite)
                    b.put(observation("o" + id, scope, i % 3 == 0 ? ObservationStatus.CONSOLIDATED
                            : ObservationStatus.PENDING, i % 4 == 1 ? MemoryKind.STYLE : MemoryKind.FACT));
                }
                store.write(b);
            }
        }
    }

    private Observation observation(String id, Scope scope, ObservationStatus status) {
        return observation(id, scope, status, MemoryKind.FACT);
    }

    private Observation observation(String id, Scope scope, ObservationStatus status, MemoryKind kind) {
        return new Observation(id, scope, kind, text(), "user.fact." + id, "v", Cardinality.MULTI,
                Polarity.POSITIVE, 0.8, T0, "s1", new Provenance(Source.USER, "s1", "t" + id, T0, Outcome.UNKNOWN,
                Trust.FIRST_PARTY), List.of("t" + id), 1, status, null, null);
    }

    /** Every memory, observation and turn search of the query set, as "id score" lines, with the cache on or off. */
    private List<String> searches(boolean cached) {
        store.lexicalCaching(cached);
        List<String> out = new ArrayList<>();
        List<Set<MemoryStatus>> statusSets = List.of(ACTIVE, EnumSet.allOf(MemoryStatus.class));
        List<Set<MemoryKind>> kindSets = List.of(EnumSet.of(MemoryKind.FACT, MemoryKind.EVENT),
                EnumSet.allOf(MemoryKind.class));
        for (Scope scope : List.of(ANA, BEA, CAI)) {
            for (String query : QUERIES) {
                for (int limit : new int[] {1, 3, 10, 200}) {
                    for (Set<MemoryStatus> statuses : statusSets) {
                        for (Set<MemoryKind> kinds : kindSets) {
                            out.add(scope.endUserId() + " " + query + " " + limit + " " + statuses + kinds);
                            for (Scored<Memory> hit : store.searchMemories(scope, query, statuses, kinds, limit)) {
                                out.add(hit.item().id() + " " + hit.score() + " " + hit.item().status() + " "
                                        + hit.item().retrievalCount());
                            }
                        }
                    }
                    for (Set<ObservationStatus> statuses : List.of(EnumSet.of(ObservationStatus.PENDING),
                            EnumSet.allOf(ObservationStatus.class))) {
                        out.add(scope.endUserId() + " " + query + " " + limit + " " + statuses);
                        for (Scored<Observation> hit : store.searchObservations(scope, query, statuses, limit)) {
                            out.add(hit.item().id() + " " + hit.score() + " " + hit.item().status() + " "
                                    + hit.item().kind());
                        }
                    }
                    out.add(scope.endUserId() + " " + query + " " + limit + " turns");
                    for (Scored<SessionTurn> hit : store.searchTurns(scope, query, limit)) {
                        out.add(hit.item().turnId() + " " + hit.score());
                    }
                }
            }
        }
        return out;
    }

    @Test
    void should_rank_every_search_as_sqlite_does_scores_and_ties_included() {
        fill(8);
        List<String> reference = searches(false);
        long hitsBefore = store.lexicalCache().hits();
        List<String> cached = searches(true);
        assertThat(cached).isEqualTo(reference);
        // three scopes, three tables: each read once (at its second search), then served from memory
        assertThat(store.lexicalCache().puts()).isEqualTo(9);
        int searches = 3 * QUERIES.size() * 4 * (2 * 2 + 2 + 1);
        assertThat(store.lexicalCache().hits() - hitsBefore).isEqualTo(searches - 9 * 2);
        assertThat(reference.stream().filter(l -> l.startsWith("m")).count()).isGreaterThan(500);
        assertThat(reference.stream().filter(l -> l.startsWith("o")).count()).isGreaterThan(500);
        assertThat(reference).noneMatch(l -> l.endsWith(" STYLE"));
    }

    @Test
    void should_never_return_a_style_observation_an_older_version_indexed() throws Exception {
        Observation fact = observation("o-fact", ANA, ObservationStatus.PENDING, MemoryKind.FACT);
        Observation style = observation("o-style", ANA, ObservationStatus.PENDING, MemoryKind.STYLE);
        store.write(WriteBatch.of(ANA).put(fact.toBuilder().text("painting by the lake").build())
                .put(style.toBuilder().text("painting").build()));
        // what an earlier version wrote: the STYLE observation's words in the index too
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve(SqliteMemoryStore.fileName("atelier")));
             Statement st = c.createStatement()) {
            st.execute("INSERT INTO observations_fts (rowid, text) SELECT rid, '"
                    + SqliteMemoryStore.scopedWords(SqliteMemoryStore.scopeToken(ANA), "painting")
                    + "' FROM observations WHERE id = 'o-style'");
        }
        for (boolean cached : new boolean[] {false, true, true, true}) {
            store.lexicalCaching(cached);
            assertThat(store.searchObservations(ANA, "painting", EnumSet.allOf(ObservationStatus.class), 10))
                    .as("cache %s", cached).extracting(h -> h.item().id()).containsExactly("o-fact");
        }
        assertThat(store.lexicalCache().hits()).isPositive();
        // the stale entry goes with its row
        store.write(WriteBatch.of(ANA).deleteObservation("o-style"));
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve(SqliteMemoryStore.fileName("atelier")));
             Statement st = c.createStatement(); var rs = st.executeQuery("SELECT count(*) FROM observations_fts_docsize")) {
            rs.next();
            assertThat(rs.getInt(1)).isEqualTo(1);
        }
    }

    @Test
    void should_see_every_kind_of_write_made_after_the_scope_was_read() {
        fill(3);
        List<Consumer<SqliteMemoryStore>> writes = List.of(
                s -> s.write(WriteBatch.of(ANA).put(Memory.builder("new-1", ANA, MemoryKind.FACT,
                        "painting at the lake at sunrise", T0).build())),
                s -> s.write(WriteBatch.of(ANA).setMemoryStatus("new-1", MemoryStatus.DEPRECATED, null, T0)),
                s -> s.write(WriteBatch.of(ANA).deleteMemory("new-1")),
                s -> s.write(WriteBatch.of(ANA).archive(new SessionTurn(ANA, "late", 0, "late-0", Role.USER, null,
                        "we sang by the lakes, painting", T0.plusSeconds(60)))),
                s -> s.write(WriteBatch.of(ANA).purgeArchiveBefore(T0.plusSeconds(30))),
                s -> s.write(WriteBatch.of(ANA).addRecalls("mana0-1", 3, T0.plusSeconds(90))),
                s -> s.write(WriteBatch.of(ANA).put(observation("o-new", ANA, ObservationStatus.PENDING))),
                s -> s.write(WriteBatch.of(ANA).setStatus("o-new", ObservationStatus.CONSOLIDATED, T0)),
                s -> s.write(WriteBatch.of(ANA).deleteObservation("o-new")),
                s -> s.write(WriteBatch.of(BEA).put(Memory.builder("bea-new", BEA, MemoryKind.FACT,
                        "painting in another scope still changes the index's averages", T0).build())),
                s -> s.erase(ANA));
        int searches = 3 * QUERIES.size() * 4 * 7;
        for (Consumer<SqliteMemoryStore> write : writes) {
            List<String> before = searches(true);
            long puts = store.lexicalCache().puts();
            long hits = store.lexicalCache().hits();
            assertThat(searches(true)).isEqualTo(before); // read and kept: every search served from memory
            assertThat(store.lexicalCache().puts()).isEqualTo(puts);
            assertThat(store.lexicalCache().hits() - hits).isEqualTo(searches);
            write.accept(store);
            List<String> cached = searches(true);
            assertThat(store.lexicalCache().puts()).isGreaterThan(puts); // read again after the write
            assertThat(cached).isEqualTo(searches(false));
            assertThat(cached).isNotEqualTo(before);
        }
    }

    @Test
    void should_see_a_write_made_by_another_store_on_the_same_file() {
        fill(3);
        searches(true);
        long puts = store.lexicalCache().puts();
        searches(true);
        assertThat(store.lexicalCache().puts()).isEqualTo(puts); // all served from the kept entries
        try (SqliteMemoryStore other = SqliteMemoryStore.open(dir)) {
            other.write(WriteBatch.of(ANA).put(Memory.builder("elsewhere", ANA, MemoryKind.FACT,
                    "painting the lake, written by another process", T0).build()));
        }
        List<String> cached = searches(true);
        assertThat(cached).anyMatch(line -> line.startsWith("elsewhere "));
        assertThat(cached).isEqualTo(searches(false));
    }

    @Test
    void should_rank_as_sqlite_does_and_see_writes_in_an_in_memory_store() {
        store.close();
        store = quiet(SqliteMemoryStore.inMemory());
        fill(4);
        List<String> reference = searches(false);
        assertThat(searches(true)).isEqualTo(reference);
        assertThat(store.lexicalCache().puts()).isEqualTo(9);
        assertThat(store.lexicalCache().hits()).isEqualTo(3 * QUERIES.size() * 4 * 7 - 9 * 2);
        store.write(WriteBatch.of(ANA).put(Memory.builder("new-1", ANA, MemoryKind.FACT, "painting at the lake", T0)
                .build()));
        List<String> after = searches(true);
        assertThat(after).isEqualTo(searches(false)).isNotEqualTo(reference);
    }

    @Test
    void should_read_the_file_again_after_its_connections_were_closed_for_idleness() {
        store.close();
        store = quiet(SqliteMemoryStore.open(dir, false, 1));
        fill(2);
        searches(true);
        searches(true);
        assertThat(store.lexicalCache().size()).isEqualTo(9);
        Scope dan = Scope.of("elsewhere", "guide", "dan");
        // one open tenant at most: using another closes the atelier's connections, its watcher's with them
        store.write(WriteBatch.of(dan).put(Memory.builder("d1", dan, MemoryKind.FACT, "tea", T0).build()));
        assertThat(store.openTenantHandles()).isEqualTo(1);
        assertThat(store.lexicalCache().size()).isZero();
        assertThat(searches(true)).isEqualTo(searches(false));
    }

    @Test
    void should_read_a_scope_only_once_sqlites_searches_of_it_returned_enough_rows() {
        fill(3);
        store.lexicalCache().minRows(30);
        EnumSet<MemoryKind> kinds = EnumSet.allOf(MemoryKind.class);
        EnumSet<MemoryStatus> statuses = EnumSet.allOf(MemoryStatus.class);
        for (int i = 0; i < 3; i++) {
            assertThat(store.searchMemories(ANA, "paint run happy", statuses, kinds, 10)).hasSize(10);
        }
        assertThat(store.lexicalCache().puts()).isZero(); // 30 rows returned so far: the next search reads
        store.searchMemories(ANA, "paint run happy", statuses, kinds, 10);
        assertThat(store.lexicalCache().puts()).isEqualTo(1);
        store.searchMemories(ANA, "lake", statuses, kinds, 10);
        assertThat(store.lexicalCache().hits()).isEqualTo(1);
        // a commit: the count starts again at the new token
        store.write(WriteBatch.of(BEA).put(Memory.builder("b-new", BEA, MemoryKind.FACT, "tea", T0).build()));
        for (int i = 0; i < 3; i++) {
            store.searchMemories(ANA, "paint run happy", statuses, kinds, 10);
        }
        assertThat(store.lexicalCache().puts()).isEqualTo(1);
        store.searchMemories(ANA, "paint run happy", statuses, kinds, 10);
        assertThat(store.lexicalCache().puts()).isEqualTo(2);
    }

    @Test
    void should_leave_searches_to_sqlite_when_reading_a_scope_fails() throws Exception {
        fill(2);
        store.write(WriteBatch.of(ANA).put(Memory.builder("zebra", ANA, MemoryKind.FACT, "zebra", T0).build()));
        // a token count SQLite never reads for these queries (no query word is in that row), which the
        // cache's read of the whole scope cannot decode
        try (Connection raw = DriverManager.getConnection(
                "jdbc:sqlite:" + dir.resolve(SqliteMemoryStore.fileName("atelier")));
             Statement st = raw.createStatement()) {
            st.execute("UPDATE memories_fts_docsize SET sz = x'FF'"
                    + " WHERE id = (SELECT rid FROM memories WHERE id = 'zebra')");
        }
        List<String> cached = searches(true);
        assertThat(store.lexicalFailures()).isPositive();
        // every scope and table kept but Ana's memories, which SQLite answered
        assertThat(store.lexicalCache().size()).isEqualTo(8);
        assertThat(cached).isEqualTo(searches(false));
    }

    private float[] vector() {
        float[] v = new float[8];
        for (int i = 0; i < v.length; i++) {
            v[i] = random.nextFloat() - 0.5f;
        }
        return v;
    }

    /** Every vector search of two scopes, as "id score status" lines. */
    private List<String> vectorSearches(float[] query) {
        List<String> out = new ArrayList<>();
        for (Scope scope : List.of(ANA, BEA)) {
            for (Scored<Memory> hit : store.searchMemoriesByVector(scope, query, EnumSet.allOf(MemoryStatus.class), 12)) {
                out.add(hit.item().id() + " " + hit.score() + " " + hit.item().status() + " "
                        + hit.item().embedding().dimension());
            }
            for (Scored<Observation> hit : store.searchObservationsByVector(scope, query,
                    EnumSet.allOf(ObservationStatus.class), 12)) {
                out.add(hit.item().id() + " " + hit.score() + " " + hit.item().status());
            }
            for (Scored<SessionTurn> hit : store.searchTurnsByVector(scope, query, 12)) {
                out.add(hit.item().turnId() + " " + hit.score());
            }
        }
        return out;
    }

    @Test
    void should_give_vector_hits_the_records_sqlite_holds() {
        for (Scope scope : List.of(ANA, BEA)) {
            WriteBatch b = WriteBatch.of(scope);
            for (int i = 0; i < 30; i++) {
                String id = scope.endUserId() + i;
                b.put(Memory.builder("v" + id, scope, MemoryKind.FACT, text(), T0)
                        .embedding(dev.reverie.Embedding.of(vector())).build());
                b.put(observation("w" + id, scope, ObservationStatus.PENDING)
                        .withEmbedding(dev.reverie.Embedding.of(vector())));
                b.archive(new SessionTurn(scope, "v", i, "vt" + id, Role.USER, null, text(), T0),
                        dev.reverie.Embedding.of(vector()));
            }
            store.write(b);
        }
        float[] query = vector();
        store.lexicalCaching(false);
        List<String> reference = vectorSearches(query);
        store.lexicalCaching(true);
        searches(true); // the scopes' entries are read at their second lexical search
        long hits = store.lexicalCache().hits();
        assertThat(vectorSearches(query)).isEqualTo(reference);
        assertThat(store.lexicalCache().hits() - hits).isEqualTo(2 * 3); // every search's records from the entries
        // a status change: the entries are stale, so the records come from the table until read again
        store.write(WriteBatch.of(ANA).setMemoryStatus("vana3", MemoryStatus.DEPRECATED, null, T0));
        List<String> after = vectorSearches(query);
        assertThat(after).isNotEqualTo(reference);
        searches(true);
        searches(true);
        assertThat(vectorSearches(query)).isEqualTo(after);
        store.lexicalCaching(false);
        assertThat(vectorSearches(query)).isEqualTo(after);
    }

    /** Reads of archived turns by random ranges (overlapping, empty, beyond the ends, unknown sessions), as text. */
    private List<String> rangeReads(long seed) {
        Random r = new Random(seed);
        List<String> out = new ArrayList<>();
        for (int read = 0; read < 60; read++) {
            List<TurnRange> ranges = new ArrayList<>();
            int n = 1 + r.nextInt(5);
            for (int i = 0; i < n; i++) {
                // s1 and s10 both exist: a session id that is a prefix of another
                String session = r.nextInt(8) == 0 ? "nosuch" : "s" + r.nextInt(11);
                long from = r.nextInt(24);
                TurnRange range = switch (r.nextInt(10)) {
                    case 0 -> new TurnRange(session, from, from - 1 - r.nextInt(3)); // reversed: none
                    case 1 -> new TurnRange(session, 0, Long.MAX_VALUE);
                    case 2 -> new TurnRange(session, Long.MIN_VALUE, -1);
                    case 3 -> new TurnRange(session, Long.MIN_VALUE, from);
                    default -> new TurnRange(session, from, from + r.nextInt(6));
                };
                ranges.add(range);
                if (r.nextInt(6) == 0) {
                    ranges.add(range); // the same range twice
                }
            }
            for (Scope scope : List.of(ANA, BEA, CAI)) {
                out.add(scope.endUserId() + " " + ranges);
                for (SessionTurn t : store.archivedTurns(scope, ranges)) {
                    out.add(t.sessionId() + "/" + t.seq() + " " + t.turnId() + " " + t.text());
                }
            }
        }
        return out;
    }

    @Test
    void should_read_pinned_memories_from_a_kept_scope_as_sqlite_does() {
        fill(2);
        // permanent memories of every status, importance ties broken by id, ids out of insertion order
        double[] importances = {90, 90, 40, 0.0, -0.0, 75, 90, 12.5};
        MemoryStatus[] statuses = MemoryStatus.values();
        for (Scope scope : List.of(ANA, BEA)) {
            WriteBatch b = WriteBatch.of(scope);
            for (int i = 0; i < 24; i++) {
                b.put(Memory.builder("p" + ((i * 7) % 24) + scope.endUserId(), scope, MemoryKind.FACT,
                                "allergic to peanuts " + text(), T0)
                        .permanent(i % 5 != 4).importance(Math.abs(importances[i % importances.length]))
                        .status(i % 6 == 5 ? statuses[random.nextInt(statuses.length)] : MemoryStatus.ACTIVE).build());
            }
            store.write(b);
        }
        store.lexicalCaching(false);
        List<List<Memory>> reference = new ArrayList<>();
        for (Scope scope : List.of(ANA, BEA, CAI)) {
            for (int limit : new int[] {1, 3, 8, 100}) {
                reference.add(store.pinnedMemories(scope, limit));
            }
        }
        assertThat(reference.get(3)).hasSizeGreaterThan(10); // ANA, limit 100: the reads do find pins
        searches(true);
        searches(true); // every scope's entries are kept now
        long served = store.keptPinnedReads();
        List<List<Memory>> cached = new ArrayList<>();
        for (Scope scope : List.of(ANA, BEA, CAI)) {
            for (int limit : new int[] {1, 3, 8, 100}) {
                cached.add(store.pinnedMemories(scope, limit));
            }
        }
        assertThat(cached).isEqualTo(reference);
        assertThat(store.keptPinnedReads() - served).isEqualTo(12); // each read from the entries
        // a memory made permanent: the entry is stale, the read asks SQLite and sees it
        store.write(WriteBatch.of(CAI).put(Memory.builder("pin-late", CAI, MemoryKind.FACT, "lactose intolerant", T0)
                .permanent(true).importance(99).build()));
        served = store.keptPinnedReads();
        assertThat(store.pinnedMemories(CAI, 3)).extracting(Memory::id).first().isEqualTo("pin-late");
        assertThat(store.keptPinnedReads()).isEqualTo(served);
    }

    @Test
    void should_read_turns_by_range_from_a_kept_scope_as_sqlite_does() {
        fill(11); // sessions s0 .. s10, seq 0 .. 19 in each scope
        store.lexicalCaching(false);
        List<String> reference = rangeReads(5);
        assertThat(reference).anyMatch(line -> line.startsWith("s")); // the reads do find turns
        searches(true);
        searches(true); // every scope's entries are kept now
        long served = store.keptTurnReads();
        assertThat(rangeReads(5)).isEqualTo(reference);
        assertThat(store.keptTurnReads() - served).isEqualTo(60 * 3); // each read from the entries
        // a new turn: the entries are stale, the reads ask SQLite and see it
        store.write(WriteBatch.of(ANA).archive(new SessionTurn(ANA, "s3", 40, "late", Role.USER, null,
                "painting the lake late", T0)));
        store.lexicalCaching(false);
        List<TurnRange> late = List.of(new TurnRange("s3", 19, 45));
        List<SessionTurn> expected = store.archivedTurns(ANA, late);
        assertThat(expected).extracting(SessionTurn::turnId).contains("late");
        store.lexicalCaching(true);
        served = store.keptTurnReads();
        assertThat(store.archivedTurns(ANA, late)).isEqualTo(expected);
        assertThat(store.keptTurnReads()).isEqualTo(served);
        searches(true);
        searches(true);
        assertThat(store.archivedTurns(ANA, late)).isEqualTo(expected);
        assertThat(store.keptTurnReads()).isEqualTo(served + 1);
    }

    @Test
    void should_ask_sqlite_for_turns_by_range_when_a_turn_of_the_scope_has_no_indexed_word() {
        fill(2);
        // punctuation only: no token in the index, so no search finds it and the entry leaves it out
        store.write(WriteBatch.of(BEA).archive(new SessionTurn(BEA, "s1", 7, "dots", Role.USER, null, "...", T0)));
        searches(true);
        searches(true);
        List<TurnRange> ranges = List.of(new TurnRange("s1", 5, 9), new TurnRange("s0", 0, 2));
        long served = store.keptTurnReads();
        List<SessionTurn> cached = store.archivedTurns(BEA, ranges);
        assertThat(store.keptTurnReads()).isEqualTo(served); // BEA's entry does not hold every turn
        assertThat(cached).extracting(SessionTurn::turnId).contains("dots");
        assertThat(store.archivedTurns(ANA, ranges)).isNotEmpty();
        assertThat(store.keptTurnReads()).isEqualTo(served + 1); // ANA's does
        store.lexicalCaching(false);
        assertThat(store.archivedTurns(BEA, ranges)).isEqualTo(cached);
    }

    @Test
    void should_order_sessions_as_sqlite_does() {
        WriteBatch b = WriteBatch.of(CAI);
        List<String> sessions = List.of("s10", "S", "s", "s2", "a-b", "a.b", "a_b", "a:b", "a@b", "s1");
        for (String session : sessions) {
            for (int i = 0; i < 3; i++) {
                b.archive(new SessionTurn(CAI, session, i, session + i, Role.USER, null, "painting " + text(), T0));
            }
        }
        store.write(b);
        List<TurnRange> ranges = new ArrayList<>();
        for (String session : sessions) {
            ranges.add(new TurnRange(session, 0, 2));
        }
        store.lexicalCaching(false);
        List<SessionTurn> reference = store.archivedTurns(CAI, ranges);
        assertThat(reference).hasSize(30);
        searches(true);
        searches(true);
        long served = store.keptTurnReads();
        assertThat(store.archivedTurns(CAI, ranges)).isEqualTo(reference);
        assertThat(store.keptTurnReads()).isEqualTo(served + 1);
    }

    @Test
    void should_drop_an_erased_users_entries() {
        fill(2);
        searches(true);
        searches(true);
        long held = store.lexicalCache().bytes();
        assertThat(store.lexicalCache().size()).isEqualTo(9);
        store.erase(ANA);
        assertThat(store.lexicalCache().size()).isEqualTo(6);
        assertThat(store.lexicalCache().bytes()).isLessThan(held);
        assertThat(store.searchMemories(ANA, "painting", ACTIVE, EnumSet.allOf(MemoryKind.class), 10)).isEmpty();
        assertThat(store.searchTurns(ANA, "painting", 10)).isEmpty();
        assertThat(store.searchObservations(ANA, "painting", EnumSet.allOf(ObservationStatus.class), 10)).isEmpty();
    }

    private static StyleProfile style(Scope scope, String description, int observations) {
        return new StyleProfile(scope, "short", "casual", "en", false, "direct", description, observations,
                T0.plusSeconds(observations));
    }

    @Test
    void should_keep_a_decoded_style_profile_only_while_nothing_commits() {
        store.write(WriteBatch.of(ANA).put(style(ANA, "short, casual answers", 3)));
        Optional<StyleProfile> first = store.styleProfile(ANA);
        assertThat(first).contains(style(ANA, "short, casual answers", 3));
        // nothing committed: the same decoded profile, not another read of it
        assertThat(store.styleProfile(ANA).orElseThrow()).isSameAs(first.orElseThrow());
        assertThat(store.styleProfile(BEA)).isEmpty();
        assertThat(store.styleProfile(BEA)).isEmpty();

        // a write of this store, of another user's row, and of another store on the same file
        store.write(WriteBatch.of(ANA).put(style(ANA, "long, formal answers", 4)));
        assertThat(store.styleProfile(ANA)).contains(style(ANA, "long, formal answers", 4));
        store.write(WriteBatch.of(BEA).put(style(BEA, "emoji welcome", 1)));
        assertThat(store.styleProfile(BEA)).contains(style(BEA, "emoji welcome", 1));
        assertThat(store.styleProfile(ANA)).contains(style(ANA, "long, formal answers", 4));
        try (SqliteMemoryStore other = SqliteMemoryStore.open(dir)) {
            other.write(WriteBatch.of(ANA).put(style(ANA, "written elsewhere", 5)));
        }
        assertThat(store.styleProfile(ANA)).contains(style(ANA, "written elsewhere", 5));
        store.write(WriteBatch.of(ANA).deleteStyleProfile());
        assertThat(store.styleProfile(ANA)).isEmpty();

        // erasure drops what was kept; with the cache off, every read is SQLite's
        store.write(WriteBatch.of(ANA).put(style(ANA, "kept until erased", 6)));
        assertThat(store.styleProfile(ANA)).isPresent();
        assertThat(store.lexicalCache().styles()).isEqualTo(2);
        store.erase(ANA);
        assertThat(store.lexicalCache().styles()).isEqualTo(1); // nothing of the erased user stays in memory
        assertThat(store.styleProfile(ANA)).isEmpty();
        assertThat(store.styleProfile(BEA)).contains(style(BEA, "emoji welcome", 1));
        store.lexicalCaching(false);
        Optional<StyleProfile> uncached = store.styleProfile(BEA);
        assertThat(uncached).contains(style(BEA, "emoji welcome", 1));
        assertThat(store.styleProfile(BEA)).isEqualTo(uncached);
        assertThat(store.styleProfile(BEA).orElseThrow()).isNotSameAs(uncached.orElseThrow());
    }

    @Test
    void should_keep_style_profiles_in_an_in_memory_store_until_a_write() {
        store.close();
        store = quiet(SqliteMemoryStore.inMemory());
        store.write(WriteBatch.of(ANA).put(style(ANA, "short, casual answers", 3)));
        Optional<StyleProfile> first = store.styleProfile(ANA);
        assertThat(store.styleProfile(ANA)).contains(style(ANA, "short, casual answers", 3));
        assertThat(store.styleProfile(ANA).orElseThrow()).isSameAs(first.orElseThrow());
        store.write(WriteBatch.of(ANA).put(style(ANA, "long, formal answers", 4)));
        assertThat(store.styleProfile(ANA)).contains(style(ANA, "long, formal answers", 4));
    }

    @Test
    void should_merge_a_terms_rows_given_out_of_order() {
        LexicalCache.Builder b = new LexicalCache.Builder();
        for (long rid : new long[] {9, 4, 9, 7, 4}) {
            b.occurrence("s_tea", rid);
        }
        b.occurrence("s_lake", 7);
        LexicalCache.Entry scope = b.build(new TenantDatabase.ChangeToken("t", 1), 10, 40,
                java.util.Map.of(4L, 2, 7L, 3, 9L, 5), java.util.Map.of(4L, "four", 7L, "seven", 9L, "nine"),
                null, null, true);
        assertThat(scope.rids).containsExactly(4, 7, 9);
        assertThat(scope.postings.get("s_tea")).containsExactly(0, 2, 1, 1, 2, 2);
        assertThat(scope.postings.get("s_lake")).containsExactly(1, 1);
        assertThat(scope.search(List.of("s_tea"), null, null, 2)).extracting(LexicalCache.Entry.Hit::row)
                .containsExactly("four", "nine");
    }

    @Test
    void should_stem_as_fts5_and_refuse_a_token_it_splits() {
        try (FtsStems stems = new FtsStems()) {
            assertThat(stems.of(List.of("sa1_running", "sa1_sing", "s0_singing", "sa1_happiness")))
                    .containsExactly("sa1_run", "sa1_s", "s0_sing", "sa1_happi");
            assertThat(stems.of(List.of("sa1_running", "sa1_x-y"))).isNull();
            assertThat(stems.of(List.of("sa1_painted", "sa1_a-b", "sa1_runs"))).isNull();
            assertThat(stems.of(List.of("sa1_painted", "sa1_runs"))).containsExactly("sa1_paint", "sa1_run");
            assertThat(stems.of(List.of("sa1_running"))).containsExactly("sa1_run");
        }
        try (FtsStems stems = new FtsStems()) {
            // nothing remembered yet: one row for all, then (the count is off) one row per token
            assertThat(stems.of(List.of("sb2_painted", "sb2_a-b", "sb2_runs"))).isNull();
        }
        try (FtsStems stems = new FtsStems()) {
            assertThat(stems.of(List.of("sb2_painted", "sb2_runs", "sb2_painted", "sc3_happiness")))
                    .containsExactly("sb2_paint", "sb2_run", "sb2_paint", "sc3_happi");
        }
    }
}
