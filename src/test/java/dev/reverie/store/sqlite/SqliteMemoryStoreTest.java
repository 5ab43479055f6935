package dev.reverie.store.sqlite;

import dev.reverie.Memory;
import dev.reverie.MemoryFilter;
import dev.reverie.MemoryStoreException;
import dev.reverie.Observation;
import dev.reverie.ObservationStatus;
import dev.reverie.Role;
import dev.reverie.Scope;
import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.MemoryStoreContract;
import dev.reverie.spi.MemoryStores;
import dev.reverie.spi.SessionTurn;
import dev.reverie.spi.WriteBatch;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SqliteMemoryStoreTest extends MemoryStoreContract {

    @Override
    protected MemoryStore openStore(Path folder) {
        return MemoryStores.open("sqlite:" + folder);
    }

    @Test
    void should_keep_one_database_file_per_tenant() throws Exception {
        put(ALICE, memory(ALICE, "a", 0));
        put(ALICE_OTHER_TENANT, memory(ALICE_OTHER_TENANT, "b", 0));
        try (Stream<Path> files = Files.list(folder)) {
            assertThat(files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".db")))
                    .containsExactlyInAnyOrder("tenant-clinic-1.db", "tenant-clinic-2.db");
        }
    }

    @Test
    void should_map_tenants_that_differ_only_in_case_or_punctuation_to_different_files() {
        Set<String> names = new HashSet<>();
        for (String t : List.of("Acme", "acme", "a.b", "a:b", "a@b", "a-b", "a_b", "ACME")) {
            names.add(SqliteMemoryStore.fileName(t));
        }
        assertThat(names).hasSize(8);
        assertThat(SqliteMemoryStore.fileName("x".repeat(128))).hasSizeLessThan(255);
    }

    @Test
    void should_migrate_an_empty_file_and_refuse_a_newer_schema() throws Exception {
        store.close();
        Path file = folder.resolve("tenant-future.db");
        try (var c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)");
            st.execute("INSERT INTO schema_version VALUES (99)");
        }
        store = openStore(folder);
        Scope future = Scope.of("future", "a", "u");
        assertThatThrownBy(() -> store.memories(future, MemoryFilter.all()))
                .isInstanceOf(MemoryStoreException.class).hasMessageContaining("schema version 99");
        Path empty = folder.resolve("tenant-empty.db");
        Files.createFile(empty);
        assertThat(store.memories(Scope.of("empty", "a", "u"), MemoryFilter.all())).isEmpty();
    }

    @Test
    void should_let_a_second_store_on_the_same_folder_see_committed_data() {
        put(ALICE, memory(ALICE, "visible to the other process", 0));
        try (MemoryStore second = SqliteMemoryStore.open(folder)) {
            assertThat(second.memories(ALICE, MemoryFilter.all())).hasSize(1);
            second.write(WriteBatch.of(BOB).put(memory(BOB, "written by the second", 0)));
        }
        assertThat(store.memories(BOB, MemoryFilter.all())).hasSize(1);
    }

    @Test
    void should_reuse_prepared_read_statements_without_holding_a_read_snapshot() throws Exception {
        put(ALICE, memory(ALICE, "alpaca wool scarf", 0));
        assertThat(alpacas()).hasSize(1);
        try (MemoryStore second = SqliteMemoryStore.open(folder)) {
            second.write(WriteBatch.of(ALICE).put(memory(ALICE, "alpaca socks", 1)));
        }
        // the kept statement runs again and sees the other writer's commit
        assertThat(alpacas()).hasSize(2);
        // and no idle reader holds a snapshot: a truncating checkpoint is not blocked
        try (var c = DriverManager.getConnection("jdbc:sqlite:" + folder.resolve("tenant-clinic-1.db"));
             Statement st = c.createStatement();
             java.sql.ResultSet rs = st.executeQuery("PRAGMA wal_checkpoint(TRUNCATE)")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1)).as("checkpoint busy").isZero();
        }
        assertThat(alpacas()).hasSize(2);
    }

    @Test
    void maintenance_merges_every_full_text_index_until_nothing_is_left_to_merge() throws Exception {
        // one write per memory: every commit flushes its own small FTS5 segment
        for (int i = 0; i < 120; i++) {
            put(ALICE, memory(ALICE, "alpaca note " + i + " about wool and knitting", i));
        }
        assertThat(mergeWork("memories_fts")).as("segments to merge before maintenance").isTrue();

        // steps of 2 pages: far fewer than the index holds, so only a loop to the end merges it all
        ((SqliteMemoryStore) store).maintain(ALICE.tenantId(), 2, 10_000);

        for (String fts : List.of("memories_fts", "observations_fts", "archive_fts")) {
            assertThat(mergeWork(fts)).as("%s left to merge", fts).isFalse();
        }
        assertThat(store.searchMemories(ALICE, "alpaca", java.util.EnumSet.of(dev.reverie.MemoryStatus.ACTIVE),
                java.util.EnumSet.allOf(dev.reverie.MemoryKind.class), 200)).hasSize(120);
    }

    /** Whether one FTS5 merge step finds work (it changes fewer than two rows when there is none), rolled back. */
    private boolean mergeWork(String fts) throws Exception {
        try (var c = DriverManager.getConnection("jdbc:sqlite:" + folder.resolve("tenant-clinic-1.db"));
             Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            try {
                long before = changes(st);
                st.execute("INSERT INTO " + fts + " (" + fts + ", rank) VALUES ('merge', -2000)");
                return changes(st) - before >= 2;
            } finally {
                c.rollback();
            }
        }
    }

    private static long changes(Statement st) throws Exception {
        try (java.sql.ResultSet rs = st.executeQuery("SELECT total_changes()")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private List<?> alpacas() {
        return store.searchMemories(ALICE, "alpaca", java.util.EnumSet.of(dev.reverie.MemoryStatus.ACTIVE),
                java.util.EnumSet.allOf(dev.reverie.MemoryKind.class), 10);
    }

    @Test
    void an_observation_put_as_new_under_an_existing_id_fails_the_batch_and_leaves_the_store_as_it_was() {
        dev.reverie.Observation o = observation(ALICE, "plays the cello", 0);
        store.write(WriteBatch.of(ALICE).putNew(o));
        dev.reverie.Observation other = new dev.reverie.Observation(o.id(), o.scope(), o.kind(), "collects stamps",
                o.subject(), o.value(), o.cardinality(), o.polarity(), o.confidence(), o.observedAt(), o.sessionId(),
                o.provenance(), o.sourceTurnIds(), o.reinforcementCount(), o.status(), o.consolidatedAt(),
                o.embedding());
        // putNew promises the id is new; the store inserts without looking it up, so a broken promise is
        // a constraint error, not a second FTS entry for the row
        assertThatThrownBy(() -> store.write(WriteBatch.of(ALICE).putNew(other)))
                .isInstanceOf(MemoryStoreException.class).hasMessageContaining("UNIQUE");
        assertThat(store.observation(ALICE, o.id())).contains(o);
        java.util.EnumSet<dev.reverie.ObservationStatus> all = java.util.EnumSet.allOf(dev.reverie.ObservationStatus.class);
        assertThat(store.searchObservations(ALICE, "cello", all, 10)).extracting(x -> x.item().id())
                .containsExactly(o.id());
        assertThat(store.searchObservations(ALICE, "stamps", all, 10)).isEmpty();
    }

    @Test
    void scoped_words_are_what_the_letter_or_number_expression_finds_in_the_folded_text() {
        java.util.regex.Pattern word = java.util.regex.Pattern.compile("[\\p{L}\\p{N}]+");
        int[] alphabet = {'a', 'Z', '7', ' ', '_', '\'', '-', '.', 0xE9, 0xC7, 0x301, 0x200B, 0xB2, 0x2167, 0x0663,
                0x4E2D, 0x1D400, 0x1F600, 0xD800, 0xDC00, 0x02B0, 0x01C5, 0xA0, 0x2019, 0xFB01, 0xFF21, 0x0130};
        java.util.Random random = new java.util.Random(29);
        String token = SqliteMemoryStore.scopeToken(ALICE);
        for (int n = 0; n < 20_000; n++) {
            StringBuilder text = new StringBuilder();
            int length = random.nextInt(random.nextInt(8) == 0 ? 120 : 24);
            for (int i = 0; i < length; i++) {
                text.appendCodePoint(random.nextInt(6) == 0 ? 'x' : alphabet[random.nextInt(alphabet.length)]);
            }
            StringBuilder expected = new StringBuilder();
            java.util.regex.Matcher m = word.matcher(dev.reverie.internal.Terms.fold(text.toString()));
            while (m.find()) {
                expected.append(expected.isEmpty() ? "" : " ").append(token).append('_')
                        .append(m.group(), 0, Math.min(m.group().length(), 40));
            }
            assertThat(SqliteMemoryStore.scopedWords(token, text.toString())).as("words of %s", text)
                    .isEqualTo(expected.toString());
        }
    }

    @Test
    void should_index_each_users_words_under_their_own_prefix_and_still_stem() {
        put(ALICE, memory(ALICE, "She loves painting sunsets in São Paulo", 0));
        put(BOB, memory(BOB, "He loves painting too", 0));
        assertThat(SqliteMemoryStore.scopedWords(SqliteMemoryStore.scopeToken(ALICE), "Pão, doce!"))
                .isEqualTo(SqliteMemoryStore.scopeToken(ALICE) + "_pao " + SqliteMemoryStore.scopeToken(ALICE) + "_doce");
        var statuses = java.util.EnumSet.of(dev.reverie.MemoryStatus.ACTIVE);
        var kinds = java.util.EnumSet.allOf(dev.reverie.MemoryKind.class);
        assertThat(store.searchMemories(ALICE, "paint", statuses, kinds, 5)).hasSize(1);
        assertThat(store.searchMemories(ALICE, "sao paulo", statuses, kinds, 5)).hasSize(1);
        assertThat(store.searchMemories(BOB, "paintings", statuses, kinds, 5)).singleElement()
                .satisfies(h -> assertThat(h.item().text()).startsWith("He loves"));
    }

    @Test
    void should_write_a_batchs_full_text_entries_as_one_segment_per_index() {
        SqliteMemoryStore sqlite = (SqliteMemoryStore) store;
        sqlite.indexUpkeepEvery(Integer.MAX_VALUE); // no background merge: the segments are the writes'
        WriteBatch first = WriteBatch.of(ALICE);
        List<Memory> memories = new java.util.ArrayList<>();
        List<Observation> observations = new java.util.ArrayList<>();
        for (int i = 0; i < 6; i++) {
            memories.add(memory(ALICE, "note " + i + " about tulips", i));
            observations.add(observation(ALICE, "said " + i + " things about roses", i));
            first.put(memories.get(i)).put(observations.get(i));
            first.archive(new SessionTurn(ALICE, "s1", i, "t" + i, Role.USER, null, "we planted daisies " + i,
                    T0.plusSeconds(i)));
        }
        store.write(first);
        TenantDatabase db = sqlite.database(ALICE.tenantId());
        for (String index : IndexUpkeep.INDEXES) {
            // rows and entries interleaved, each entry was a segment of its own (the vector triggers)
            assertThat(IndexUpkeep.segments(db, index)).as(index).hasSize(1);
        }

        // a batch that adds, then re-indexes, deletes and purges older rows (rowids going back down):
        // its new entries are one more segment per index they go to; a deletion alone adds none (the
        // indexes are contentless: a deleted entry is a tombstone kept with the segment that holds it)
        Memory changed = memories.get(0).toBuilder().text("note 0 about lilacs").build();
        store.write(WriteBatch.of(ALICE).put(observation(ALICE, "said more about roses", 9))
                .put(memory(ALICE, "note 7 about tulips", 7)).put(changed).deleteMemory(memories.get(1).id())
                .deleteObservation(observations.get(2).id()).purgeArchiveBefore(T0.plusSeconds(3)));
        assertThat(IndexUpkeep.segments(db, "memories_fts")).hasSize(2);
        assertThat(IndexUpkeep.segments(db, "observations_fts")).hasSize(2);
        assertThat(IndexUpkeep.segments(db, "archive_fts")).as("turns purged, none added").hasSize(1);
        // every deleted row is gone from what the index counts (its document sizes; a search would not
        // show one anyway: it joins the rows)
        assertThat(ftsEntries(db, "memories_fts")).isEqualTo(6);
        assertThat(ftsEntries(db, "observations_fts")).isEqualTo(6);
        assertThat(ftsEntries(db, "archive_fts")).isEqualTo(3);

        // several batches in one transaction (a dream night's writeAll): one more segment per index
        store.writeAll(List.of(WriteBatch.of(ALICE).put(memory(ALICE, "note 8 about tulips", 8))
                        .put(observation(ALICE, "said less about roses", 10)),
                WriteBatch.of(ALICE).put(memory(ALICE, "note 9 about tulips", 9))
                        .put(observation(ALICE, "said nothing about roses", 11))));
        assertThat(IndexUpkeep.segments(db, "memories_fts")).hasSize(3);
        assertThat(IndexUpkeep.segments(db, "observations_fts")).hasSize(3);
        var active = java.util.EnumSet.allOf(dev.reverie.MemoryStatus.class);
        var kinds = java.util.EnumSet.allOf(dev.reverie.MemoryKind.class);
        assertThat(store.searchMemories(ALICE, "tulips", active, kinds, 10)).hasSize(7);
        assertThat(store.searchMemories(ALICE, "lilacs", active, kinds, 10)).singleElement()
                .satisfies(h -> assertThat(h.item().id()).isEqualTo(changed.id()));
        assertThat(store.searchObservations(ALICE, "roses", java.util.EnumSet.allOf(ObservationStatus.class), 10))
                .hasSize(8);
        assertThat(store.searchTurns(ALICE, "daisies", 10)).hasSize(3);
    }

    private static int ftsEntries(TenantDatabase db, String index) {
        return db.query("SELECT count(*) FROM " + index, rs -> rs.getInt(1)).get(0);
    }

    @Test
    void should_run_the_same_contract_in_memory() {
        try (MemoryStore mem = MemoryStores.open("sqlite::memory:")) {
            mem.write(WriteBatch.of(ALICE).put(memory(ALICE, "in memory fact", 0)));
            assertThat(mem.memories(ALICE, MemoryFilter.all())).hasSize(1);
            assertThat(mem.memories(BOB, MemoryFilter.all())).isEmpty();
            assertThat(mem.describe()).isEqualTo("sqlite::memory:");
        }
    }

    @Test
    void should_build_fts_queries_only_from_quoted_word_terms() {
        String match = SqliteMemoryStore.matchExpression(ALICE, "a\" OR sk : x NEAR(");
        String prefix = SqliteMemoryStore.scopeToken(ALICE) + "_";
        assertThat(match).isEqualTo("\"" + prefix + "sk\" OR \"" + prefix + "near\"");
        assertThat(SqliteMemoryStore.matchExpression(ALICE, "\"*():")).isNull();
    }
}
