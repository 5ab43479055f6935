package dev.reverie.store.sqlite;

import dev.reverie.Memory;
import dev.reverie.MemoryKind;
import dev.reverie.MemoryStatus;
import dev.reverie.Observation;
import dev.reverie.ObservationStatus;
import dev.reverie.Provenance;
import dev.reverie.Role;
import dev.reverie.Scope;
import dev.reverie.spi.SessionTurn;
import dev.reverie.spi.WriteBatch;
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
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The SQLite store keeps its FTS5 indexes merged as it is written ({@link IndexUpkeep}): a tenant
 * written in many transactions ends up in many segments, and the store merges an index once the
 * pages outside its largest segment reach a quarter of it, in the background, without changing any
 * search result and without losing a write made meanwhile. Real files in a temporary folder.
 */
class SqliteIndexUpkeepTest {

    private static final Instant T0 = Instant.parse("2026-03-01T09:00:00Z");
    private static final List<Scope> USERS = List.of(Scope.of("clinic", "desk", "ana"),
            Scope.of("clinic", "desk", "bea"), Scope.of("clinic", "desk", "cai"));
    private static final String[] WORDS = ("garden piano lisbon porto harbour bakery violin tennis river"
            + " mountain winter summer coffee tea sister brother doctor nurse allergy peanuts latex bicycle"
            + " train office library museum painting novel poetry chess football").split(" ");
    private static final int BATCHES = 120;
    /** Rows each batch indexes: a memory, an observation, an archived turn. */
    private static final int ROWS_PER_BATCH = 3;
    /** Batches of the bulk write that precedes a trickle of small ones. */
    private static final int BULK = 6_000;
    private static final List<String> QUERIES = List.of("piano lisbon", "allergy peanuts doctor",
            "winter mountain bicycle", "chess novel museum painting", "sister coffee");

    @TempDir
    Path dir;

    /** Four words of {@link #WORDS}, which the queries ask for, among eight of a large vocabulary. */
    private static String text(Random random) {
        StringBuilder sb = new StringBuilder();
        for (int w = 0; w < 12; w++) {
            sb.append(w == 0 ? "" : " ");
            if (w % 3 == 0) {
                sb.append(WORDS[random.nextInt(WORDS.length)]);
            } else {
                sb.append("word").append(random.nextInt(50_000));
            }
        }
        return sb.toString();
    }

    /** Batch {@code i} of the load: one memory, one observation and one archived turn of one end user. */
    private static WriteBatch batch(int i, Random random) {
        Scope scope = USERS.get(i % USERS.size());
        Instant at = T0.plusSeconds(i);
        Memory m = Memory.builder("m-" + i, scope, MemoryKind.FACT, text(random), at).subject("user.fact." + i).build();
        Observation o = Observation.builder().id("o-" + i).scope(scope).kind(MemoryKind.FACT).text(text(random))
                .observedAt(at).provenance(Provenance.ofTurn(Role.USER, "s", "t" + i, at)).build();
        SessionTurn turn = new SessionTurn(scope, "s", i, "t" + i, Role.USER, null, text(random), at);
        return WriteBatch.of(scope).put(m).putNew(o).archive(turn);
    }

    /** Writes the load, one transaction per batch (every commit makes new FTS5 segments). */
    private static void load(SqliteMemoryStore store) {
        Random random = new Random(11);
        for (int i = 0; i < BATCHES; i++) {
            store.write(batch(i, random));
        }
    }

    /** Every search of the three kinds, for every user and query: ids and scores in order. */
    private static List<String> searches(SqliteMemoryStore store) {
        List<String> out = new ArrayList<>();
        for (Scope s : USERS) {
            for (String q : QUERIES) {
                store.searchMemories(s, q, EnumSet.of(MemoryStatus.ACTIVE), EnumSet.allOf(MemoryKind.class), 50)
                        .forEach(h -> out.add(h.item().id() + "=" + h.score()));
                store.searchObservations(s, q, EnumSet.of(ObservationStatus.PENDING), 50)
                        .forEach(h -> out.add(h.item().id() + "=" + h.score()));
                store.searchTurns(s, q, 50).forEach(h -> out.add(h.item().turnId() + "=" + h.score()));
            }
        }
        return out;
    }

    private static List<Long> segments(SqliteMemoryStore store, String index) {
        return IndexUpkeep.segmentPages(storeDb(store), index);
    }

    private static TenantDatabase storeDb(SqliteMemoryStore store) {
        return store.database("clinic");
    }

    /** FTS5's own consistency check of every index of the tenant's file (throws when one is corrupt). */
    private void integrityCheck(SqliteMemoryStore store) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + store.tenantFile("clinic"));
             Statement st = c.createStatement()) {
            for (String index : IndexUpkeep.INDEXES) {
                st.execute("INSERT INTO " + index + " (" + index + ") VALUES ('integrity-check')");
            }
        }
    }

    @Test
    void a_fragmented_index_is_merged_in_the_background_and_every_result_stays_the_same() throws Exception {
        List<String> expected;
        List<List<Long>> before = new ArrayList<>();
        try (SqliteMemoryStore plain = SqliteMemoryStore.open(dir.resolve("plain"))) {
            plain.indexUpkeepEvery(Integer.MAX_VALUE);
            load(plain);
            for (String index : IndexUpkeep.INDEXES) {
                before.add(segments(plain, index));
            }
            expected = searches(plain);
        }
        // without upkeep, FTS5's automerge leaves each index in several segments
        for (List<Long> s : before) {
            assertThat(s.size()).isGreaterThanOrEqualTo(3);
            assertThat(IndexUpkeep.fragmented(s)).isTrue();
        }
        assertThat(expected).hasSizeGreaterThan(USERS.size() * QUERIES.size() * 3);

        try (SqliteMemoryStore kept = SqliteMemoryStore.open(dir.resolve("kept"))) {
            // one check, right after the load's last write
            kept.indexUpkeepEvery(BATCHES * ROWS_PER_BATCH);
            load(kept);
            kept.awaitIndexUpkeep();
            for (String index : IndexUpkeep.INDEXES) {
                assertThat(segments(kept, index)).as(index).hasSize(1);
            }
            assertThat(searches(kept)).isEqualTo(expected);
            integrityCheck(kept);
        }
    }

    /** An index merged to one segment (as after a full merge), then {@code small} single-batch writes. */
    private static void mergedThenTrickle(SqliteMemoryStore store, int small) {
        Random random = new Random(5);
        List<WriteBatch> bulk = new ArrayList<>();
        for (int i = 0; i < BULK; i++) {
            bulk.add(batch(i, random));
        }
        store.writeAll(bulk);
        store.maintain("clinic");
        for (int i = BULK; i < BULK + small; i++) {
            store.write(batch(i, random));
        }
    }

    @Test
    void small_segments_left_by_later_writes_are_merged_level_by_level_without_rewriting_the_large_one() {
        int small = 12;
        List<String> expected;
        List<List<Long>> before = new ArrayList<>();
        try (SqliteMemoryStore plain = SqliteMemoryStore.open(dir.resolve("plain"))) {
            plain.indexUpkeepEvery(Integer.MAX_VALUE);
            mergedThenTrickle(plain, small);
            for (String index : IndexUpkeep.INDEXES) {
                before.add(segments(plain, index));
            }
            expected = searches(plain);
        }
        for (List<Long> s : before) {
            // the case this test is about: many segments, but not enough outside the largest for a full merge
            assertThat(s.size()).as(before.toString()).isGreaterThan(3);
            assertThat(IndexUpkeep.fragmented(s)).as(s.toString()).isFalse();
        }
        try (SqliteMemoryStore kept = SqliteMemoryStore.open(dir.resolve("kept"))) {
            kept.indexUpkeepEvery(Integer.MAX_VALUE);
            mergedThenTrickle(kept, small);
            kept.indexUpkeepNow("clinic");
            for (int i = 0; i < IndexUpkeep.INDEXES.size(); i++) {
                List<Long> after = segments(kept, IndexUpkeep.INDEXES.get(i));
                assertThat(after.size()).as(IndexUpkeep.INDEXES.get(i)).isLessThan(before.get(i).size());
                // the large segment is still there, as it was: only the small ones were merged
                assertThat(after).contains(java.util.Collections.max(before.get(i)));
            }
            assertThat(searches(kept)).isEqualTo(expected);
        }
    }

    @Test
    void writes_made_while_indexes_are_merged_all_land() throws Exception {
        Scope other = Scope.of("clinic", "desk", "dan");
        try (SqliteMemoryStore store = SqliteMemoryStore.open(dir)) {
            store.indexUpkeepEvery(30);
            ExecutorService writer = Executors.newSingleThreadExecutor();
            CountDownLatch started = new CountDownLatch(1);
            try {
                Future<?> concurrent = writer.submit(() -> {
                    started.countDown();
                    for (int i = 0; i < 200; i++) {
                        store.write(WriteBatch.of(other).put(Memory.builder("d-" + i, other, MemoryKind.FACT,
                                "dan plays violin number " + i, T0).subject("user.fact.d" + i).build()));
                    }
                    return null;
                });
                started.await();
                load(store);
                concurrent.get();
            } finally {
                writer.shutdownNow();
            }
            store.awaitIndexUpkeep();
            assertThat(store.searchMemories(other, "violin", EnumSet.of(MemoryStatus.ACTIVE),
                    EnumSet.allOf(MemoryKind.class), 500)).hasSize(200);
            for (Scope s : USERS) {
                assertThat(store.searchTurns(s, String.join(" ", WORDS), 500)).hasSize(BATCHES / USERS.size());
            }
            integrityCheck(store);
        }
    }

    @Test
    void a_store_closed_while_upkeep_is_due_keeps_every_row() throws Exception {
        try (SqliteMemoryStore store = SqliteMemoryStore.open(dir)) {
            store.indexUpkeepEvery(10);
            load(store);
            // closed without waiting: a queued or running check finishes or stops between two steps
        }
        try (SqliteMemoryStore reopened = SqliteMemoryStore.open(dir)) {
            reopened.indexUpkeepEvery(Integer.MAX_VALUE);
            for (Scope s : USERS) {
                assertThat(reopened.searchMemories(s, String.join(" ", WORDS), EnumSet.of(MemoryStatus.ACTIVE),
                        EnumSet.allOf(MemoryKind.class), 500)).hasSize(BATCHES / USERS.size());
            }
            integrityCheck(reopened);
        }
    }

    @Test
    void an_index_is_merged_when_the_pages_outside_its_largest_segment_reach_a_quarter_of_it() {
        assertThat(IndexUpkeep.fragmented(List.of())).isFalse();
        assertThat(IndexUpkeep.fragmented(List.of(40L))).isFalse();
        assertThat(IndexUpkeep.fragmented(List.of(100L, 10L, 14L))).isFalse();
        assertThat(IndexUpkeep.fragmented(List.of(100L, 10L, 15L))).isTrue();
        assertThat(IndexUpkeep.fragmented(List.of(2L, 1L))).isTrue();
        // sixteen similar segments, as a bulk load leaves them
        assertThat(IndexUpkeep.fragmented(java.util.Collections.nCopies(16, 115L))).isTrue();
    }
}
