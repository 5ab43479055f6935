package dev.reverie.store.postgres;

import dev.reverie.Memory;
import dev.reverie.MemoryFilter;
import dev.reverie.MemoryKind;
import dev.reverie.MemoryStatus;
import dev.reverie.MemoryStoreException;
import dev.reverie.Role;
import dev.reverie.Scope;
import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.MemoryStoreContract;
import dev.reverie.spi.MemoryStores;
import dev.reverie.spi.SessionTurn;
import dev.reverie.spi.WriteBatch;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The contract kit on a real PostgreSQL (embedded), plus what is particular to this store. */
class PostgresMemoryStoreTest extends MemoryStoreContract {

    @Override
    protected MemoryStore openStore(Path folder) {
        return MemoryStores.open(EmbeddedPostgresServer.url(folder));
    }

    private PostgresMemoryStore pg() {
        return (PostgresMemoryStore) store;
    }

    private static final EnumSet<MemoryStatus> ACTIVE = EnumSet.of(MemoryStatus.ACTIVE);
    private static final EnumSet<MemoryKind> KINDS = EnumSet.allOf(MemoryKind.class);

    @Test
    void should_never_return_a_style_observation_an_older_version_indexed() throws Exception {
        List<dev.reverie.Observation> written = paintingFactAndStyle();
        dev.reverie.Observation fact = written.get(0);
        dev.reverie.Observation style = written.get(1);
        // what an earlier version wrote: the STYLE observation's words in its tsvector too
        try (Connection c = EmbeddedPostgresServer.connect(folder); Statement st = c.createStatement()) {
            assertThat(st.executeUpdate("UPDATE \"reverie_t_clinic-1\".observations"
                    + " SET tsv = to_tsvector('simple', text) WHERE id = '" + style.id() + "'")).isEqualTo(1);
        }
        assertThat(store.searchObservations(ALICE, "painting", EnumSet.allOf(dev.reverie.ObservationStatus.class), 10))
                .extracting(h -> h.item().id()).containsExactly(fact.id());
    }

    @Test
    void should_rank_its_best_few_as_the_head_of_a_longer_ranking_in_small_and_large_scopes() {
        // a name in every row and a skewed vocabulary; ALICE's scope is searched through its own rows,
        // BOB's, above GIN_FROM_ROWS, through the full-text index
        bestFewAreTheHeadOfALongerRanking(ALICE, 240);
        bestFewAreTheHeadOfALongerRanking(BOB, PostgresMemoryStore.GIN_FROM_ROWS + 10);
    }

    @Test
    void should_search_a_small_scope_without_the_tenants_full_text_index() throws Exception {
        assertThat(PostgresMemoryStore.matchClause(PostgresMemoryStore.GIN_FROM_ROWS - 1))
                .isEqualTo("ts_match_vq(t.tsv, q.q)");
        assertThat(PostgresMemoryStore.matchClause(PostgresMemoryStore.GIN_FROM_ROWS)).isEqualTo("t.tsv @@ q.q");
        put(ALICE, memory(ALICE, "painting by the lake", 0));
        put(BOB, memory(BOB, "painting by the river", 0));
        try (Connection c = EmbeddedPostgresServer.connect(folder); Statement st = c.createStatement()) {
            // sequential scans priced out: the planner takes the full-text index wherever it can answer the match
            st.execute("SET enable_seqscan = off");
            assertThat(plan(st, PostgresMemoryStore.matchClause(PostgresMemoryStore.GIN_FROM_ROWS - 1)))
                    .doesNotContain("memories_fts");
            assertThat(plan(st, PostgresMemoryStore.matchClause(PostgresMemoryStore.GIN_FROM_ROWS)))
                    .contains("memories_fts");
        }
        assertThat(store.searchMemories(ALICE, "painting", ACTIVE, KINDS, 10)).hasSize(1);
    }

    @Test
    void should_give_the_planner_statistics_for_tables_filled_before_autovacuum_analyses_them() throws Exception {
        put(ALICE, memory(ALICE, "painting by the lake", 0));
        String schema = "\"reverie_t_clinic-1\".";
        try (Connection c = EmbeddedPostgresServer.connect(folder); Statement st = c.createStatement()) {
            for (String table : PlannerStatistics.TABLES) {
                st.execute("ALTER TABLE " + schema + table + " SET (autovacuum_enabled = false)");
            }
        }
        // archived turns in batches of 100, as a loader writes them: below the check's row count nothing is analysed
        int written = 0;
        while (written + 100 < PlannerStatistics.CHECK_EVERY_ROWS) {
            archiveTurns(ALICE, written, 100);
            written += 100;
        }
        assertThat(tablesWithStatistics()).isEmpty();
        archiveTurns(ALICE, written, 200);
        written += 200;
        // the archive was analysed; one memory is too few to sample, and the other tables are empty
        assertThat(tablesWithStatistics()).containsExactly("archive_turns");
        assertThat(pg().plannerStatisticsSettled(ALICE.tenantId())).isFalse();
        try (Connection c = EmbeddedPostgresServer.connect(folder); Statement st = c.createStatement()) {
            // with statistics, a lookup of ranked turns by key takes the primary key, not the scope's time index
            StringBuilder plan = new StringBuilder();
            try (var rs = st.executeQuery("EXPLAIN SELECT t.data FROM unnest('{s1,s1}'::text[], '{3,7}'::bigint[])"
                    + " AS k(sid, sq) CROSS JOIN LATERAL (SELECT a.data FROM " + schema + "archive_turns a"
                    + " WHERE a.agent = 'receptionist' AND a.usr = 'alice' AND a.session_id = k.sid AND a.seq = k.sq) t")) {
                while (rs.next()) {
                    plan.append(rs.getString(1)).append('\n');
                }
            }
            assertThat(plan.toString()).contains("archive_turns_pkey").doesNotContain("archive_by_time");
            // statistics lost (a restored dump carries none): the next store to open the tenant gathers them again
            st.execute("DELETE FROM pg_statistic WHERE starelid = '" + schema + "archive_turns'::regclass");
        }
        assertThat(tablesWithStatistics()).isEmpty();
        reopen();
        assertThat(store.memory(ALICE, "m1")).isPresent();
        assertThat(tablesWithStatistics()).containsExactly("archive_turns");
        // maintain (the dream's hint after a night's writes) checks too: the tables that now have enough rows
        WriteBatch more = WriteBatch.of(ALICE);
        for (int i = 0; i < PlannerStatistics.ANALYSE_FROM_ROWS; i++) {
            more.append(new SessionTurn(ALICE, "s2", i, "s2:" + i, Role.USER, "Alice", "turn " + i, T0));
            more.put(memory(ALICE, "memory number " + i, i));
        }
        store.write(more);
        assertThat(tablesWithStatistics()).containsExactly("archive_turns");
        store.maintain(ALICE.tenantId());
        assertThat(tablesWithStatistics()).containsExactly("archive_turns", "memories", "session_turns");
        assertThat(pg().plannerStatisticsSettled(ALICE.tenantId())).isFalse(); // observations: still empty
        WriteBatch observations = WriteBatch.of(ALICE);
        for (int i = 0; i < PlannerStatistics.ANALYSE_FROM_ROWS; i++) {
            observations.put(observation(ALICE, "observation number " + i, i));
        }
        store.write(observations);
        store.maintain(ALICE.tenantId());
        assertThat(tablesWithStatistics()).containsExactly("archive_turns", "memories", "observations", "session_turns");
        assertThat(pg().plannerStatisticsSettled(ALICE.tenantId())).isTrue();
        // settled: from here autovacuum keeps them, and writes no longer check (statistics deleted stay deleted)
        try (Connection c = EmbeddedPostgresServer.connect(folder); Statement st = c.createStatement()) {
            st.execute("DELETE FROM pg_statistic WHERE starelid = '" + schema + "memories'::regclass");
        }
        archiveTurns(ALICE, written, (int) PlannerStatistics.CHECK_EVERY_ROWS + 100);
        assertThat(tablesWithStatistics()).containsExactly("archive_turns", "observations", "session_turns");
    }

    private void archiveTurns(Scope scope, int from, int count) {
        WriteBatch b = WriteBatch.of(scope);
        for (int i = from; i < from + count; i++) {
            b.archive(new SessionTurn(scope, "s1", i, "s1:" + i, Role.USER, "Alice", "turn number " + i
                    + " about painting and camping", T0.plusSeconds(i)));
        }
        store.write(b);
    }

    /** The tenant's searched tables that have planner statistics, in name order. */
    private List<String> tablesWithStatistics() throws java.sql.SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = EmbeddedPostgresServer.connect(folder); Statement st = c.createStatement();
             var rs = st.executeQuery("SELECT DISTINCT tablename FROM pg_stats WHERE schemaname = 'reverie_t_clinic-1'"
                     + " ORDER BY tablename")) {
            while (rs.next()) {
                if (PlannerStatistics.TABLES.contains(rs.getString(1))) {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
    }

    private static String plan(Statement st, String matchClause) throws java.sql.SQLException {
        StringBuilder plan = new StringBuilder();
        try (var rs = st.executeQuery("EXPLAIN SELECT t.rid FROM \"reverie_t_clinic-1\".memories t"
                + " CROSS JOIN (SELECT to_tsquery('simple', 'painting') AS q) q WHERE " + matchClause)) {
            while (rs.next()) {
                plan.append(rs.getString(1)).append('\n');
            }
        }
        return plan.toString();
    }

    private void bestFewAreTheHeadOfALongerRanking(Scope scope, int rows) {
        String[] vocabulary = {"pottery", "camping", "painting", "swimming", "beach", "mountains", "forest",
                "dinosaurs", "nature", "books", "running", "violin", "clarinet", "adoption", "counseling",
                "support", "group", "parade", "school", "speech", "kids", "family", "dog", "cat", "garden",
                "museum", "library", "concert", "festival", "sunrise", "lake", "hike", "trip", "class"};
        java.util.Random r = new java.util.Random(42);
        WriteBatch b = WriteBatch.of(scope);
        for (int i = 0; i < rows; i++) {
            StringBuilder text = new StringBuilder("Melanie");
            int n = 2 + r.nextInt(9);
            for (int w = 0; w < n; w++) {
                double x = r.nextDouble();
                text.append(' ').append(vocabulary[(int) (vocabulary.length * x * x)]);
            }
            String t = text.toString();
            b.put(memory(scope, t, i)).put(observation(scope, t, i))
                    .archive(new dev.reverie.spi.SessionTurn(scope, "s" + (i % 7), i, "s" + (i % 7) + ":" + i,
                            dev.reverie.Role.USER, "Melanie", t, java.time.Instant.parse("2026-01-01T00:00:00Z")));
        }
        store.write(b);
        EnumSet<dev.reverie.ObservationStatus> pending = EnumSet.of(dev.reverie.ObservationStatus.PENDING);
        for (int q = 0; q < 10; q++) {
            StringBuilder question = new StringBuilder("What about Melanie");
            for (int w = 1 + r.nextInt(4); w > 0; w--) {
                question.append(' ').append(vocabulary[r.nextInt(vocabulary.length)]);
            }
            String text = question.toString();
            // every row holds "melanie": the best 60 of all of them, against which the best few are checked
            List<String> allMemories = store.searchMemories(scope, text, ACTIVE, KINDS, 60).stream()
                    .map(h -> h.item().id() + "@" + h.score()).toList();
            List<String> allObservations = store.searchObservations(scope, text, pending, 60).stream()
                    .map(h -> h.item().id() + "@" + h.score()).toList();
            List<String> allTurns = store.searchTurns(scope, text, 60).stream()
                    .map(h -> h.item().turnId() + "@" + h.score()).toList();
            assertThat(allMemories).as(text).hasSize(60);
            assertThat(allObservations).as(text).hasSize(60);
            assertThat(allTurns).as(text).hasSize(60);
            for (int limit : new int[] {1, 5, 20}) {
                assertThat(store.searchMemories(scope, text, ACTIVE, KINDS, limit)).as(text)
                        .extracting(h -> h.item().id() + "@" + h.score()).containsExactlyElementsOf(
                                allMemories.subList(0, limit));
                assertThat(store.searchObservations(scope, text, pending, limit)).as(text)
                        .extracting(h -> h.item().id() + "@" + h.score()).containsExactlyElementsOf(
                                allObservations.subList(0, limit));
                assertThat(store.searchTurns(scope, text, limit)).as(text)
                        .extracting(h -> h.item().turnId() + "@" + h.score()).containsExactlyElementsOf(
                                allTurns.subList(0, limit));
            }
        }
    }

    @Test
    void should_keep_the_pending_lists_of_its_full_text_indexes_short_and_merge_the_ones_an_older_version_left() throws Exception {
        List<String> indexes = List.of("observations_fts", "memories_fts", "archive_fts");
        put(ALICE, memory(ALICE, "painting by the lake", 0));
        try (Connection c = EmbeddedPostgresServer.connect(folder); Statement st = c.createStatement()) {
            for (String index : indexes) {
                assertThat(reloptions(st, index)).as(index).contains("gin_pending_list_limit=64");
                // what schema version 1 was: new entries queued in a pending list of up to 4 MB
                st.execute("ALTER INDEX \"reverie_t_clinic-1\"." + index + " RESET (gin_pending_list_limit)");
            }
            st.execute("DELETE FROM \"reverie_t_clinic-1\".schema_version WHERE version = 2");
        }
        put(ALICE, memory(ALICE, "painting by the river", 1), observation(ALICE, "painting by the sea", 2));
        store.write(WriteBatch.of(ALICE).archive(new SessionTurn(ALICE, "s1", 0, "s1:0", Role.USER, "Alice",
                "painting by the bay", java.time.Instant.parse("2026-01-01T00:00:00Z"))));
        try (Connection c = EmbeddedPostgresServer.connect(folder); Statement st = c.createStatement()) {
            st.execute("CREATE EXTENSION IF NOT EXISTS pgstattuple");
            for (String index : indexes) {
                assertThat(pendingPages(st, index)).as(index + ": entries queued before the migration").isPositive();
            }
        }
        reopen();
        assertThat(store.searchMemories(ALICE, "painting", ACTIVE, KINDS, 10)).hasSize(2);
        try (Connection c = EmbeddedPostgresServer.connect(folder); Statement st = c.createStatement()) {
            for (String index : indexes) {
                assertThat(reloptions(st, index)).as(index).contains("gin_pending_list_limit=64");
                assertThat(pendingPages(st, index)).as(index + ": pages still pending").isZero();
            }
        }
        assertThat(store.searchObservations(ALICE, "sea", EnumSet.of(dev.reverie.ObservationStatus.PENDING), 10))
                .hasSize(1);
        assertThat(store.searchTurns(ALICE, "bay", 10)).hasSize(1);
    }

    private static long pendingPages(Statement st, String index) throws java.sql.SQLException {
        try (var rs = st.executeQuery("SELECT pending_pages FROM pgstatginindex('\"reverie_t_clinic-1\"." + index
                + "'::regclass)")) {
            assertThat(rs.next()).isTrue();
            return rs.getLong(1);
        }
    }

    private static String reloptions(Statement st, String index) throws java.sql.SQLException {
        try (var rs = st.executeQuery("SELECT array_to_string(reloptions, ',') FROM pg_class"
                + " WHERE oid = '\"reverie_t_clinic-1\"." + index + "'::regclass")) {
            assertThat(rs.next()).isTrue();
            return String.valueOf(rs.getString(1));
        }
    }

    @Test
    void should_keep_one_schema_per_tenant() throws Exception {
        put(ALICE, memory(ALICE, "a", 0));
        put(ALICE_OTHER_TENANT, memory(ALICE_OTHER_TENANT, "b", 0));
        List<String> schemas = new ArrayList<>();
        try (Connection c = EmbeddedPostgresServer.connect(folder); Statement st = c.createStatement();
             var rs = st.executeQuery("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'reverie%' ORDER BY 1")) {
            while (rs.next()) {
                schemas.add(rs.getString(1));
            }
        }
        assertThat(schemas).containsExactly("reverie_t_clinic-1", "reverie_t_clinic-2");
        assertThat(pg().vectorMode()).isEqualTo(PostgresMemoryStore.VectorMode.EXACT_SCAN);
    }

    @Test
    void should_map_tenants_that_differ_only_in_case_or_punctuation_to_different_schemas() {
        Set<String> names = new HashSet<>();
        for (String t : List.of("Acme", "acme", "a.b", "a:b", "a@b", "a-b", "a_b", "ACME", "x".repeat(53),
                "x".repeat(54), "X".repeat(128))) {
            String name = SchemaNames.of(t);
            assertThat(name.length()).as(t).isLessThanOrEqualTo(SchemaNames.MAX_IDENTIFIER);
            names.add(name);
        }
        assertThat(names).hasSize(11);
        assertThat(SchemaNames.of("x".repeat(53))).isEqualTo("reverie_t_" + "x".repeat(53));
        assertThat(SchemaNames.of("x".repeat(54))).startsWith("reverie_h_");
        assertThat(SchemaNames.quoted("reverie_t_a~2eb")).isEqualTo("\"reverie_t_a~2eb\"");
    }

    @Test
    void should_refuse_a_schema_written_by_a_newer_version_and_leave_it_untouched() throws Exception {
        try (Connection c = EmbeddedPostgresServer.connect(folder); Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA \"reverie_t_future\"");
            st.execute("CREATE TABLE \"reverie_t_future\".schema_version (version integer NOT NULL)");
            st.execute("INSERT INTO \"reverie_t_future\".schema_version VALUES (99)");
        }
        Scope future = Scope.of("future", "a", "u");
        assertThatThrownBy(() -> store.memories(future, MemoryFilter.all()))
                .isInstanceOf(MemoryStoreException.class).hasMessageContaining("schema version 99");
        assertThat(store.endUsers("never-used", "a")).isEmpty();
    }

    @Test
    void should_build_tsqueries_only_from_quoted_word_terms() {
        assertThat(FullText.queryText("paint' | sun:* & !moon <-> (x)")).isEqualTo("'paint' | 'sun' | 'moon'");
        assertThat(FullText.queryText("\"*():&|!")).isNull();
        assertThat(FullText.queryText("Caf\u00e9 \u00d3LINDA")).isEqualTo("'cafe' | 'olinda'");
    }

    @Test
    void should_stem_english_and_fold_portuguese_accents() {
        put(ALICE, memory(ALICE, "She loves painting sunsets in S\u00e3o Paulo", 0));
        put(BOB, memory(BOB, "He loves painting too", 0));
        assertThat(store.searchMemories(ALICE, "paint", ACTIVE, KINDS, 5)).hasSize(1);
        assertThat(store.searchMemories(ALICE, "sao paulo", ACTIVE, KINDS, 5)).hasSize(1);
        assertThat(store.searchMemories(ALICE, "S\u00c3O", ACTIVE, KINDS, 5)).hasSize(1);
        assertThat(store.searchMemories(BOB, "paintings", ACTIVE, KINDS, 5)).singleElement()
                .satisfies(h -> assertThat(h.item().text()).startsWith("He loves"));
        // a query of stop words only still finds them (the 'simple' half of the index keeps every word)
        put(ALICE, memory(ALICE, "it is what it is", 1));
        assertThat(store.searchMemories(ALICE, "what is it", ACTIVE, KINDS, 5)).extracting(h -> h.item().text())
                .containsExactly("it is what it is");
    }

    @Test
    void should_let_a_second_store_on_the_same_database_see_committed_data() {
        put(ALICE, memory(ALICE, "visible to the other instance", 0));
        try (MemoryStore second = openStore(folder)) {
            assertThat(second.memories(ALICE, MemoryFilter.all())).hasSize(1);
            second.write(WriteBatch.of(BOB).put(memory(BOB, "written by the second", 0)));
        }
        assertThat(store.memories(BOB, MemoryFilter.all())).hasSize(1);
    }

    @Test
    void should_fail_the_whole_batch_of_an_instance_that_appends_a_seq_another_took() {
        SessionTurn first = new SessionTurn(ALICE, "s1", 0, "a0", Role.USER, null, "from instance one", T0);
        SessionTurn clash = new SessionTurn(ALICE, "s1", 0, "b0", Role.USER, null, "from instance two", T0);
        Memory sideEffect = memory(ALICE, "written with the clashing turn", 0);
        try (MemoryStore second = openStore(folder)) {
            store.write(WriteBatch.of(ALICE).append(first));
            assertThatThrownBy(() -> second.write(WriteBatch.of(ALICE).put(sideEffect).append(clash)))
                    .isInstanceOf(MemoryStoreException.class).hasMessageContaining("duplicate key");
        }
        assertThat(store.sessionTurns(ALICE, "s1", 0, 10)).containsExactly(first);
        assertThat(store.memory(ALICE, sideEffect.id())).isEmpty();
    }

    @Test
    void should_keep_one_row_when_two_instances_upsert_the_same_memory_at_once() throws Exception {
        Memory m = memory(ALICE, "written twice at once", 0);
        List<Throwable> errors = java.util.Collections.synchronizedList(new ArrayList<>());
        try (MemoryStore second = openStore(folder)) {
            CountDownLatch go = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (MemoryStore s : List.of(store, second, store, second)) {
                threads.add(new Thread(() -> {
                    try {
                        go.await();
                        for (int i = 0; i < 20; i++) {
                            s.write(WriteBatch.of(ALICE).put(m.toBuilder().importance(i).build()));
                        }
                    } catch (Throwable e) {
                        errors.add(e);
                    }
                }));
            }
            threads.forEach(Thread::start);
            go.countDown();
            for (Thread t : threads) {
                t.join();
            }
        }
        assertThat(errors).isEmpty();
        assertThat(store.memories(ALICE, MemoryFilter.all())).hasSize(1);
        assertThat(store.searchMemories(ALICE, "written twice", ACTIVE, KINDS, 10)).hasSize(1);
    }

    @Test
    void should_give_a_lease_to_one_instance_at_a_time() {
        try (MemoryStore second = openStore(folder)) {
            assertThat(store.tryLease(ALICE, "dream", "instance-1", T0, T0.plusSeconds(60))).isTrue();
            assertThat(second.tryLease(ALICE, "dream", "instance-2", T0.plusSeconds(1), T0.plusSeconds(61))).isFalse();
            assertThat(second.tryLease(BOB, "dream", "instance-2", T0, T0.plusSeconds(60))).isTrue();
            store.releaseLease(ALICE, "dream", "instance-1");
            assertThat(second.tryLease(ALICE, "dream", "instance-2", T0.plusSeconds(2), T0.plusSeconds(62))).isTrue();
            assertThat(store.tryLease(ALICE, "dream", "instance-1", T0.plusSeconds(62), T0.plusSeconds(90)))
                    .as("expired").isTrue();
        }
    }

    @Test
    void should_number_concurrent_appends_of_two_instances_to_one_session_without_gaps() throws Exception {
        List<Throwable> errors = java.util.Collections.synchronizedList(new ArrayList<>());
        try (MemoryStore second = openStore(folder)) {
            CountDownLatch go = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            int n = 0;
            for (MemoryStore s : List.of(store, second, store, second)) {
                int writer = n++;
                threads.add(new Thread(() -> {
                    try {
                        go.await();
                        for (int i = 0; i < 15; i++) {
                            SessionTurn t = new SessionTurn(ALICE, "shared", 0, "w" + writer + "-" + i, Role.USER,
                                    null, "turn", T0);
                            s.write(WriteBatch.of(ALICE).appendAtSessionEnd(t).archiveAtSessionEnd(t));
                        }
                    } catch (Throwable e) {
                        errors.add(e);
                    }
                }));
            }
            threads.forEach(Thread::start);
            go.countDown();
            for (Thread t : threads) {
                t.join();
            }
        }
        assertThat(errors).isEmpty();
        assertThat(store.sessionTurns(ALICE, "shared", 0, 100)).extracting(SessionTurn::seq)
                .containsExactlyElementsOf(java.util.stream.LongStream.range(0, 60).boxed().toList());
        assertThat(store.archivedTurns(ALICE, "shared")).hasSize(60);
    }

    @Test
    void should_work_on_the_hosts_data_source_and_leave_it_open() throws Exception {
        javax.sql.DataSource host = EmbeddedPostgresServer.server()
                .getDatabase("postgres", EmbeddedPostgresServer.database(folder));
        try (PostgresMemoryStore onHostPool = PostgresMemoryStore.open(host)) {
            onHostPool.write(WriteBatch.of(ALICE).put(memory(ALICE, "through the host's pool", 0)));
            assertThat(onHostPool.describe()).startsWith("postgresql:");
        }
        try (Connection c = host.getConnection()) {
            assertThat(c.isValid(1)).isTrue();
        }
        assertThat(store.searchMemories(ALICE, "host pool", ACTIVE, KINDS, 5)).hasSize(1);
    }

    @Test
    void should_give_back_the_hosts_connections_in_the_auto_commit_mode_it_found() throws Exception {
        javax.sql.DataSource plain = EmbeddedPostgresServer.server()
                .getDatabase("postgres", EmbeddedPostgresServer.database(folder));
        List<Boolean> autoCommitAtClose = java.util.Collections.synchronizedList(new ArrayList<>());
        // the host's connections start outside auto-commit, as some pools hand them out
        javax.sql.DataSource host = (javax.sql.DataSource) java.lang.reflect.Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {javax.sql.DataSource.class}, (proxy, method, args) -> {
                    Object result = method.invoke(plain, args);
                    if (!method.getName().equals("getConnection")) {
                        return result;
                    }
                    Connection real = (Connection) result;
                    real.setAutoCommit(false);
                    return java.lang.reflect.Proxy.newProxyInstance(getClass().getClassLoader(),
                            new Class<?>[] {Connection.class}, (p, m, a) -> {
                                if (m.getName().equals("close")) {
                                    autoCommitAtClose.add(real.getAutoCommit());
                                    if (!real.getAutoCommit()) {
                                        real.rollback();
                                    }
                                }
                                try {
                                    return m.invoke(real, a);
                                } catch (java.lang.reflect.InvocationTargetException e) {
                                    throw e.getCause();
                                }
                            });
                });
        try (PostgresMemoryStore onHost = PostgresMemoryStore.open(host)) {
            WriteBatch b = WriteBatch.of(ALICE);
            for (int i = 0; i < PlannerStatistics.CHECK_EVERY_ROWS; i++) {
                b.put(memory(ALICE, "memory number " + i, i)); // enough for a planner check and an analysis
            }
            onHost.write(b);
            assertThat(onHost.searchMemories(ALICE, "memory", ACTIVE, KINDS, 5)).hasSize(5);
            onHost.maintain(ALICE.tenantId());
            onHost.erase(ALICE);
            assertThat(onHost.searchMemories(ALICE, "memory", ACTIVE, KINDS, 5)).isEmpty();
        }
        assertThat(tablesWithStatistics()).contains("memories");
        assertThat(autoCommitAtClose).hasSizeGreaterThan(5).containsOnly(false);
    }

    @Test
    void should_run_as_a_user_without_create_on_the_database_in_schemas_an_administrator_made() throws Exception {
        String role = "reverie_app_" + Math.abs(folder.hashCode());
        try (Connection c = EmbeddedPostgresServer.connect(folder); Statement st = c.createStatement()) {
            st.execute("CREATE ROLE " + role + " LOGIN");
            st.execute("CREATE SCHEMA \"" + SchemaNames.of("clinic-1") + "\" AUTHORIZATION " + role);
        }
        String url = EmbeddedPostgresServer.url(folder).replace("user=postgres", "user=" + role);
        try (MemoryStore app = MemoryStores.open(url)) {
            app.write(WriteBatch.of(ALICE).put(memory(ALICE, "kept by the least-privilege user", 0)));
            assertThat(app.searchMemories(ALICE, "privilege", ACTIVE, KINDS, 5)).hasSize(1);
            app.erase(BOB);
            assertThatThrownBy(() -> app.memories(ALICE_OTHER_TENANT, MemoryFilter.all()))
                    .isInstanceOf(MemoryStoreException.class).hasMessageContaining("permission denied");
        }
    }

    @Test
    void should_refuse_a_uri_that_is_not_a_jdbc_url_tail_and_hide_passwords() {
        assertThatThrownBy(() -> MemoryStores.open("postgresql:localhost/db"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("postgresql://host:5432/db");
        assertThat(PostgresMemoryStore.redact("postgresql://h/db?user=u&password=s3cret&ssl=true"))
                .isEqualTo("postgresql://h/db?user=u&password=***&ssl=true");
        assertThat(MemoryStores.schemes()).contains("postgresql");
        // a user:password@ part is hidden too, whatever the password holds, and a mistyped scheme does not echo it
        assertThat(PostgresMemoryStore.redact("postgresql://app:p@ss/w0rd@db.internal:5432/app"))
                .isEqualTo("postgresql://app:***@db.internal:5432/app");
        assertThatThrownBy(() -> MemoryStores.open("postgres://app:SchemeTypoPw333@127.0.0.1:1/db"))
                .isInstanceOf(dev.reverie.ConfigurationException.class)
                .hasMessageContaining("postgres://app:***@127.0.0.1:1/db").hasMessageNotContaining("SchemeTypoPw333");
    }

    @Test
    void should_open_a_location_with_its_user_and_password_before_the_host() {
        String url = EmbeddedPostgresServer.url(folder);
        String withUserinfo = url.replace("postgresql://", "postgresql://postgres:any%40pass@")
                .replaceAll("[?&]user=postgres", "");
        try (MemoryStore store = MemoryStores.open(withUserinfo)) {
            store.write(WriteBatch.of(ALICE).put(memory(ALICE, "kept through a URI with user info", 0)));
            assertThat(store.searchMemories(ALICE, "user info", ACTIVE, KINDS, 5)).hasSize(1);
            assertThat(store.describe()).doesNotContain("any%40pass").contains("postgres:***@");
        }
    }
}
