package dev.reverie.store.sqlite;

import dev.reverie.Embedding;
import dev.reverie.Memory;
import dev.reverie.MemoryKind;
import dev.reverie.MemoryStatus;
import dev.reverie.MemoryStoreException;
import dev.reverie.Role;
import dev.reverie.Scope;
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
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The SQLite store's vector cache: a scope's vectors are read from the file once and scored from
 * memory while the scope's {@code vector_versions} number (kept by triggers, so by every writer of
 * the file) stays the same; any write of an embedding or a status, in this process or another,
 * makes the next search read them again. Real files in a temporary folder.
 */
class SqliteVectorCacheTest {

    private static final Instant T0 = Instant.parse("2026-03-01T09:00:00Z");
    private static final Scope ANA = Scope.of("clinic", "desk", "ana");
    private static final Scope BEA = Scope.of("clinic", "desk", "bea");
    private static final EnumSet<MemoryStatus> ACTIVE = EnumSet.of(MemoryStatus.ACTIVE);

    @TempDir
    Path dir;

    private SqliteMemoryStore store;

    @BeforeEach
    void open() {
        store = SqliteMemoryStore.open(dir);
    }

    @AfterEach
    void close() {
        store.close();
    }

    private static Embedding vector(float... v) {
        return Embedding.of(v);
    }

    private static Memory memory(Scope scope, String id, float... v) {
        return Memory.builder(id, scope, MemoryKind.FACT, "fact " + id, T0).subject("user.fact." + id)
                .embedding(vector(v)).build();
    }

    private static SessionTurn turn(Scope scope, long seq, String text) {
        return new SessionTurn(scope, "s1", seq, "t" + seq, Role.USER, null, text, T0.plusSeconds(seq));
    }

    private List<String> nearestMemories(SqliteMemoryStore s, Scope scope, float... query) {
        return s.searchMemoriesByVector(scope, query, ACTIVE, 10).stream().map(h -> h.item().id()).toList();
    }

    private List<String> nearestTurns(SqliteMemoryStore s, Scope scope, float... query) {
        return s.searchTurnsByVector(scope, query, 10).stream().map(h -> h.item().turnId()).toList();
    }

    @Test
    void vectors_are_read_once_and_every_later_write_is_seen() {
        store.write(WriteBatch.of(ANA).put(memory(ANA, "m-x", 1, 0, 0)).put(memory(ANA, "m-y", 0, 1, 0))
                .archive(turn(ANA, 0, "about x"), vector(1, 0, 0)));
        long puts = store.vectorCache().puts();

        assertThat(nearestMemories(store, ANA, 1, 0.1f, 0)).containsExactly("m-x", "m-y");
        assertThat(nearestMemories(store, ANA, 0.1f, 1, 0)).containsExactly("m-y", "m-x");
        assertThat(nearestTurns(store, ANA, 1, 0, 0)).containsExactly("t0");
        assertThat(nearestTurns(store, ANA, 0, 0, 1)).containsExactly("t0");
        assertThat(store.vectorCache().puts()).as("each table's vectors read whole once, on its second search")
                .isEqualTo(puts + 2);
        assertThat(nearestMemories(store, ANA, 1, 0.1f, 0)).containsExactly("m-x", "m-y");
        assertThat(store.vectorCache().puts()).isEqualTo(puts + 2);

        // a new vector, a status change, a deletion, a new embedding: each seen by the next search
        store.write(WriteBatch.of(ANA).put(memory(ANA, "m-z", 0.9f, 0.1f, 0)));
        assertThat(nearestMemories(store, ANA, 1, 0, 0)).containsExactly("m-x", "m-z", "m-y");
        store.write(WriteBatch.of(ANA).setMemoryStatus("m-x", MemoryStatus.SUPERSEDED, "m-z", T0.plusSeconds(5)));
        assertThat(nearestMemories(store, ANA, 1, 0, 0)).containsExactly("m-z", "m-y");
        assertThat(store.searchMemoriesByVector(ANA, new float[] {1, 0, 0}, EnumSet.allOf(MemoryStatus.class), 1))
                .extracting(h -> h.item().id()).containsExactly("m-x");
        store.write(WriteBatch.of(ANA).deleteMemory("m-z"));
        assertThat(nearestMemories(store, ANA, 1, 0, 0)).containsExactly("m-y");
        store.write(WriteBatch.of(ANA).put(memory(ANA, "m-y", 1, 0, 0)));
        assertThat(store.searchMemoriesByVector(ANA, new float[] {1, 0, 0}, ACTIVE, 10))
                .extracting(Scored::score).containsExactly(1.0);
        store.write(WriteBatch.of(ANA).archive(turn(ANA, 1, "about z"), vector(0, 0, 1)));
        assertThat(nearestTurns(store, ANA, 0, 0, 1)).containsExactly("t1", "t0");

        // another end user's vectors are theirs alone
        store.write(WriteBatch.of(BEA).put(memory(BEA, "m-b", 1, 0, 0)));
        assertThat(nearestMemories(store, BEA, 1, 0, 0)).containsExactly("m-b");
        assertThat(nearestMemories(store, ANA, 1, 0, 0)).containsExactly("m-y");
    }

    @Test
    void another_process_writing_the_file_makes_the_cache_read_again() {
        store.write(WriteBatch.of(ANA).put(memory(ANA, "m-x", 1, 0, 0)).archive(turn(ANA, 0, "x"), vector(1, 0, 0)));
        assertThat(nearestMemories(store, ANA, 0, 1, 0)).containsExactly("m-x");
        assertThat(nearestTurns(store, ANA, 0, 1, 0)).containsExactly("t0");

        try (SqliteMemoryStore other = SqliteMemoryStore.open(dir)) {
            other.write(WriteBatch.of(ANA).put(memory(ANA, "m-y", 0, 1, 0)).archive(turn(ANA, 1, "y"), vector(0, 1, 0)));
            other.write(WriteBatch.of(ANA).setMemoryStatus("m-x", MemoryStatus.DEPRECATED, null, T0.plusSeconds(1)));
        }

        assertThat(nearestMemories(store, ANA, 0, 1, 0)).containsExactly("m-y");
        assertThat(nearestTurns(store, ANA, 0, 1, 0)).containsExactly("t1", "t0");
    }

    @Test
    void a_file_from_before_the_vector_versions_is_searched_by_the_scan_until_a_vector_write_numbers_it()
            throws Exception {
        store.write(WriteBatch.of(ANA).put(memory(ANA, "m-x", 1, 0, 0)).archive(turn(ANA, 0, "x"), vector(1, 0, 0)));
        store.close();
        Path file = dir.resolve("tenant-clinic.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement()) {
            OldSchemaFiles.dropVectorVersions(st);
        }

        store = SqliteMemoryStore.open(dir);
        for (int i = 0; i < 3; i++) {
            assertThat(nearestMemories(store, ANA, 1, 0, 0)).containsExactly("m-x");
            assertThat(nearestTurns(store, ANA, 1, 0, 0)).containsExactly("t0");
        }
        assertThat(versionRows(file, ANA)).as("opening scanned no vector table").isZero();
        assertThat(store.vectorCache().size()).as("no number: never kept").isZero();
        store.write(WriteBatch.of(ANA).put(memory(ANA, "m-y", 1, 0, 0)));
        assertThat(versionRows(file, ANA)).isEqualTo(1);
        for (int i = 0; i < 3; i++) {
            assertThat(nearestMemories(store, ANA, 1, 0, 0)).containsExactly("m-x", "m-y");
        }
        assertThat(store.vectorCache().size()).as("numbered: kept, the old vector included").isEqualTo(1);
    }

    @Test
    void the_triggers_exist_while_a_vector_is_numbered_and_come_back_before_the_next_vector_write() throws Exception {
        Path file = dir.resolve("tenant-clinic.db");
        // a store without vectors has none: its writes pay no statement savepoint for them
        store.write(WriteBatch.of(ANA).put(Memory.builder("m-plain", ANA, MemoryKind.FACT, "plain fact", T0)
                .subject("user.fact.plain").build()).archive(turn(ANA, 0, "no vector")));
        assertThat(store.database("clinic").vectorTriggers()).isZero();

        // the first vector write creates them in its own transaction, before its rows, and so the number
        store.write(WriteBatch.of(ANA).put(memory(ANA, "m-x", 1, 0, 0)));
        assertTriggersAndNumber(file, ANA);
        for (int i = 0; i < 2; i++) {
            assertThat(nearestMemories(store, ANA, 1, 0, 0)).containsExactly("m-x");
        }
        assertThat(store.vectorCache().size()).isEqualTo(1);

        // its last vector gone, the number goes, and the next opening of the file (another process here)
        // drops the triggers
        store.write(WriteBatch.of(ANA).deleteMemory("m-x"));
        assertThat(versionRows(file, ANA)).isZero();
        try (SqliteMemoryStore other = SqliteMemoryStore.open(dir)) {
            assertThat(other.memories(ANA, dev.reverie.MemoryFilter.all())).hasSize(1);
            assertThat(other.database("clinic").vectorTriggers()).isZero();
        }

        // this store saw them last: its next vector write finds the file changed and creates them again,
        // so the new vector is numbered and every later change to it is seen
        store.write(WriteBatch.of(ANA).put(memory(ANA, "m-y", 0, 1, 0)));
        assertTriggersAndNumber(file, ANA);
        for (int i = 0; i < 3; i++) {
            assertThat(nearestMemories(store, ANA, 1, 0, 0)).containsExactly("m-y");
        }
        store.write(WriteBatch.of(ANA).setMemoryStatus("m-y", MemoryStatus.DEPRECATED, null, T0.plusSeconds(1)));
        assertThat(nearestMemories(store, ANA, 0, 1, 0)).isEmpty();
        store.write(WriteBatch.of(ANA).archive(turn(ANA, 1, "with a vector"), vector(0, 0, 1)));
        for (int i = 0; i < 2; i++) {
            assertThat(nearestTurns(store, ANA, 0, 0, 1)).containsExactly("t1");
        }
    }

    @Test
    void triggers_made_by_a_write_that_rolled_back_are_made_again_by_the_next() throws Exception {
        Path file = dir.resolve("tenant-clinic.db");
        store.write(WriteBatch.of(ANA).append(turn(ANA, 0, "first")));
        // a batch with a vector that fails after making the triggers (the same session turn again): all
        // of it rolls back, the triggers too
        assertThatThrownBy(() -> store.write(WriteBatch.of(ANA).put(memory(ANA, "m-x", 1, 0, 0))
                .append(turn(ANA, 0, "first")))).isInstanceOf(MemoryStoreException.class);
        assertThat(store.database("clinic").vectorTriggers()).isZero();
        // the file's schema version moves on by as much as making them did (each erasure vacuums the file)
        for (int i = 0; i < SqliteSchema.VECTOR_TRIGGER_NAMES.size(); i++) {
            Scope other = Scope.of("clinic", "desk", "user-" + i);
            store.write(WriteBatch.of(other).append(turn(other, 0, "hello")));
            store.erase(other);
        }

        store.write(WriteBatch.of(ANA).put(memory(ANA, "m-y", 1, 0, 0)));
        assertTriggersAndNumber(file, ANA);
    }

    @Test
    void erasing_a_user_leaves_no_version_row_and_no_cached_vector() throws Exception {
        store.write(WriteBatch.of(ANA).put(memory(ANA, "m-x", 1, 0, 0)).archive(turn(ANA, 0, "x"), vector(1, 0, 0)));
        store.write(WriteBatch.of(BEA).put(memory(BEA, "m-b", 1, 0, 0)));
        for (int i = 0; i < 2; i++) { // kept from the second search at the same number on
            nearestMemories(store, ANA, 1, 0, 0);
            nearestTurns(store, ANA, 1, 0, 0);
            nearestMemories(store, BEA, 1, 0, 0);
        }
        assertThat(store.vectorCache().size()).isEqualTo(3);

        store.erase(ANA);

        assertThat(store.vectorCache().size()).isEqualTo(1);
        Path file = dir.resolve("tenant-clinic.db");
        assertThat(versionRows(file, ANA)).isZero();
        assertThat(versionRows(file, BEA)).isEqualTo(1);
        assertThat(nearestMemories(store, ANA, 1, 0, 0)).isEmpty();
        // the same user again starts afresh
        store.write(WriteBatch.of(ANA).put(memory(ANA, "m-new", 1, 0, 0)));
        assertThat(nearestMemories(store, ANA, 1, 0, 0)).containsExactly("m-new");
    }

    @Test
    void scores_from_the_cache_are_the_scan_s_to_the_last_bit() {
        java.util.Random random = new java.util.Random(7);
        WriteBatch batch = WriteBatch.of(ANA);
        for (int i = 0; i < 60; i++) {
            float[] v = new float[24];
            for (int k = 0; k < v.length; k++) {
                v[k] = (float) random.nextGaussian();
            }
            batch.put(memory(ANA, "m-" + i, v)).archive(turn(ANA, i, "turn " + i), vector(v));
        }
        store.write(batch);
        for (int q = 0; q < 10; q++) {
            float[] query = new float[24];
            for (int k = 0; k < query.length; k++) {
                query[k] = (float) random.nextGaussian();
            }
            // the first search scans, the second reads the scope whole and keeps it, the third uses the cache
            List<List<Object>> memories = new java.util.ArrayList<>();
            List<List<Object>> turns = new java.util.ArrayList<>();
            for (int i = 0; i < 3; i++) {
                memories.add(store.searchMemoriesByVector(ANA, query, ACTIVE, 20, 0.1).stream()
                        .map(h -> List.<Object>of(h.item().id(), h.score())).toList().stream()
                        .map(l -> (Object) l).toList());
                turns.add(store.searchTurnsByVector(ANA, query, 20, 0.1).stream()
                        .map(h -> (Object) List.of(h.item().turnId(), h.score())).toList());
            }
            assertThat(memories.get(0)).isNotEmpty();
            assertThat(memories.get(1)).isEqualTo(memories.get(0));
            assertThat(memories.get(2)).isEqualTo(memories.get(0));
            assertThat(turns.get(1)).isEqualTo(turns.get(0));
            assertThat(turns.get(2)).isEqualTo(turns.get(0));
        }
        assertThat(store.vectorCache().size()).isEqualTo(2);
    }

    @Test
    void a_scope_too_large_to_keep_is_read_whole_once_then_scanned() {
        VectorCache cache = new VectorCache(4_000);
        VectorCache.Key key = new VectorCache.Key("t", "a", "u", "memories");
        VectorCache.Scope large = new VectorCache.Scope(5, new long[] {1, 2}, new float[][] {new float[200],
                new float[200]}, new String[] {"ACTIVE", "ACTIVE"});
        assertThat(cache.worthReading(key, 5)).isFalse();
        assertThat(cache.worthReading(key, 5)).as("searched again at the same number").isTrue();
        cache.put(key, large, cache.epoch());
        assertThat(cache.get(key, 5)).isNull();
        assertThat(cache.worthReading(key, 5)).isFalse();
        assertThat(cache.worthReading(key, 5)).as("known to be too large").isFalse();
        assertThat(cache.worthReading(key, 6)).as("changed since: tried again once searched twice").isFalse();
        assertThat(cache.worthReading(key, 6)).isTrue();

        VectorCache.Key small = new VectorCache.Key("t", "a", "v", "memories");
        VectorCache.Scope one = new VectorCache.Scope(9, new long[] {1}, new float[][] {new float[4]}, new String[] {"ACTIVE"});
        long epoch = cache.epoch();
        cache.forget("t", "a", "v"); // an erasure while the scope was being read
        cache.put(small, one, epoch);
        assertThat(cache.get(small, 9)).as("read before the erasure: not kept").isNull();
        cache.put(small, one, cache.epoch());
        assertThat(cache.get(small, 9)).isSameAs(one);
        assertThat(cache.get(small, 10)).as("another number: stale").isNull();
    }

    /** The file has every vector trigger, and {@code scope} one number per table it has vectors in (one here). */
    private void assertTriggersAndNumber(Path file, Scope scope) throws Exception {
        assertThat(store.database("clinic").vectorTriggers()).isEqualTo(SqliteSchema.VECTOR_TRIGGER_NAMES.size());
        assertThat(versionRows(file, scope)).isEqualTo(1);
    }

    private static int versionRows(Path file, Scope scope) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*) FROM vector_versions WHERE agent = '" + scope.agentId()
                     + "' AND usr = '" + scope.endUserId() + "'")) {
            return rs.getInt(1);
        }
    }
}
