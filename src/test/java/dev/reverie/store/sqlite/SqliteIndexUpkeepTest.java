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
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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

    private static List<IndexUpkeep.Segment> segments(SqliteMemoryStore store, String index) {
        return IndexUpkeep.segments(store.database("clinic"), index);
    }

    /** FTS5's own consistency check of every index of the tenant's file (throws when one is corrupt). */
    private static void integrityCheck(Path file) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
             Statement st = c.createStatement()) {
            for (String index : IndexUpkeep.INDEXES) {
                st.execute("INSERT INTO " + index + " (" + index + ") VALUES ('integrity-check')");
            }
        }
    }

    /** Every index of a store loaded without upkeep, and its search results. */
    private record Baseline(List<List<IndexUpkeep.Segment>> segments, List<String> searches) {
    }

    private Baseline baseline(String folder, java.util.function.Consumer<SqliteMemoryStore> writes) {
        try (SqliteMemoryStore plain = SqliteMemoryStore.open(dir.resolve(folder))) {
            plain.indexUpkeepEvery(Integer.MAX_VALUE);
            writes.accept(plain);
            List<List<IndexUpkeep.Segment>> segments = new ArrayList<>();
            for (String index : IndexUpkeep.INDEXES) {
                segments.add(segments(plain, index));
            }
            return new Baseline(segments, searches(plain));
        }
    }

    @Test
    void a_fragmented_index_is_merged_in_the_background_and_every_result_stays_the_same() throws Exception {
        Baseline before = baseline("plain", SqliteIndexUpkeepTest::load);
        // without upkeep, FTS5's automerge leaves each index in several segments
        for (List<IndexUpkeep.Segment> s : before.segments()) {
            assertThat(s.size()).isGreaterThanOrEqualTo(3);
            assertThat(IndexUpkeep.fragmented(s)).isTrue();
        }
        assertThat(before.searches()).hasSizeGreaterThan(USERS.size() * QUERIES.size() * 3);

        try (SqliteMemoryStore kept = SqliteMemoryStore.open(dir.resolve("kept"))) {
            // one check, right after the load's last write
            kept.indexUpkeepEvery(BATCHES * ROWS_PER_BATCH);
            load(kept);
            kept.awaitIndexUpkeep();
            for (String index : IndexUpkeep.INDEXES) {
                assertThat(segments(kept, index)).as(index).hasSize(1);
            }
            assertThat(searches(kept)).isEqualTo(before.searches());
            integrityCheck(kept.tenantFile("clinic"));
        }
    }

    @Test
    void a_full_merge_finishes_while_writes_land_between_its_steps() throws Exception {
        try (SqliteMemoryStore store = SqliteMemoryStore.open(dir)) {
            store.indexUpkeepEvery(Integer.MAX_VALUE);
            load(store);
            TenantDatabase db = store.database("clinic");
            Random random = new Random(3);
            int[] next = {BATCHES};
            for (String index : IndexUpkeep.INDEXES) {
                List<IndexUpkeep.Segment> before = IndexUpkeep.segments(db, index);
                long pages = before.stream().mapToLong(IndexUpkeep.Segment::pages).sum();
                assertThat(IndexUpkeep.fragmented(before)).as(index + " " + before).isTrue();
                // steps of 2 pages, a write between every two: a merge that started over whenever a
                // segment was added would still be running at the step limit (-1)
                int steps = IndexUpkeep.merge(() -> db, index, 2, 1_000, null,
                        () -> store.write(batch(next[0]++, random)));
                assertThat(steps).as(index + " of " + pages + " pages").isBetween(2, (int) pages + 8);
                // the segments there were when the merge began are one now; the writes made meanwhile add small ones
                List<IndexUpkeep.Segment> after = IndexUpkeep.segments(db, index);
                assertThat(after.size()).as(index).isLessThan(before.size());
                assertThat(after.stream().mapToLong(IndexUpkeep.Segment::pages).max().orElseThrow())
                        .isGreaterThan(before.stream().mapToLong(IndexUpkeep.Segment::pages).max().orElseThrow());
            }
            for (Scope s : USERS) {
                assertThat(store.searchTurns(s, String.join(" ", WORDS), 500)).hasSize(next[0] / USERS.size());
            }
            integrityCheck(store.tenantFile("clinic"));
        }
    }

    @Test
    void a_full_merge_of_two_segments_finishes_although_writers_add_several_segments_between_steps()
            throws Exception {
        try (SqliteMemoryStore store = SqliteMemoryStore.open(dir)) {
            store.indexUpkeepEvery(Integer.MAX_VALUE);
            Random random = new Random(9);
            int[] next = {0};
            List<WriteBatch> batches = new ArrayList<>();
            for (int i = 0; i < BULK / 2; i++) {
                batches.add(batch(next[0]++, random));
            }
            store.writeAll(batches);
            store.maintain("clinic"); // one large segment, then a smaller one: a merge of two inputs
            List<WriteBatch> second = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                second.add(batch(next[0]++, random));
            }
            store.writeAll(second);
            TenantDatabase db = store.database("clinic");
            String index = "archive_fts";
            IndexUpkeep.collapse(() -> db, index, IndexUpkeep.STEP_PAGES, 100, 100, () -> false, null, null); // the second write's segments in one
            db.write(c -> { // FTS5's default again (collapse set 2): the merge must set what it needs
                try (Statement st = c.createStatement()) {
                    st.execute("INSERT INTO " + index + " (" + index + ", rank) VALUES ('usermerge', 4)");
                }
                return null;
            });
            List<IndexUpkeep.Segment> before = IndexUpkeep.segments(db, index);
            assertThat(before).as("two or three inputs, no more than the writes between two steps add").hasSizeBetween(2, 3);
            assertThat(before.stream().mapToLong(IndexUpkeep.Segment::pages).sorted().toArray()[0])
                    .as("the smaller input spans pages").isGreaterThan(1);
            long pages = before.stream().mapToLong(IndexUpkeep.Segment::pages).sum();
            // three writes between two steps: with FTS5's default usermerge (4) a later step would find
            // three new segments on a lower level, not worth merging but more than the merge's two
            // inputs, do nothing and so report the merge done, half way
            int steps = IndexUpkeep.merge(() -> db, index, 4, 1_000, null, () -> {
                for (int w = 0; w < 3; w++) {
                    store.write(batch(next[0]++, random));
                }
            });
            assertThat(steps).as("steps until FTS5 reported the merge done (-1: stopped at the limit)").isPositive();
            long largest = IndexUpkeep.segments(db, index).stream().mapToLong(IndexUpkeep.Segment::pages).max()
                    .orElseThrow();
            // merged: larger than its largest input (half merged, that input is left trimmed and smaller)
            long largestBefore = before.stream().mapToLong(IndexUpkeep.Segment::pages).max().orElseThrow();
            assertThat(largest).as("the merged segment; before: %s", before).isGreaterThan(largestBefore);
            integrityCheck(store.tenantFile("clinic"));
        }
    }

    /** An index merged to one segment (as after a full merge), then {@code small} single-batch writes. */
    private static void mergedThenTrickle(SqliteMemoryStore store, int small) {
        Random random = new Random(5);
        List<WriteBatch> bulk = new ArrayList<>();
        for (int i = 0; i < BULK; i++) {
            bulk.add(batch(i, random));
        }
        // in ten transactions: from one writeAll (its entries written out per 1 MB, four segments) maintain
        // makes a large segment that the collapse of the small ones below rewrites with them (FTS5 levels),
        // which is not the case the tests of this fixture are about
        for (int from = 0; from < BULK; from += BULK / 10) {
            store.writeAll(bulk.subList(from, from + BULK / 10));
        }
        store.maintain("clinic");
        for (int i = BULK; i < BULK + small; i++) {
            store.write(batch(i, random));
        }
    }

    @Test
    void small_segments_left_by_later_writes_are_merged_level_by_level_without_rewriting_the_large_one() {
        int small = 12;
        Baseline before = baseline("plain", s -> mergedThenTrickle(s, small));
        for (List<IndexUpkeep.Segment> s : before.segments()) {
            // the case this test is about: many segments, but not enough outside the largest for a full merge
            assertThat(s.size()).as(s.toString()).isGreaterThan(IndexUpkeep.COLLAPSE_AT);
            assertThat(IndexUpkeep.fragmented(s)).as(s.toString()).isFalse();
        }
        try (SqliteMemoryStore kept = SqliteMemoryStore.open(dir.resolve("kept"))) {
            kept.indexUpkeepEvery(Integer.MAX_VALUE);
            mergedThenTrickle(kept, small);
            kept.indexUpkeepNow("clinic");
            for (int i = 0; i < IndexUpkeep.INDEXES.size(); i++) {
                List<IndexUpkeep.Segment> was = before.segments().get(i);
                List<IndexUpkeep.Segment> after = segments(kept, IndexUpkeep.INDEXES.get(i));
                assertThat(after.size()).as(IndexUpkeep.INDEXES.get(i)).isLessThan(was.size());
                // the large segment is still there, as it was: only the small ones were merged
                IndexUpkeep.Segment largest = was.stream()
                        .max(java.util.Comparator.comparingLong(IndexUpkeep.Segment::pages)).orElseThrow();
                assertThat(after).contains(largest);
            }
            assertThat(searches(kept)).isEqualTo(before.searches());
        }
    }

    @Test
    void a_collapse_while_writers_keep_adding_segments_stops_after_the_steps_its_small_segments_need()
            throws Exception {
        int small = 12;
        Baseline before = baseline("plain", s -> mergedThenTrickle(s, small));
        try (SqliteMemoryStore kept = SqliteMemoryStore.open(dir.resolve("kept"))) {
            kept.indexUpkeepEvery(Integer.MAX_VALUE);
            mergedThenTrickle(kept, small);
            int allowed = 0;
            for (List<IndexUpkeep.Segment> s : before.segments()) {
                assertThat(s.size()).as(s.toString()).isGreaterThan(IndexUpkeep.COLLAPSE_AT);
                assertThat(IndexUpkeep.fragmented(s)).as(s.toString()).isFalse();
                allowed += IndexUpkeep.collapseSteps(s);
            }
            TenantDatabase db = kept.database("clinic");
            kept.indexUpkeepQuietAfter(java.time.Duration.ZERO); // the check after the writes, at once
            // a writer commits between every two steps, as steady traffic does: each write adds a segment
            // to every index, so there is always a level with two to merge, and a collapse that waited
            // for none ran to its step limit
            Random random = new Random(17);
            int[] next = {BULK + small};
            AtomicInteger between = new AtomicInteger();
            long checks = kept.indexUpkeepChecks();
            long steps = db.unsyncedCommits(); // every merge step is one
            AtomicLong stepsOfFirstCheck = new AtomicLong(-1);
            kept.indexUpkeepBetweenSteps(() -> {
                if (kept.indexUpkeepChecks() == checks + 1) { // the first check; the one after the writes has none
                    between.incrementAndGet();
                    stepsOfFirstCheck.set(db.unsyncedCommits() - steps); // a collapse cut short takes no step after
                    kept.write(batch(next[0]++, random));
                }
            });
            kept.indexUpkeepNow("clinic");
            assertThat(between.get()).as("writes between steps").isPositive();
            assertThat(stepsOfFirstCheck.get()).as("steps of the three collapses").isLessThanOrEqualTo(allowed);
            for (int i = 0; i < IndexUpkeep.INDEXES.size(); i++) {
                // the small segments there were are merged all the same
                assertThat(segments(kept, IndexUpkeep.INDEXES.get(i)).size()).as(IndexUpkeep.INDEXES.get(i))
                        .isLessThan(before.segments().get(i).size());
            }
            integrityCheck(kept.tenantFile("clinic"));
        }
    }

    @Test
    void merges_checkpoint_the_log_once_they_wrote_what_sqlite_checkpoints_after_and_small_steps_leave_it_to_sqlite()
            throws Exception {
        try (SqliteMemoryStore store = SqliteMemoryStore.open(dir)) {
            store.indexUpkeepEvery(Integer.MAX_VALUE);
            mergedThenTrickle(store, 12);
            TenantDatabase db = store.database("clinic");
            long checkpoints = db.passiveCheckpoints();
            for (String index : IndexUpkeep.INDEXES) {
                assertThat(IndexUpkeep.collapse(() -> db, index, IndexUpkeep.STEP_PAGES, 10, 10, () -> false, null, null))
                        .isTrue();
            }
            assertThat(db.passiveCheckpoints()).as("the collapses' few pages: no checkpoint of their own")
                    .isEqualTo(checkpoints);
            // two bulk loads of long archived turns, a segment each: a full merge rewrites thousands of pages
            Random random = new Random(23);
            for (int load = 0; load < 2; load++) {
                List<WriteBatch> bulk = new ArrayList<>();
                for (int i = 0; i < BULK; i++) {
                    Scope scope = USERS.get(i % USERS.size());
                    StringBuilder text = new StringBuilder();
                    for (int w = 0; w < 10; w++) {
                        text.append(text(random)).append(' ');
                    }
                    int seq = load * BULK + i;
                    bulk.add(WriteBatch.of(scope).archive(new SessionTurn(scope, "long", seq, "l" + seq, Role.USER, null,
                            text.toString(), T0.plusSeconds(seq))));
                }
                store.writeAll(bulk);
            }
            String index = "archive_fts";
            List<IndexUpkeep.Segment> before = IndexUpkeep.segments(db, index);
            long pages = before.stream().mapToLong(IndexUpkeep.Segment::pages).sum();
            assertThat(IndexUpkeep.fragmented(before)).as(before.toString()).isTrue();
            int steps = IndexUpkeep.merge(() -> db, index, 200, 1_000, null, null);
            assertThat(steps).as("steps of a merge of %s pages", pages).isPositive();
            long made = db.passiveCheckpoints() - checkpoints;
            // (a page merged is written and its input freed, each with its _data row and, often, an _idx row)
            assertThat(made).as("%s steps of %s pages", steps, pages).isBetween(pages / 1_000, 4 * pages / 1_000 + 1);
            assertThat(made).as("fewer than one per step").isLessThan(steps);
            integrityCheck(store.tenantFile("clinic"));
        }
    }

    /** No index of the store has more segments than a collapse leaves. */
    private static void assertCollapsed(SqliteMemoryStore store) {
        for (String index : IndexUpkeep.INDEXES) {
            assertThat(segments(store, index).size()).as(index).isLessThanOrEqualTo(IndexUpkeep.COLLAPSE_AT);
        }
    }

    /** An index merged to one segment, then twelve writes of 40 batches each: a segment of several pages each. */
    private static void mergedThenTwelveSegments(SqliteMemoryStore store) {
        mergedThenTrickle(store, 0);
        Random random = new Random(29);
        for (int w = 0; w < 12; w++) {
            List<WriteBatch> batches = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                batches.add(batch(BULK + 40 * w + i, random));
            }
            store.writeAll(batches);
        }
    }

    @Test
    void a_collapse_its_writers_cut_short_is_checked_again_once_they_pause_and_then_goes_to_the_end() {
        try (SqliteMemoryStore store = SqliteMemoryStore.open(dir)) {
            store.indexUpkeepEvery(Integer.MAX_VALUE);
            store.indexUpkeepQuietAfter(java.time.Duration.ZERO);
            mergedThenTwelveSegments(store);
            Random random = new Random(31);
            AtomicInteger writes = new AtomicInteger();
            int[] next = {BULK + 1_000};
            // the writers write between the first steps, then stop
            store.indexUpkeepBetweenSteps(() -> {
                if (writes.getAndIncrement() < 3) {
                    store.write(batch(next[0]++, random));
                }
            });
            long checks = store.indexUpkeepChecks();
            store.indexUpkeepNow("clinic"); // and waits for what it queued
            assertThat(writes.get()).as("steps after a first one").isPositive();
            // the check the writes cut short, then one when they paused, which no write cut short
            assertThat(store.indexUpkeepChecks() - checks).isEqualTo(2);
            assertCollapsed(store);
        }
    }

    @Test
    void closing_finishes_a_collapse_that_writers_cut_short_before_they_paused_long_enough() {
        Path folder = dir.resolve("cut");
        try (SqliteMemoryStore store = SqliteMemoryStore.open(folder)) {
            store.indexUpkeepEvery(1_000_000);
            store.indexUpkeepQuietAfter(java.time.Duration.ofHours(1)); // no settling check before close
            mergedThenTwelveSegments(store);
            Random random = new Random(37);
            int[] next = {BULK + 2_000};
            AtomicInteger writes = new AtomicInteger();
            store.indexUpkeepBetweenSteps(() -> {
                if (writes.getAndIncrement() == 0) { // one write: too few for close to check the tenant for it
                    store.write(batch(next[0]++, random));
                }
            });
            long checks = store.indexUpkeepChecks();
            store.indexUpkeepNow("clinic");
            assertThat(store.indexUpkeepChecks() - checks).as("the check, cut short; none after it yet").isEqualTo(1);
            assertThat(writes.get()).isPositive();
            store.close();
            assertThat(store.indexUpkeepChecks() - checks).as("and one more as the store closed").isEqualTo(2);
        }
        try (SqliteMemoryStore reopened = SqliteMemoryStore.open(folder)) {
            reopened.indexUpkeepEvery(Integer.MAX_VALUE);
            assertCollapsed(reopened);
        }
    }

    @Test
    void closing_collapses_the_indexes_of_a_tenant_written_several_times_since_its_last_check() {
        Path folder = dir.resolve("closed");
        try (SqliteMemoryStore store = SqliteMemoryStore.open(folder)) {
            store.indexUpkeepEvery(1_000_000); // no check while writing
            mergedThenTrickle(store, 12);
            for (String index : IndexUpkeep.INDEXES) {
                assertThat(segments(store, index).size()).as(index).isGreaterThan(IndexUpkeep.COLLAPSE_AT);
            }
        }
        try (SqliteMemoryStore reopened = SqliteMemoryStore.open(folder)) {
            reopened.indexUpkeepEvery(Integer.MAX_VALUE);
            assertCollapsed(reopened);
        }
    }

    @Test
    void a_collapse_stops_at_its_bound_once_rows_were_written_and_goes_on_to_the_end_while_none_were() {
        try (SqliteMemoryStore store = SqliteMemoryStore.open(dir)) {
            store.indexUpkeepEvery(Integer.MAX_VALUE);
            mergedThenTwelveSegments(store);
            TenantDatabase db = store.database("clinic");
            String index = "archive_fts";
            long commits = db.unsyncedCommits();
            // steps of two pages: the small segments take several
            assertThat(IndexUpkeep.collapse(() -> db, index, 2, 1_000, 1, () -> true, null, null)).isFalse();
            assertThat(db.unsyncedCommits() - commits).as("steps with rows written meanwhile").isEqualTo(1);
            commits = db.unsyncedCommits();
            assertThat(IndexUpkeep.collapse(() -> db, index, 2, 1_000, 1, () -> false, null, null)).isTrue();
            assertThat(db.unsyncedCommits() - commits).as("steps with none").isGreaterThan(1);
            commits = db.unsyncedCommits();
            assertThat(IndexUpkeep.collapse(() -> db, index, 2, 1_000, 1, () -> false, null, null)).isTrue();
            assertThat(db.unsyncedCommits() - commits).as("a collapse after one that went to the end").isEqualTo(1);
        }
    }

    @Test
    void a_check_checkpoints_the_log_once_whatever_its_merges_wrote() {
        try (SqliteMemoryStore store = SqliteMemoryStore.open(dir)) {
            store.indexUpkeepEvery(Integer.MAX_VALUE);
            mergedThenTrickle(store, 12);
            TenantDatabase db = store.database("clinic");
            long checkpoints = db.passiveCheckpoints();
            long steps = db.unsyncedCommits();
            store.indexUpkeepNow("clinic");
            assertThat(db.unsyncedCommits() - steps).as("collapse steps").isPositive();
            assertThat(db.passiveCheckpoints() - checkpoints).isEqualTo(1);
            store.indexUpkeepNow("clinic"); // nothing left to merge: the writers' log all the same
            assertThat(db.passiveCheckpoints() - checkpoints).isEqualTo(2);
        }
    }

    @Test
    void a_collapse_may_take_the_steps_that_write_the_pages_outside_the_largest_segment_once() {
        IndexUpkeep.Segment large = new IndexUpkeep.Segment(1, 40_000);
        assertThat(IndexUpkeep.collapseSteps(List.of(large, seg(2, 1), seg(3, 1), seg(4, 3), seg(5, 1), seg(6, 2))))
                .isEqualTo(1);
        assertThat(IndexUpkeep.collapseSteps(List.of(large, seg(2, 700), seg(3, 400)))).isEqualTo(3);
        assertThat(IndexUpkeep.collapseSteps(List.of(large, seg(2, 999)))).isEqualTo(2);
        assertThat(IndexUpkeep.collapseSteps(List.of(seg(1, 100_000), seg(2, 100_000)))).isEqualTo(201);
        assertThat(IndexUpkeep.collapseSteps(List.of(large))).isEqualTo(1);
    }

    private static IndexUpkeep.Segment seg(long id, long pages) {
        return new IndexUpkeep.Segment(id, pages);
    }

    @Test
    void writes_made_while_indexes_are_merged_all_land_and_the_last_check_follows_the_last_write() throws Exception {
        Scope other = Scope.of("clinic", "desk", "dan");
        try (SqliteMemoryStore store = SqliteMemoryStore.open(dir)) {
            // a check after every write: the background thread merges while both writers go on
            store.indexUpkeepEvery(1);
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
            // every write was followed by a check, the last one included: no index is left as it was
            for (String index : IndexUpkeep.INDEXES) {
                List<IndexUpkeep.Segment> s = segments(store, index);
                assertThat(IndexUpkeep.fragmented(s)).as(index + " " + s).isFalse();
                assertThat(s.size()).as(index + " " + s).isLessThanOrEqualTo(IndexUpkeep.COLLAPSE_AT);
            }
            assertThat(store.searchMemories(other, "violin", EnumSet.of(MemoryStatus.ACTIVE),
                    EnumSet.allOf(MemoryKind.class), 500)).hasSize(200);
            for (Scope s : USERS) {
                assertThat(store.searchTurns(s, String.join(" ", WORDS), 500)).hasSize(BATCHES / USERS.size());
            }
            integrityCheck(store.tenantFile("clinic"));
        }
    }

    @Test
    void close_runs_the_checks_already_queued_to_the_end() throws Exception {
        Path file;
        try (SqliteMemoryStore store = SqliteMemoryStore.open(dir)) {
            // the check is queued by the load's last write; close follows at once
            store.indexUpkeepEvery(BATCHES * ROWS_PER_BATCH);
            load(store);
            file = store.tenantFile("clinic");
        }
        try (SqliteMemoryStore reopened = SqliteMemoryStore.open(dir)) {
            reopened.indexUpkeepEvery(Integer.MAX_VALUE);
            for (String index : IndexUpkeep.INDEXES) {
                assertThat(segments(reopened, index)).as(index).hasSize(1);
            }
            for (Scope s : USERS) {
                assertThat(reopened.searchMemories(s, String.join(" ", WORDS), EnumSet.of(MemoryStatus.ACTIVE),
                        EnumSet.allOf(MemoryKind.class), 500)).hasSize(BATCHES / USERS.size());
            }
        }
        integrityCheck(file);
    }

    @Test
    void a_check_counts_as_a_use_of_its_tenant_so_the_bound_on_open_tenants_holds() {
        try (SqliteMemoryStore store = SqliteMemoryStore.open(dir, false, 1)) {
            store.indexUpkeepEvery(Integer.MAX_VALUE);
            load(store);
            Scope elsewhere = Scope.of("bakery", "desk", "eve");
            store.write(WriteBatch.of(elsewhere).put(Memory.builder("e-1", elsewhere, MemoryKind.FACT,
                    "eve bakes bread", T0).subject("user.fact.e").build()));
            assertThat(store.openTenantHandles()).isEqualTo(1); // the clinic's tenant was closed for the bakery's
            store.indexUpkeepNow("clinic");
            assertThat(store.openTenantHandles()).isEqualTo(1);
        }
    }

    /** The connection's durability mode and automatic checkpoint, as "synchronous/autocheckpoint". */
    private static String writerSettings(Connection c) throws java.sql.SQLException {
        try (Statement st = c.createStatement()) {
            String out;
            try (java.sql.ResultSet rs = st.executeQuery("PRAGMA synchronous")) {
                out = rs.next() ? rs.getString(1) : "?";
            }
            try (java.sql.ResultSet rs = st.executeQuery("PRAGMA wal_autocheckpoint")) {
                return out + "/" + (rs.next() ? rs.getString(1) : "?");
            }
        }
    }

    @Test
    void merge_steps_commit_without_an_fsync_or_a_checkpoint_and_leave_the_writer_as_it_was() {
        try (SqliteMemoryStore store = SqliteMemoryStore.open(dir)) {
            store.indexUpkeepEvery(Integer.MAX_VALUE);
            load(store);
            TenantDatabase db = store.database("clinic");
            TenantDatabase.SqlWork<String> settings = SqliteIndexUpkeepTest::writerSettings;
            java.util.function.Supplier<String> mode = () -> db.write(settings);
            assertThat(mode.get()).isEqualTo("2/1000"); // FULL, the store's durable default, and SQLite's checkpoint
            // NORMAL and no automatic checkpoint inside (the log is checkpointed after, outside the lock)
            assertThat(db.writeUnsynced(settings)).isEqualTo("1/0");
            long unsynced = db.unsyncedCommits();
            assertThat(IndexUpkeep.merge(() -> db, "memories_fts", IndexUpkeep.STEP_PAGES, 100, null, null))
                    .isPositive();
            assertThat(db.unsyncedCommits()).isGreaterThan(unsynced); // the merge's steps took the relaxed path
            assertThat(mode.get()).isEqualTo("2/1000"); // and as before for the writes after it
            assertThatThrownBy(() -> db.writeUnsynced(c -> {
                throw new java.sql.SQLException("a failing step");
            })).hasMessageContaining("a failing step");
            assertThat(mode.get()).isEqualTo("2/1000"); // also after a failed one
        }
    }

    @Test
    void a_store_opened_with_relaxed_sync_still_merges_without_a_checkpoint_inside_the_commit() {
        try (SqliteMemoryStore store = SqliteMemoryStore.open(dir, true)) {
            store.indexUpkeepEvery(Integer.MAX_VALUE);
            load(store);
            TenantDatabase db = store.database("clinic");
            TenantDatabase.SqlWork<String> settings = SqliteIndexUpkeepTest::writerSettings;
            assertThat(db.write(settings)).isEqualTo("1/1000");
            assertThat(db.writeUnsynced(settings)).isEqualTo("1/0");
            assertThat(db.write(settings)).isEqualTo("1/1000");
        }
    }

    @Test
    void an_index_is_merged_when_the_pages_outside_its_largest_segment_reach_a_quarter_of_it() {
        assertThat(IndexUpkeep.fragmented(pages())).isFalse();
        assertThat(IndexUpkeep.fragmented(pages(40))).isFalse();
        assertThat(IndexUpkeep.fragmented(pages(100, 10, 14))).isFalse();
        assertThat(IndexUpkeep.fragmented(pages(100, 10, 15))).isTrue();
        assertThat(IndexUpkeep.fragmented(pages(2, 1))).isTrue();
        // sixteen similar segments, as a bulk load leaves them
        assertThat(IndexUpkeep.fragmented(pages(115, 115, 115, 115, 115, 115, 115, 115, 115, 115, 115, 115, 115,
                115, 115, 115))).isTrue();
    }

    private static List<IndexUpkeep.Segment> pages(long... pages) {
        List<IndexUpkeep.Segment> out = new ArrayList<>();
        for (int i = 0; i < pages.length; i++) {
            out.add(new IndexUpkeep.Segment(i + 1, pages[i]));
        }
        return out;
    }
}
