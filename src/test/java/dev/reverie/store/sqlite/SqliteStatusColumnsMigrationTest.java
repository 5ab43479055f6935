package dev.reverie.store.sqlite;

import dev.reverie.Cardinality;
import dev.reverie.Embedding;
import dev.reverie.MemoryKind;
import dev.reverie.MemoryStoreException;
import dev.reverie.Observation;
import dev.reverie.ObservationFilter;
import dev.reverie.ObservationStatus;
import dev.reverie.Outcome;
import dev.reverie.Polarity;
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
 * Schema version 5 moves an observation's status and consolidation time into columns: a file written
 * at version 4 (status and time in the JSON record, which every read returned) opens, migrates in its
 * opening transaction, and reads back every observation exactly as before; a migration that fails
 * leaves the file as it was.
 */
class SqliteStatusColumnsMigrationTest {

    private static final String TENANT = "clinic-1";
    private static final Scope ALICE = Scope.of(TENANT, "receptionist", "alice");
    private static final Scope BOB = Scope.of(TENANT, "receptionist", "bob");
    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");
    /** Consolidation times of every shape the JSON holds: none, seconds, millis, nanos, before 1970, past year 9999. */
    private static final List<Instant> TIMES = OldSchemaFiles.TIMES;

    @TempDir
    Path folder;

    @Test
    void a_version_4_file_migrates_and_every_observation_reads_back_identical() throws Exception {
        List<Observation> alice = observations(ALICE);
        List<Observation> bob = observations(BOB);
        Path file = folder.resolve(SqliteMemoryStore.fileName(TENANT));
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file)) {
            OldSchemaFiles.create(c, 4, TENANT);
            insertAsVersion4(c, alice);
            insertAsVersion4(c, bob);
        }

        try (SqliteMemoryStore store = SqliteMemoryStore.open(folder)) {
            assertReadsBack(store, ALICE, alice);
            assertReadsBack(store, BOB, bob);
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement()) {
            assertThat(OldSchemaFiles.number(st, "SELECT MAX(version) FROM schema_version")).isEqualTo(SqliteSchema.latestVersion());
            // the column holds the JSON's own text of the instant, as a status write after the migration writes it
            assertThat(OldSchemaFiles.number(st, "SELECT count(*) FROM observations WHERE consolidated_at IS NOT"
                    + " json_extract(data, '$.consolidatedAt') OR status IS NOT json_extract(data, '$.status')")).isZero();
        }
    }

    @Test
    void after_the_migration_a_status_write_changes_the_columns_and_every_read_sees_it() throws Exception {
        List<Observation> alice = observations(ALICE);
        Path file = folder.resolve(SqliteMemoryStore.fileName(TENANT));
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file)) {
            OldSchemaFiles.create(c, 4, TENANT);
            insertAsVersion4(c, alice);
        }
        String dataBefore = data(file, "o0");
        Instant judged = Instant.parse("2026-02-01T04:00:00.000000001Z");
        List<Observation> expected = new ArrayList<>();
        try (SqliteMemoryStore store = SqliteMemoryStore.open(folder)) {
            WriteBatch batch = WriteBatch.of(ALICE);
            for (Observation o : alice) {
                ObservationStatus next = o.status() == ObservationStatus.DISCARDED
                        ? ObservationStatus.PENDING : ObservationStatus.DISCARDED;
                Instant at = next == ObservationStatus.PENDING ? null : judged;
                batch.setStatus(o.id(), next, at);
                expected.add(o.withStatus(next, at));
            }
            store.write(batch);
            assertReadsBack(store, ALICE, expected);
        }
        // the status write left the JSON record alone; the columns are what the store returns, also after a reopen
        assertThat(data(file, "o0")).isEqualTo(dataBefore);
        try (SqliteMemoryStore store = SqliteMemoryStore.open(folder)) {
            assertReadsBack(store, ALICE, expected);
            // a full write keeps the JSON and the columns the same record
            Observation rewritten = expected.get(0).withStatus(ObservationStatus.CONSOLIDATED, TIMES.get(2));
            store.write(WriteBatch.of(ALICE).put(rewritten));
            assertThat(store.observation(ALICE, rewritten.id())).contains(rewritten);
            assertThat(Json.read(data(file, rewritten.id()), Observation.class))
                    .isEqualTo(rewritten.withEmbedding(null));
        }
    }

    @Test
    void a_failing_migration_leaves_the_file_at_version_4_untouched() throws Exception {
        List<Observation> alice = observations(ALICE);
        Path file = folder.resolve(SqliteMemoryStore.fileName(TENANT));
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement()) {
            OldSchemaFiles.create(c, 4, TENANT);
            insertAsVersion4(c, alice);
            // a record the backfill cannot read: the migration fails on the last row
            st.execute("UPDATE observations SET data = '{\"id\": \"o9\", \"status\": ' WHERE id = 'o9'");
        }
        String before = OldSchemaFiles.dump(file, "observations");

        try (SqliteMemoryStore store = SqliteMemoryStore.open(folder)) {
            assertThatThrownBy(() -> store.observations(ALICE, ObservationFilter.all()))
                    .isInstanceOf(MemoryStoreException.class)
                    .hasMessageContaining("could not open SQLite database")
                    .hasMessageContaining(file.getFileName().toString())
                    .hasMessageContaining("malformed JSON");
        }
        assertThat(OldSchemaFiles.dump(file, "observations")).isEqualTo(before);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement()) {
            assertThat(OldSchemaFiles.number(st, "SELECT MAX(version) FROM schema_version")).isEqualTo(4);
            assertThat(OldSchemaFiles.number(st, "SELECT count(*) FROM pragma_table_info('observations')"
                    + " WHERE name = 'consolidated_at'")).isZero();
            // repaired, the file migrates
            st.execute("DELETE FROM observations WHERE id = 'o9'");
        }
        try (SqliteMemoryStore store = SqliteMemoryStore.open(folder)) {
            assertReadsBack(store, ALICE, alice.subList(0, 9));
        }
    }

    /** Ten observations: every status, with every shape of consolidation time, some with an embedding. */
    private static List<Observation> observations(Scope scope) {
        List<Observation> out = new ArrayList<>();
        ObservationStatus[] statuses = ObservationStatus.values();
        for (int i = 0; i < 10; i++) {
            ObservationStatus status = statuses[i % statuses.length];
            Instant at = status == ObservationStatus.PENDING && i % 2 == 0 ? null : TIMES.get(i % TIMES.size());
            Provenance provenance = new Provenance(Source.USER, "s1", "t" + i, T0, Outcome.UNKNOWN, Trust.FIRST_PARTY);
            Embedding embedding = i % 3 == 0 ? null : Embedding.of(new float[] {1, i, 0.5f});
            out.add(new Observation("o" + i, scope, MemoryKind.FACT, "walnut tea note " + i + " for " + scope.endUserId(),
                    "user.note." + i, "v" + i, Cardinality.MULTI, Polarity.POSITIVE, 0.8, T0.plusSeconds(i), "s1",
                    provenance, List.of("t" + i), 1, status, at, embedding));
        }
        return out;
    }

    /** Every read path returns exactly {@code expected}: by id, listed, by words and by vector. */
    private static void assertReadsBack(SqliteMemoryStore store, Scope scope, List<Observation> expected) {
        for (Observation o : expected) {
            assertThat(store.observation(scope, o.id())).contains(o);
        }
        assertThat(store.observations(scope, ObservationFilter.all())).containsExactlyElementsOf(expected);
        EnumSet<ObservationStatus> all = EnumSet.allOf(ObservationStatus.class);
        for (ObservationStatus status : all) {
            assertThat(store.observations(scope, ObservationFilter.all().withStatuses(status)))
                    .containsExactlyElementsOf(expected.stream().filter(o -> o.status() == status).toList());
        }
        assertThat(store.searchObservations(scope, "walnut tea", all, 50)).extracting(Scored::item)
                .containsExactlyInAnyOrderElementsOf(expected);
        assertThat(store.searchObservationsByVector(scope, new float[] {1, 1, 0.5f}, all, 50))
                .extracting(Scored::item)
                .containsExactlyInAnyOrderElementsOf(expected.stream().filter(o -> o.embedding() != null).toList());
    }

    /** The rows version 4 wrote for an observation: the status column and the whole record as JSON, plus its FTS entry. */
    private static void insertAsVersion4(Connection c, List<Observation> observations) throws SQLException {
        try (PreparedStatement row = c.prepareStatement("INSERT INTO observations (agent, usr, id, kind, status,"
                + " session_id, observed_at, dim, embedding, data, text) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
             PreparedStatement fts = c.prepareStatement("INSERT INTO observations_fts (rowid, text)"
                     + " VALUES (last_insert_rowid(), ?)")) {
            for (Observation o : observations) {
                Scope s = o.scope();
                Embedding e = o.embedding();
                dev.reverie.internal.Jdbc.bind(row, s.agentId(), s.endUserId(), o.id(), o.kind().name(),
                        o.status().name(), o.sessionId(), o.observedAt().toEpochMilli(),
                        e == null ? null : e.dimension(), e == null ? null : Vectors.toBytes(e.toArray()),
                        Json.write(o.withEmbedding(null)), o.text());
                row.executeUpdate();
                fts.setString(1, SqliteMemoryStore.scopedWords(SqliteMemoryStore.scopeToken(s), o.text()));
                fts.executeUpdate();
            }
        }
    }

    private static String data(Path file, String id) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
             PreparedStatement ps = c.prepareStatement("SELECT data FROM observations WHERE id = ? AND usr = 'alice'")) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).isTrue();
                return rs.getString(1);
            }
        }
    }
}
