package dev.reverie.store.sqlite;

import dev.reverie.Memory;
import dev.reverie.MemoryKind;
import dev.reverie.MemoryStatus;
import dev.reverie.MemoryStoreException;
import dev.reverie.Observation;
import dev.reverie.ObservationStatus;
import dev.reverie.Provenance;
import dev.reverie.Role;
import dev.reverie.Scope;
import dev.reverie.Source;
import dev.reverie.spi.Scored;
import dev.reverie.spi.SessionTurn;
import dev.reverie.spi.WriteBatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Schema version 7 makes the three FTS5 indexes contentless (with deletes): a file written at version
 * 6, whose indexes held a copy of every indexed word list, opens, migrates in its opening transaction
 * and searches exactly as a file written at version 7 holding the same rows; it keeps no copy of the
 * words; writes after the migration (re-indexed text, deletions, an erased end user) are searched as
 * before; a migration that fails leaves the file as it was.
 *
 * <p>The version-6 file is made from a version-7 one with the same rows: its indexes are replaced by
 * version 6's (an FTS5 table with content) holding what version 6 wrote into them, each row's words
 * prefixed by its end user's scope token ({@link SqliteMemoryStore#scopedWords}), and its version set
 * back. The tables of rows are the same at both versions.
 */
class SqliteContentlessFtsMigrationTest {

    private static final String TENANT = "garden-club";
    private static final Scope ALICE = Scope.of(TENANT, "helper", "alice");
    private static final Scope BOB = Scope.of(TENANT, "helper", "bob");
    private static final Instant T0 = Instant.parse("2026-03-01T09:00:00Z");
    private static final List<String> INDEXES = List.of("memories_fts", "observations_fts", "archive_fts");
    private static final List<String> QUERIES = List.of("tulips", "roses garden", "watering schedule",
            "lilacs", "bulbs in autumn", "compost", "café");

    @TempDir
    Path root;

    @Test
    void a_version_6_file_migrates_and_searches_as_a_version_7_file_with_the_same_rows() throws Exception {
        Path written = root.resolve("written");
        Path migrated = root.resolve("migrated");
        List<List<String>> expected;
        try (SqliteMemoryStore store = SqliteMemoryStore.open(written)) {
            fill(store);
            expected = searches(store);
        }
        assertThat(expected.stream().filter(r -> !r.isEmpty()).count()).as("queries that find something")
                .isGreaterThanOrEqualTo(15);
        Path file = atVersion6(written, migrated);

        try (SqliteMemoryStore store = SqliteMemoryStore.open(migrated)) {
            assertThat(searches(store)).isEqualTo(expected);
            // the migration journaled to a temp file; the writer is back to its in-memory journals (2)
            int tempStore = store.database(TENANT).<Integer>write(c -> {
                try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("PRAGMA temp_store")) {
                    rs.next();
                    return rs.getInt(1);
                }
            });
            assertThat(tempStore).isEqualTo(2);
        }
        for (Path f : List.of(written.resolve(SqliteMemoryStore.fileName(TENANT)), file)) {
            assertContentless(f);
        }
    }

    @Test
    void a_new_file_and_an_in_memory_database_get_contentless_indexes() throws Exception {
        try (SqliteMemoryStore store = SqliteMemoryStore.open(root)) {
            store.write(WriteBatch.of(ALICE).put(Memory.builder("m1", ALICE, MemoryKind.FACT, "alice grows tulips", T0)
                    .subject("user.topic.1").build()));
        }
        assertContentless(root.resolve(SqliteMemoryStore.fileName(TENANT)));
        try (SqliteMemoryStore store = (SqliteMemoryStore) dev.reverie.spi.MemoryStores.open("sqlite::memory:")) {
            store.write(WriteBatch.of(ALICE).put(Memory.builder("m1", ALICE, MemoryKind.FACT, "alice grows tulips", T0)
                    .subject("user.topic.1").build()));
            assertThat(store.database(TENANT).query("SELECT sql FROM sqlite_master WHERE name IN"
                    + " ('memories_fts', 'observations_fts', 'archive_fts')", rs -> rs.getString(1)))
                    .hasSize(3).allSatisfy(sql -> assertThat(sql).contains("content = ''").contains("contentless_delete = 1"));
            assertThat(ids(store.searchMemories(ALICE, "tulips", EnumSet.allOf(MemoryStatus.class),
                    EnumSet.allOf(MemoryKind.class), 5))).containsExactly("m1");
        }
    }

    @Test
    void deletions_leave_the_ranking_statistics_of_a_file_that_never_held_the_deleted_rows() throws Exception {
        // bm25 depends on the row count and the mean length FTS5 keeps: a contentless deletion must take
        // the deleted row out of both while it is still a tombstone (before any merge), or every later
        // score drifts
        List<List<String>> afterDeletes;
        List<Memory> kept;
        List<Observation> keptObservations;
        List<SessionTurn> keptTurns;
        WriteBatch bob = WriteBatch.of(BOB);
        try (SqliteMemoryStore store = SqliteMemoryStore.open(root.resolve("changed"))) {
            fill(store);
            alicesChanges(store);
            assertThat(store.database(TENANT).query("SELECT count(*) FROM observations_fts_data WHERE id >= (1 << 53)",
                    rs -> rs.getLong(1)).get(0)).as("deletions pending as tombstones").isPositive();
            afterDeletes = searches(store);
            kept = store.memories(ALICE, dev.reverie.MemoryFilter.all());
            keptObservations = store.observations(ALICE, dev.reverie.ObservationFilter.all());
            keptTurns = store.archivedTurns(ALICE, "s1");
            store.memories(BOB, dev.reverie.MemoryFilter.all()).forEach(bob::put);
            store.observations(BOB, dev.reverie.ObservationFilter.all()).forEach(bob::put);
            store.archivedTurns(BOB, "s1").forEach(bob::archive);
        }
        assertThat(kept).hasSize(6);
        assertThat(keptObservations).hasSize(5);
        assertThat(keptTurns).hasSize(3);
        try (SqliteMemoryStore store = SqliteMemoryStore.open(root.resolve("fresh"))) {
            WriteBatch b = WriteBatch.of(ALICE);
            kept.forEach(b::put);
            keptObservations.forEach(b::put);
            keptTurns.forEach(b::archive);
            store.write(b);
            store.write(bob);
            assertThat(scoresById(searches(store))).isEqualTo(scoresById(afterDeletes));
        }
    }

    /** Each search's hits as a sorted list (row ids differ between the two files, so ties may order otherwise). */
    private static List<List<String>> scoresById(List<List<String>> searches) {
        return searches.stream().map(r -> r.stream().sorted().toList()).toList();
    }

    private static void assertContentless(Path file) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement()) {
            assertThat(OldSchemaFiles.number(st, "SELECT MAX(version) FROM schema_version"))
                    .isEqualTo(SqliteSchema.latestVersion()).isEqualTo(7);
            for (String index : INDEXES) {
                try (ResultSet rs = st.executeQuery("SELECT sql FROM sqlite_master WHERE name = '" + index + "'")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getString(1)).as(index).contains("content = ''").contains("contentless_delete = 1");
                }
                assertThat(OldSchemaFiles.number(st, "SELECT count(*) FROM sqlite_master WHERE name LIKE '"
                        + index + "%content' OR name LIKE '%\\_v7%' ESCAPE '\\'")).as(index + ": no copy, no leftover")
                        .isZero();
                assertThat(OldSchemaFiles.number(st, "SELECT count(*) FROM " + index + " WHERE text IS NOT NULL"))
                        .as(index + " returns no text").isZero();
            }
            // one entry per row, as before
            assertThat(OldSchemaFiles.number(st, "SELECT count(*) FROM memories_fts"))
                    .isEqualTo(OldSchemaFiles.number(st, "SELECT count(*) FROM memories"));
            assertThat(OldSchemaFiles.number(st, "SELECT count(*) FROM archive_fts"))
                    .isEqualTo(OldSchemaFiles.number(st, "SELECT count(*) FROM archive_turns"));
        }
    }

    @Test
    void writes_after_the_migration_are_searched_as_in_a_version_7_file() throws Exception {
        Path written = root.resolve("written");
        Path migrated = root.resolve("migrated");
        filledAtVersion6(written, migrated);
        List<List<String>> fromWritten;
        List<List<String>> fromMigrated;
        try (SqliteMemoryStore store = SqliteMemoryStore.open(written)) {
            change(store);
            fromWritten = searches(store);
        }
        try (SqliteMemoryStore store = SqliteMemoryStore.open(migrated)) {
            change(store);
            fromMigrated = searches(store);
            // the changes show: the re-indexed text is found by its new words only, the deleted rows not
            // at all, and the erased end user has nothing left to find
            assertThat(ids(store.searchMemories(ALICE, "lilacs", EnumSet.allOf(MemoryStatus.class),
                    EnumSet.allOf(MemoryKind.class), 10))).containsExactlyInAnyOrder("m-alice-0", "m-alice-9");
            assertThat(ids(store.searchMemories(ALICE, "tulips", EnumSet.allOf(MemoryStatus.class),
                    EnumSet.allOf(MemoryKind.class), 10))).doesNotContain("m-alice-0", "m-alice-1");
            assertThat(store.searchObservations(ALICE, "roses", EnumSet.allOf(ObservationStatus.class), 10))
                    .extracting(h -> h.item().id()).doesNotContain("o-alice-2");
            assertThat(store.searchTurns(ALICE, "compost", 10)).extracting(h -> h.item().seq())
                    .allSatisfy(seq -> assertThat(seq).isGreaterThanOrEqualTo(3L));
            assertThat(store.searchMemories(BOB, "tulips", EnumSet.allOf(MemoryStatus.class),
                    EnumSet.allOf(MemoryKind.class), 10)).isEmpty();
            assertThat(store.searchTurns(BOB, "compost", 10)).isEmpty();
        }
        assertThat(fromMigrated).isEqualTo(fromWritten);
    }

    @Test
    void a_failing_migration_leaves_the_file_untouched_at_version_6() throws Exception {
        Path migrated = root.resolve("migrated");
        Path file = filledAtVersion6(root.resolve("written"), migrated);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement()) {
            // an index the migration cannot read (a file damaged by hand): it fails on the last index
            st.execute("DROP TABLE archive_fts");
            st.execute("CREATE TABLE archive_fts (x)");
        }
        byte[] before = Files.readAllBytes(file);
        String dumped = OldSchemaFiles.dump(file, "memories");

        try (SqliteMemoryStore store = SqliteMemoryStore.open(migrated)) {
            assertThatThrownBy(() -> store.memories(ALICE, dev.reverie.MemoryFilter.all()))
                    .isInstanceOf(MemoryStoreException.class)
                    .hasMessageContaining(file.getFileName().toString())
                    .hasMessageContaining("schema version 7")
                    .hasMessageContaining("left untouched at schema version 6");
        }
        assertThat(Files.readAllBytes(file)).isEqualTo(before);
        assertThat(OldSchemaFiles.dump(file, "memories")).isEqualTo(dumped);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement()) {
            assertThat(OldSchemaFiles.number(st, "SELECT MAX(version) FROM schema_version")).isEqualTo(6);
            assertThat(OldSchemaFiles.number(st, "SELECT count(*) FROM sqlite_master WHERE name LIKE '%_v7'")).isZero();
            assertThat(OldSchemaFiles.number(st, "SELECT count(*) FROM memories_fts_content"))
                    .as("version 6's index with its copy, as it was").isEqualTo(12);
        }
    }

    /** {@link #fill}s a version-7 store in {@code written}; its file made version 6 in {@code migrated}. */
    private static Path filledAtVersion6(Path written, Path migrated) throws Exception {
        try (SqliteMemoryStore store = SqliteMemoryStore.open(written)) {
            fill(store);
        }
        return atVersion6(written, migrated);
    }

    /** Two end users, each with memories, observations and archived turns sharing words across users. */
    private static void fill(SqliteMemoryStore store) {
        for (Scope s : List.of(ALICE, BOB)) {
            WriteBatch b = WriteBatch.of(s);
            String[] topics = {"tulips", "roses in the garden", "the watering schedule", "bulbs planted in autumn",
                    "a compost heap", "tea at the café"};
            for (int i = 0; i < topics.length; i++) {
                b.put(Memory.builder("m-" + s.endUserId() + "-" + i, s, i % 2 == 0 ? MemoryKind.FACT
                                : MemoryKind.PREFERENCE, s.endUserId() + " talked about " + topics[i] + " " + i,
                                T0.plusSeconds(i))
                        .subject("user.topic." + i).importance(10 * i)
                        .status(i == 5 ? MemoryStatus.SUPERSEDED : MemoryStatus.ACTIVE)
                        .provenance(Provenance.ofTurn(Role.USER, "s1", "t" + i, T0.plusSeconds(i)))
                        .sourceTurnIds(List.of("t" + i)).build());
                b.put(Observation.builder().id("o-" + s.endUserId() + "-" + i).scope(s).kind(MemoryKind.FACT)
                        .text("said " + i + " things about " + topics[(i + 1) % topics.length] + " and roses")
                        .observedAt(T0.plusSeconds(i)).sessionId("s1").provenance(new Provenance(Source.USER, "s1", "t" + i, T0.plusSeconds(i),
                                dev.reverie.Outcome.UNKNOWN, dev.reverie.Trust.FIRST_PARTY))
                        .status(i % 3 == 0 ? ObservationStatus.CONSOLIDATED : ObservationStatus.PENDING)
                        .consolidatedAt(i % 3 == 0 ? T0.plusSeconds(60) : null)
                        .sourceTurnIds(List.of("t" + i)).build());
                b.archive(new SessionTurn(s, "s1", i, "t" + i, i % 2 == 0 ? Role.USER : Role.ASSISTANT, null,
                        "we spoke of " + topics[i] + " and the compost", T0.plusSeconds(i)));
            }
            store.write(b);
        }
    }

    /** The same changes on either file: {@link #alicesChanges}, then Bob erased. */
    private static void change(SqliteMemoryStore store) {
        alicesChanges(store);
        store.erase(BOB);
    }

    /** Alice's text re-indexed, rows of hers deleted, her older turns purged, a memory added. */
    private static void alicesChanges(SqliteMemoryStore store) {
        Memory m0 = store.memory(ALICE, "m-alice-0").orElseThrow();
        store.write(WriteBatch.of(ALICE).put(m0.toBuilder().text("alice talked about lilacs").build())
                .deleteMemory("m-alice-1").deleteObservation("o-alice-2").purgeArchiveBefore(T0.plusSeconds(3))
                .put(Memory.builder("m-alice-9", ALICE, MemoryKind.FACT, "alice bought tulips and lilacs", T0)
                        .subject("user.topic.9").build()));
    }

    /** Every query's hits (id and score) in each index, for both end users. */
    private static List<List<String>> searches(SqliteMemoryStore store) {
        List<List<String>> out = new ArrayList<>();
        for (Scope s : List.of(ALICE, BOB)) {
            for (String q : QUERIES) {
                out.add(hits(store.searchMemories(s, q, EnumSet.allOf(MemoryStatus.class),
                        EnumSet.allOf(MemoryKind.class), 10), m -> m.id()));
                out.add(hits(store.searchObservations(s, q, EnumSet.allOf(ObservationStatus.class), 10),
                        o -> o.id()));
                out.add(hits(store.searchTurns(s, q, 10), t -> t.sessionId() + ":" + t.seq()));
            }
        }
        return out;
    }

    private static <T> List<String> hits(List<Scored<T>> hits, java.util.function.Function<T, String> id) {
        List<String> out = new ArrayList<>();
        for (Scored<T> h : hits) {
            out.add(id.apply(h.item()) + "@" + h.score());
        }
        return out;
    }

    private static List<String> ids(List<Scored<Memory>> hits) {
        return hits.stream().map(h -> h.item().id()).toList();
    }

    /**
     * A copy of the tenant file of {@code from} in {@code to}, made a version-6 file: each index
     * replaced by version 6's, holding the words version 6 wrote for each row, and the version set back.
     */
    private static Path atVersion6(Path from, Path to) throws Exception {
        Files.createDirectories(to);
        String name = SqliteMemoryStore.fileName(TENANT);
        Path file = to.resolve(name);
        Files.copy(from.resolve(name), file);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement()) {
            assertThat(OldSchemaFiles.number(st, "SELECT MAX(version) FROM schema_version")).isEqualTo(7);
            st.execute("BEGIN");
            OldSchemaFiles.withContentIndexes(c, st, "memories_fts", "observations_fts", "archive_fts");
            st.execute("DELETE FROM schema_version WHERE version = 7");
            st.execute("COMMIT");
            st.execute("VACUUM");
        }
        return file;
    }
}
