package dev.reverie.store.sqlite;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.reverie.ContextManager;
import dev.reverie.Embedding;
import dev.reverie.Memory;
import dev.reverie.MemoryFilter;
import dev.reverie.MemoryKind;
import dev.reverie.MemoryStatus;
import dev.reverie.MemoryStoreException;
import dev.reverie.Outcome;
import dev.reverie.Provenance;
import dev.reverie.Scope;
import dev.reverie.Source;
import dev.reverie.Trust;
import dev.reverie.internal.Json;
import dev.reverie.internal.Vectors;
import dev.reverie.spi.Scored;
import dev.reverie.spi.WriteBatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Schema version 6 moves a memory's recall count and last recall time into columns: a file written
 * at version 5 (both in the JSON record, which every read returned) opens, migrates in its opening
 * transaction, and reads back every memory exactly as before on every read path; recording recalls
 * then changes only the columns; a migration that fails leaves the file as it was.
 */
class SqliteRecallColumnsMigrationTest {

    private static final String TENANT = "clinic-1";
    private static final Scope ALICE = Scope.of(TENANT, "receptionist", "alice");
    private static final Scope BOB = Scope.of(TENANT, "receptionist", "bob");
    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");
    /** Last recall times of every shape the JSON holds: seconds, millis, nanos, before 1970, past year 9999. */
    private static final List<Instant> TIMES = OldSchemaFiles.TIMES;
    private static final float[] PROBE = {1, 1, 0.5f};

    @TempDir
    Path folder;

    @Test
    void a_version_5_file_migrates_and_every_memory_reads_back_identical() throws Exception {
        List<Memory> alice = memories(ALICE);
        List<Memory> bob = memories(BOB);
        Path file = atVersion5(alice, bob);
        Map<String, String> dataBefore = data(file, ALICE);

        try (SqliteMemoryStore store = SqliteMemoryStore.open(folder)) {
            assertReadsBack(store, ALICE, alice);
            assertReadsBack(store, BOB, bob);
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement()) {
            assertThat(OldSchemaFiles.number(st, "SELECT MAX(version) FROM schema_version")).isEqualTo(SqliteSchema.latestVersion());
            // the columns hold the JSON's own values (the time as the JSON's text of the instant), and the
            // migration left the JSON records alone
            assertThat(OldSchemaFiles.number(st, "SELECT count(*) FROM memories WHERE retrieval_count IS NOT"
                    + " json_extract(data, '$.retrievalCount')"
                    + " OR last_retrieved_at IS NOT json_extract(data, '$.lastRetrievedAt')")).isZero();
            assertThat(OldSchemaFiles.number(st, "SELECT count(*) FROM memories WHERE retrieval_count > 0")).isEqualTo(14);
            assertThat(OldSchemaFiles.number(st, "SELECT count(*) FROM memories WHERE last_retrieved_at IS NULL")).isEqualTo(8);
        }
        assertThat(data(file, ALICE)).isEqualTo(dataBefore);
    }

    @Test
    void recalls_change_only_the_columns_and_every_read_path_sees_them_until_a_full_write() throws Exception {
        List<Memory> alice = memories(ALICE);
        List<Memory> bob = memories(BOB);
        Path file = atVersion5(alice, bob);
        Map<String, String> dataBefore = data(file, ALICE);
        Instant recalled = Instant.parse("2026-02-01T04:00:00.000000001Z");
        List<Memory> expected = new ArrayList<>();
        try (SqliteMemoryStore store = SqliteMemoryStore.open(folder)) {
            WriteBatch batch = WriteBatch.of(ALICE);
            for (int i = 0; i < alice.size(); i++) {
                Memory m = alice.get(i);
                // half recalled at a new time, half at the epoch (earlier than any stored time: the count
                // grows, a stored time stays, a never-recalled memory gets the epoch)
                Instant at = i % 2 == 0 ? recalled : Instant.EPOCH;
                batch.addRecalls(m.id(), i + 1, at);
                expected.add(new WriteBatch.AddRecalls(m.id(), i + 1, at).applyTo(m));
            }
            batch.addRecalls("never-written", 3, recalled);
            store.write(batch);
            assertReadsBack(store, ALICE, expected);
            assertReadsBack(store, BOB, bob);
            assertThat(store.memory(ALICE, "never-written")).isEmpty();
        }
        // the recalls left every JSON record byte-identical; the columns are what the store returns, also
        // after a reopen
        assertThat(data(file, ALICE)).isEqualTo(dataBefore);
        try (SqliteMemoryStore store = SqliteMemoryStore.open(folder)) {
            assertReadsBack(store, ALICE, expected);
            // a full write makes the JSON and the columns one record again
            Memory rewritten = expected.get(3).toBuilder().retrievalCount(42).lastRetrievedAt(TIMES.get(2))
                    .text("walnut tea note rewritten").build();
            Memory reset = expected.get(4).toBuilder().retrievalCount(0).lastRetrievedAt(null).build();
            store.write(WriteBatch.of(ALICE).put(rewritten).put(reset));
            expected.set(3, rewritten);
            expected.set(4, reset);
            assertReadsBack(store, ALICE, expected);
            assertThat(Json.read(data(file, ALICE).get(rewritten.id()), Memory.class))
                    .isEqualTo(rewritten.toBuilder().embedding(null).build());
            assertThat(Json.read(data(file, ALICE).get(reset.id()), Memory.class))
                    .isEqualTo(reset.toBuilder().embedding(null).build());
            // and recalls after that write start from the written values
            store.write(WriteBatch.of(ALICE).addRecalls(reset.id(), 2, recalled));
            expected.set(4, reset.toBuilder().retrievalCount(2).lastRetrievedAt(recalled).build());
            assertReadsBack(store, ALICE, expected);
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement()) {
            assertThat(OldSchemaFiles.number(st, "SELECT count(*) FROM memories WHERE id IN ('m3', 'm4') AND usr = 'alice'"
                    + " AND retrieval_count IS json_extract(data, '$.retrievalCount')"
                    + " AND last_retrieved_at IS json_extract(data, '$.lastRetrievedAt')")).isEqualTo(1);
        }
    }

    @Test
    void recalls_in_a_new_file_change_only_the_columns() throws Exception {
        Memory m = memories(ALICE).get(1);
        try (SqliteMemoryStore store = SqliteMemoryStore.open(folder)) {
            store.write(WriteBatch.of(ALICE).put(m));
            String before = data(file(), ALICE).get(m.id());
            store.writeEach(List.of(WriteBatch.of(ALICE).addRecalls(m.id(), 2, TIMES.get(4)),
                    WriteBatch.of(ALICE).addRecalls(m.id(), Integer.MAX_VALUE, TIMES.get(0))));
            Memory expected = m.toBuilder().retrievalCount(Integer.MAX_VALUE).lastRetrievedAt(TIMES.get(4)).build();
            assertThat(store.memory(ALICE, m.id())).contains(expected);
            assertThat(data(file(), ALICE).get(m.id())).isEqualTo(before);
        }
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(ints = {4, 5})
    void a_failing_migration_leaves_the_file_untouched_at_its_version(int version) throws Exception {
        List<Memory> alice = memories(ALICE);
        Path file = file();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement()) {
            OldSchemaFiles.create(c, version, TENANT);
            insertAsVersion5(c, alice);
            // a record the backfill cannot read: the migration fails on the last row
            st.execute("UPDATE memories SET data = '{\"id\": \"m9\", \"retrievalCount\": ' WHERE id = 'm9'");
        }
        byte[] before = java.nio.file.Files.readAllBytes(file);
        String dumped = OldSchemaFiles.dump(file, "memories");

        try (SqliteMemoryStore store = SqliteMemoryStore.open(folder)) {
            assertThatThrownBy(() -> store.memories(ALICE, MemoryFilter.all()))
                    .isInstanceOf(MemoryStoreException.class)
                    .hasMessageContaining("could not open SQLite database")
                    .hasMessageContaining(file.getFileName().toString())
                    .hasMessageContaining("schema version 6")
                    .hasMessageContaining("memory 'm9' (agent 'receptionist', end user 'alice') is not valid JSON")
                    .hasMessageContaining("malformed JSON")
                    .hasMessageContaining("left untouched at schema version " + version + ":");
        }
        assertThat(java.nio.file.Files.readAllBytes(file)).isEqualTo(before);
        assertThat(OldSchemaFiles.dump(file, "memories")).isEqualTo(dumped);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement()) {
            assertThat(OldSchemaFiles.number(st, "SELECT MAX(version) FROM schema_version")).isEqualTo(version);
            assertThat(OldSchemaFiles.number(st, "SELECT count(*) FROM pragma_table_info('memories')"
                    + " WHERE name IN ('retrieval_count', 'last_retrieved_at')")).isZero();
            // repaired, the file migrates
            st.execute("DELETE FROM memories_fts WHERE rowid = (SELECT rid FROM memories WHERE id = 'm9')");
            st.execute("DELETE FROM memories WHERE id = 'm9'");
        }
        try (SqliteMemoryStore store = SqliteMemoryStore.open(folder)) {
            assertReadsBack(store, ALICE, alice.subList(0, 9));
        }
    }

    /** The tenant's file at schema version 5 with these memories, as version 5 wrote them. */
    @SafeVarargs
    private Path atVersion5(List<Memory>... memories) throws SQLException {
        Path file = file();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file)) {
            OldSchemaFiles.create(c, 5, TENANT);
            for (List<Memory> ms : memories) {
                insertAsVersion5(c, ms);
            }
        }
        return file;
    }

    private Path file() {
        return folder.resolve(SqliteMemoryStore.fileName(TENANT));
    }

    /**
     * Ten memories: never recalled and recalled (with every shape of last recall time, and once with a
     * count but no time, as a hand-edited record may have), some pinned, some with an embedding, one
     * superseded and one with a non-ASCII word.
     */
    private static List<Memory> memories(Scope scope) {
        List<Memory> out = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            Provenance provenance = new Provenance(Source.USER, "s1", "t" + i, T0, Outcome.UNKNOWN, Trust.FIRST_PARTY);
            int count = i < 3 ? 0 : 1 + 1_000 * (i - 3);
            Instant last = i < 3 ? null : i == 3 ? null : TIMES.get(i % TIMES.size());
            Embedding embedding = i % 3 == 0 ? null : Embedding.of(new float[] {1, i, 0.5f});
            out.add(Memory.builder("m" + i, scope, i % 2 == 0 ? MemoryKind.FACT : MemoryKind.PREFERENCE,
                            "walnut tea note " + i + (i == 7 ? " café" : "") + " for " + scope.endUserId(),
                            T0.plusSeconds(i))
                    .subject("user.note." + i).importance(0.1 * i).permanent(i % 4 == 1)
                    .status(i == 8 ? MemoryStatus.SUPERSEDED : MemoryStatus.ACTIVE)
                    .supersededBy(i == 8 ? "m9" : null)
                    .retrievalCount(count).lastRetrievedAt(last)
                    .provenance(provenance).sourceTurnIds(List.of("t" + i)).embedding(embedding).build());
        }
        return out;
    }

    /**
     * Every read path returns exactly {@code expected}: by id, listed (whole, by status, by text with an
     * ASCII and a non-ASCII fragment, by creation time, page by page), pinned, by words, by vector (with
     * and without a similarity floor), and exported.
     */
    private static void assertReadsBack(SqliteMemoryStore store, Scope scope, List<Memory> expected) {
        for (Memory m : expected) {
            assertThat(store.memory(scope, m.id())).contains(m);
        }
        assertThat(store.memories(scope, MemoryFilter.all())).containsExactlyElementsOf(expected);
        for (MemoryStatus status : MemoryStatus.values()) {
            assertThat(store.memories(scope, MemoryFilter.all().withStatuses(status)))
                    .containsExactlyElementsOf(expected.stream().filter(m -> m.status() == status).toList());
        }
        assertThat(store.memories(scope, MemoryFilter.all().withText("note 5")))
                .containsExactlyElementsOf(expected.stream().filter(m -> m.text().contains("note 5")).toList());
        assertThat(store.memories(scope, MemoryFilter.all().withText("CAFÉ")))
                .containsExactlyElementsOf(expected.stream().filter(m -> m.text().contains("café")).toList());
        assertThat(store.memories(scope, MemoryFilter.all().createdBetween(T0.plusSeconds(2), T0.plusSeconds(6))))
                .containsExactlyElementsOf(expected.subList(2, 6));
        List<Memory> paged = new ArrayList<>();
        for (int offset = 0; offset < expected.size(); offset += 3) {
            paged.addAll(store.memories(scope, MemoryFilter.all().page(offset, 3)));
        }
        assertThat(paged).containsExactlyElementsOf(expected);
        assertThat(store.pinnedMemories(scope, 50)).containsExactlyInAnyOrderElementsOf(expected.stream()
                .filter(m -> m.permanent() && m.status() == MemoryStatus.ACTIVE).toList());
        EnumSet<MemoryStatus> all = EnumSet.allOf(MemoryStatus.class);
        assertThat(store.searchMemories(scope, "walnut tea", all, EnumSet.allOf(MemoryKind.class), 50))
                .extracting(Scored::item).containsExactlyInAnyOrderElementsOf(expected);
        List<Memory> withVectors = expected.stream().filter(m -> m.embedding() != null).toList();
        assertThat(store.searchMemoriesByVector(scope, PROBE, all, 50)).extracting(Scored::item)
                .containsExactlyInAnyOrderElementsOf(withVectors);
        assertThat(store.searchMemoriesByVector(scope, PROBE, all, 50, -1.0)).extracting(Scored::item)
                .containsExactlyInAnyOrderElementsOf(withVectors);
        assertExported(store, scope, expected);
    }

    /** The export (the operator's copy of everything kept) holds each memory's current recall count and time. */
    private static void assertExported(SqliteMemoryStore store, Scope scope, List<Memory> expected) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ContextManager manager = ContextManager.builder().store(store)
                .clock(Clock.fixed(Instant.parse("2026-03-01T00:00:00Z"), ZoneOffset.UTC)).build()) {
            manager.admin().exportTo(scope, out);
        }
        JsonNode memories;
        try {
            memories = new ObjectMapper().readTree(out.toByteArray()).get("memories");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        Map<String, String> exported = new HashMap<>();
        for (JsonNode m : memories) {
            JsonNode at = m.get("lastRetrievedAt");
            exported.put(m.get("id").asText(), m.get("retrievalCount").asInt() + " "
                    + (at == null || at.isNull() ? null : Json.instant(at.asText())));
        }
        Map<String, String> wanted = new HashMap<>();
        for (Memory m : expected) {
            wanted.put(m.id(), m.retrievalCount() + " " + m.lastRetrievedAt());
        }
        assertThat(exported).isEqualTo(wanted);
    }

    /** The rows version 5 wrote for a memory: its filter columns and the whole record as JSON, plus its FTS entry. */
    private static void insertAsVersion5(Connection c, List<Memory> memories) throws SQLException {
        try (PreparedStatement row = c.prepareStatement("INSERT INTO memories (agent, usr, id, kind, status, text,"
                + " created_at, permanent, importance, dim, embedding, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
             PreparedStatement fts = c.prepareStatement("INSERT INTO memories_fts (rowid, text)"
                     + " VALUES (last_insert_rowid(), ?)")) {
            for (Memory m : memories) {
                Scope s = m.scope();
                Embedding e = m.embedding();
                dev.reverie.internal.Jdbc.bind(row, s.agentId(), s.endUserId(), m.id(), m.kind().name(),
                        m.status().name(), m.text(), m.createdAt().toEpochMilli(), m.permanent() ? 1 : 0,
                        m.importance(), e == null ? null : e.dimension(), e == null ? null : Vectors.toBytes(e.toArray()),
                        Json.write(m.toBuilder().embedding(null).build()));
                row.executeUpdate();
                fts.setString(1, SqliteMemoryStore.scopedWords(SqliteMemoryStore.scopeToken(s), m.text()));
                fts.executeUpdate();
            }
        }
    }

    /** The {@code data} column of each of the end user's memories, by id, read with plain JDBC. */
    private static Map<String, String> data(Path file, Scope scope) throws SQLException {
        Map<String, String> out = new HashMap<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
             PreparedStatement ps = c.prepareStatement("SELECT id, data FROM memories WHERE agent = ? AND usr = ?")) {
            ps.setString(1, scope.agentId());
            ps.setString(2, scope.endUserId());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getString(1), rs.getString(2));
                }
            }
        }
        return out;
    }
}
