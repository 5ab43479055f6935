package dev.reverie.store.lucene;

import dev.reverie.Embedding;
import dev.reverie.Memory;
import dev.reverie.MemoryEvent;
import dev.reverie.MemoryEventType;
import dev.reverie.MemoryFilter;
import dev.reverie.MemoryKind;
import dev.reverie.MemoryStatus;
import dev.reverie.MemoryStoreException;
import dev.reverie.ObservationStatus;
import dev.reverie.Role;
import dev.reverie.Scope;
import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.MemoryStoreContract;
import dev.reverie.spi.MemoryStores;
import dev.reverie.spi.Scored;
import dev.reverie.spi.SessionTurn;
import dev.reverie.spi.WriteBatch;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.MultiTerms;
import org.apache.lucene.index.Terms;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LuceneMemoryStoreTest extends MemoryStoreContract {

    private static final Set<MemoryStatus> ANY_STATUS = EnumSet.allOf(MemoryStatus.class);
    private static final Set<MemoryKind> ANY_KIND = EnumSet.allOf(MemoryKind.class);

    @Override
    protected MemoryStore openStore(Path folder) {
        return MemoryStores.open("lucene:" + folder);
    }

    private List<String> searchIds(MemoryStore s, Scope scope, String text) {
        return s.searchMemories(scope, text, ANY_STATUS, ANY_KIND, 10).stream().map(h -> h.item().id()).toList();
    }

    // ------------------------------------------------------------ interrupted callers

    @Test
    void a_write_by_an_interrupted_thread_is_done_keeps_the_interrupt_and_leaves_the_index_usable() {
        // NIO channels close when an interrupted thread uses them, which IndexWriter treats as fatal
        Thread.currentThread().interrupt();
        try {
            put(ALICE, memory(ALICE, "written while interrupted", 0));
            assertThat(Thread.currentThread().isInterrupted()).as("the caller's interrupt is given back").isTrue();
            ((LuceneMemoryStore) store).commit();
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
        put(ALICE, memory(ALICE, "written afterwards", 1));
        assertThat(searchIds(store, ALICE, "written")).hasSize(2);
        try (MemoryStore group = MemoryStores.open("lucene:" + folder.resolve("g") + "?commit=every")) {
            Thread.currentThread().interrupt();
            try {
                group.write(dev.reverie.spi.WriteBatch.of(ALICE).put(memory(ALICE, "logged while interrupted", 0)));
            } finally {
                Thread.interrupted();
            }
            group.write(dev.reverie.spi.WriteBatch.of(ALICE).put(memory(ALICE, "logged afterwards", 1)));
            assertThat(searchIds(group, ALICE, "logged")).hasSize(2);
        }
    }

    // ------------------------------------------------------------ discovery and layout

    @Test
    void should_be_found_by_scheme_and_describe_itself() {
        assertThat(MemoryStores.schemes()).contains("lucene", "sqlite");
        assertThat(store).isInstanceOf(LuceneMemoryStore.class);
        assertThat(store.describe()).isEqualTo("lucene:" + folder);
        try (MemoryStore group = MemoryStores.open("lucene:" + folder.resolve("g") + "?commit=group&intervalMs=20")) {
            assertThat(group.describe()).endsWith("?commit=group&intervalMs=20");
        }
    }

    @Test
    void should_reject_unknown_or_malformed_options() {
        assertThatThrownBy(() -> MemoryStores.open("lucene:" + folder + "?sync=full"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown lucene option 'sync'");
        assertThatThrownBy(() -> MemoryStores.open("lucene:" + folder + "?commit=sometimes"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("durable, every or group");
        assertThatThrownBy(() -> MemoryStores.open("lucene:" + folder + "?commit=group&intervalMs=soon"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("intervalMs");
        assertThatThrownBy(() -> MemoryStores.open("lucene:" + folder + "?intervalMs=10"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("commit=group");
        assertThatThrownBy(() -> MemoryStores.open("lucene::memory:?commit=group"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("takes no options");
        assertThatThrownBy(() -> LuceneMemoryStore.builder(folder).groupCommit(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 1 ms");
    }

    @Test
    void should_keep_one_index_folder_per_tenant() throws IOException {
        put(ALICE, memory(ALICE, "a", 0));
        put(ALICE_OTHER_TENANT, memory(ALICE_OTHER_TENANT, "b", 0));
        try (Stream<Path> files = Files.list(folder)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrder("tenant-clinic-1", "tenant-clinic-2");
        }
        assertThat(((LuceneMemoryStore) store).tenantFolder("clinic-1")).isEqualTo(folder.resolve("tenant-clinic-1"));
    }

    @Test
    void should_map_tenants_that_differ_only_in_case_or_punctuation_to_different_folders() {
        Set<String> names = new HashSet<>();
        for (String t : List.of("Acme", "acme", "a.b", "a:b", "a@b", "a-b", "a_b", "ACME")) {
            names.add(LuceneMemoryStore.folderName(t));
        }
        assertThat(names).hasSize(8);
        assertThat(LuceneMemoryStore.folderName("x".repeat(128))).hasSizeLessThan(255);
    }

    @Test
    void should_not_create_an_index_to_answer_a_read() throws IOException {
        Scope nobody = Scope.of("empty-tenant", "agent", "user");
        assertThat(store.endUsers("empty-tenant", "agent")).isEmpty();
        assertThat(store.memories(nobody, MemoryFilter.all())).isEmpty();
        assertThat(store.searchMemories(nobody, "anything", ANY_STATUS, ANY_KIND, 5)).isEmpty();
        assertThat(store.searchMemoriesByVector(nobody, new float[] {1, 2}, ANY_STATUS, 5)).isEmpty();
        assertThat(store.sessions(nobody)).isEmpty();
        store.erase(nobody);
        try (Stream<Path> files = Files.list(folder)) {
            assertThat(files).isEmpty();
        }
    }

    // ------------------------------------------------------------ lifecycle

    @Test
    void should_reopen_after_close_with_every_record_type() {
        Memory m = memory(ALICE, "Allergic to dipyrone", 0);
        SessionTurn turn = new SessionTurn(ALICE, "s1", 0, "t1", Role.USER, null, "hello", T0);
        MemoryEvent event = new MemoryEvent("e1", ALICE, m.id(), MemoryEventType.CREATED, T0, null, "x", "test");
        store.write(WriteBatch.of(ALICE).put(m).append(turn).archive(turn).append(event));
        for (int round = 0; round < 3; round++) {
            reopen();
            assertThat(store.memory(ALICE, m.id())).contains(m);
            assertThat(searchIds(store, ALICE, "dipyrone")).containsExactly(m.id());
            assertThat(store.sessionTurns(ALICE, "s1", 0, 10)).containsExactly(turn);
            assertThat(store.archivedTurns(ALICE, "s1")).containsExactly(turn);
            assertThat(store.endUsers("clinic-1", "receptionist")).containsExactly(ALICE);
            // history order continues after reopen
            MemoryEvent next = new MemoryEvent("e" + (round + 2), ALICE, m.id(), MemoryEventType.REINFORCED, T0,
                    null, null, "round " + round);
            store.write(WriteBatch.of(ALICE).append(next));
            assertThat(store.history(ALICE, m.id())).hasSize(round + 2).last().isEqualTo(next);
        }
    }

    @Test
    void should_refuse_a_second_store_on_a_locked_tenant_folder_with_a_clear_message() {
        put(ALICE, memory(ALICE, "held by the first store", 0));
        try (MemoryStore second = LuceneMemoryStore.open(folder)) {
            assertThatThrownBy(() -> second.write(WriteBatch.of(ALICE).put(memory(ALICE, "second", 0))))
                    .isInstanceOf(MemoryStoreException.class)
                    .hasMessageContaining(folder.resolve("tenant-clinic-1").toString())
                    .hasMessageContaining("locked by another IndexWriter");
            // other tenants are free
            second.write(WriteBatch.of(ALICE_OTHER_TENANT).put(memory(ALICE_OTHER_TENANT, "fine", 0)));
        }
        assertThat(store.memories(ALICE, MemoryFilter.all())).hasSize(1);
    }

    @Test
    void should_work_in_memory() {
        try (MemoryStore mem = MemoryStores.open("lucene::memory:")) {
            Memory m = memory(ALICE, "in memory fact about tea", 0);
            mem.write(WriteBatch.of(ALICE).put(m));
            assertThat(mem.memories(ALICE, MemoryFilter.all())).containsExactly(m);
            assertThat(mem.searchMemories(ALICE, "tea", ANY_STATUS, ANY_KIND, 5)).hasSize(1);
            assertThat(mem.memories(BOB, MemoryFilter.all())).isEmpty();
            assertThat(mem.endUsers("clinic-1", "receptionist")).containsExactly(ALICE);
            mem.erase(ALICE);
            assertThat(mem.memories(ALICE, MemoryFilter.all())).isEmpty();
            assertThat(mem.describe()).isEqualTo("lucene::memory:");
        }
    }

    // ------------------------------------------------------------ group commit

    @Test
    void should_make_group_commit_writes_visible_at_once_and_durable_on_commit() throws IOException {
        store.close();
        Path tenant = folder.resolve("tenant-clinic-1");
        // an interval far longer than the test: only explicit commits and close() commit here
        try (LuceneMemoryStore group = LuceneMemoryStore.builder(folder).groupCommit(Duration.ofMinutes(10)).build()) {
            Memory first = memory(ALICE, "written in group mode", 0);
            group.write(WriteBatch.of(ALICE).put(first));
            assertThat(group.memory(ALICE, first.id())).contains(first);
            assertThat(searchIds(group, ALICE, "group")).containsExactly(first.id());
            assertThat(committedDocs(tenant)).isZero();

            group.commit();
            assertThat(committedDocs(tenant)).isEqualTo(1);

            Memory second = memory(ALICE, "pending until the tick", 1);
            group.write(WriteBatch.of(ALICE).put(second));
            assertThat(committedDocs(tenant)).isEqualTo(1);
            group.commitTick(); // what the background task runs every interval
            assertThat(committedDocs(tenant)).isEqualTo(2);

            group.write(WriteBatch.of(ALICE).put(memory(ALICE, "pending until close", 2)));
        }
        assertThat(committedDocs(tenant)).isEqualTo(3);
        store = openStore(folder);
        assertThat(store.memories(ALICE, MemoryFilter.all())).hasSize(3);
    }

    @Test
    void should_stay_consistent_with_background_commits_racing_concurrent_writers_and_readers() throws Exception {
        store.close();
        int threads = 4;
        int perThread = 30;
        List<Throwable> errors = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        // a 1 ms interval makes background commits overlap writes and refreshes as often as possible
        try (LuceneMemoryStore group = LuceneMemoryStore.builder(folder).groupCommit(Duration.ofMillis(1)).build()) {
            List<Thread> workers = new java.util.ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Scope s = Scope.of("clinic-1", "receptionist", "user" + t);
                workers.add(new Thread(() -> {
                    try {
                        for (int i = 0; i < perThread; i++) {
                            group.write(WriteBatch.of(s).put(memory(s, "racing fact " + i, i))
                                    .append(new SessionTurn(s, "s", i, "t" + i, Role.USER, null, "turn " + i, T0)));
                            assertThat(group.searchMemories(s, "racing fact", ANY_STATUS, ANY_KIND, 100))
                                    .hasSize(i + 1);
                            assertThat(group.sessionLength(s, "s")).isEqualTo(i + 1);
                        }
                    } catch (Throwable e) {
                        errors.add(e);
                    }
                }));
            }
            workers.forEach(Thread::start);
            for (Thread w : workers) {
                w.join();
            }
        }
        assertThat(errors).isEmpty();
        store = openStore(folder);
        for (int t = 0; t < threads; t++) {
            Scope s = Scope.of("clinic-1", "receptionist", "user" + t);
            assertThat(store.memories(s, MemoryFilter.all())).hasSize(perThread);
            assertThat(store.sessionLength(s, "s")).isEqualTo(perThread);
        }
        assertThat(store.endUsers("clinic-1", "receptionist")).hasSize(threads);
    }

    /** Documents in the last commit on disk, as a crashed process would find them (0 when there is none). */
    private static int committedDocs(Path tenant) throws IOException {
        try (Directory dir = FSDirectory.open(tenant)) {
            if (!DirectoryReader.indexExists(dir)) {
                return 0;
            }
            try (DirectoryReader reader = DirectoryReader.open(dir)) {
                return reader.numDocs();
            }
        }
    }

    @Test
    void should_make_every_write_durable_before_it_returns_in_durable_mode(
            @org.junit.jupiter.api.io.TempDir Path elsewhere) throws IOException {
        Memory m = memory(ALICE, "durable at once", 0);
        put(ALICE, m);
        // what a crash right now would leave: the files on disk (the translog), not what is in RAM
        Path crashed = elsewhere.resolve("tenant-clinic-1");
        Files.createDirectories(crashed);
        try (Stream<Path> files = Files.list(folder.resolve("tenant-clinic-1"))) {
            for (Path p : files.toList()) {
                Files.copy(p, crashed.resolve(p.getFileName().toString()));
            }
        }
        try (MemoryStore reopened = MemoryStores.open("lucene:" + crashed.getParent())) {
            assertThat(reopened.memory(ALICE, m.id())).contains(m);
        }
    }

    // ------------------------------------------------------------ vectors

    @Test
    void should_fail_clearly_on_a_dimension_mismatch_and_keep_dimensions_apart_per_scope() {
        Memory three = memory(ALICE, "three", 0).toBuilder().embedding(Embedding.of(new float[] {1, 0, 0})).build();
        Memory four = memory(BOB, "four", 0).toBuilder().embedding(Embedding.of(new float[] {0, 1, 0, 0})).build();
        put(ALICE, three);
        put(BOB, four);
        assertThat(store.searchMemoriesByVector(ALICE, new float[] {1, 0, 0}, ANY_STATUS, 5))
                .extracting(h -> h.item().id()).containsExactly(three.id());
        assertThat(store.searchMemoriesByVector(BOB, new float[] {0, 1, 0, 0}, ANY_STATUS, 5))
                .extracting(h -> h.item().id()).containsExactly(four.id());
        assertThatThrownBy(() -> store.searchMemoriesByVector(ALICE, new float[] {1, 0, 0, 0}, ANY_STATUS, 5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("dimension 4").hasMessageContaining("dimension 3").hasMessageContaining("alice");
        // a scope holding two dimensions cannot be searched by either without saying so
        put(ALICE, memory(ALICE, "five", 1).toBuilder().embedding(Embedding.of(new float[] {1, 1, 1, 1, 1})).build());
        assertThatThrownBy(() -> store.searchMemoriesByVector(ALICE, new float[] {1, 0, 0}, ANY_STATUS, 5))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("dimension");
        assertThatThrownBy(() -> store.searchMemoriesByVector(ALICE, new float[] {Float.NaN, 0, 0}, ANY_STATUS, 5))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("component 0");
    }

    @Test
    void should_return_cosine_scores_and_search_vectors_beyond_the_hnsw_limit_exactly() {
        float[] a = new float[1536];
        float[] b = new float[1536];
        a[0] = 1;
        b[1] = 1;
        b[0] = 1;
        Memory near = memory(ALICE, "near", 0).toBuilder().embedding(Embedding.of(a)).build();
        Memory far = memory(ALICE, "far", 1).toBuilder().embedding(Embedding.of(b)).build();
        put(ALICE, near, far);
        List<Scored<Memory>> hits = store.searchMemoriesByVector(ALICE, a, ANY_STATUS, 5);
        assertThat(hits).extracting(h -> h.item().id()).containsExactly(near.id(), far.id());
        assertThat(hits.get(0).score()).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-6));
        assertThat(hits.get(1).score()).isCloseTo(Math.sqrt(0.5), org.assertj.core.data.Offset.offset(1e-6));
        assertThat(hits.get(0).item()).isEqualTo(near);

        Memory small = memory(BOB, "small", 0).toBuilder().embedding(Embedding.of(new float[] {1, 1})).build();
        put(BOB, small);
        assertThat(store.searchMemoriesByVector(BOB, new float[] {1, 0}, ANY_STATUS, 5)).singleElement()
                .satisfies(h -> assertThat(h.score()).isCloseTo(Math.sqrt(0.5), org.assertj.core.data.Offset.offset(1e-6)));
    }

    @Test
    void should_store_zero_vectors_without_ranking_them() {
        Memory zero = memory(ALICE, "zero", 0).toBuilder().embedding(Embedding.of(new float[] {0, 0, 0})).build();
        put(ALICE, zero);
        assertThat(store.memory(ALICE, zero.id())).contains(zero);
        assertThat(store.searchMemoriesByVector(ALICE, new float[] {1, 0, 0}, ANY_STATUS, 5)).isEmpty();
        assertThat(store.searchMemoriesByVector(ALICE, new float[] {0, 0, 0}, ANY_STATUS, 5)).isEmpty();
    }

    @Test
    void should_filter_vector_search_by_status_before_ranking() {
        Memory active = memory(ALICE, "active", 0).toBuilder().embedding(Embedding.of(new float[] {0, 1})).build();
        Memory superseded = memory(ALICE, "superseded", 1).toBuilder().status(MemoryStatus.SUPERSEDED)
                .embedding(Embedding.of(new float[] {1, 0})).build();
        put(ALICE, active, superseded);
        assertThat(store.searchMemoriesByVector(ALICE, new float[] {1, 0}, EnumSet.of(MemoryStatus.ACTIVE), 1))
                .extracting(h -> h.item().id()).containsExactly(active.id());
    }

    // ------------------------------------------------------------ lexical search

    @Test
    void should_match_across_accents_plurals_and_verb_forms_in_english_and_portuguese() {
        Memory pt = memory(ALICE, "Tem alergias a dipirona e não gosta de consultas à tarde", 0);
        Memory en = memory(ALICE, "She liked hiking in the mountains", 1);
        put(ALICE, pt, en);
        assertThat(searchIds(store, ALICE, "alergia dipirona")).containsExactly(pt.id());
        assertThat(searchIds(store, ALICE, "consulta")).containsExactly(pt.id());
        assertThat(searchIds(store, ALICE, "NAO GOSTA")).containsExactly(pt.id());
        assertThat(searchIds(store, ALICE, "likes to hike")).containsExactly(en.id());
        assertThat(searchIds(store, ALICE, "mountain")).containsExactly(en.id());
    }

    @Test
    void should_ignore_stop_words_unless_the_query_has_nothing_else() {
        Memory content = memory(ALICE, "Works as a nurse at the clinic", 0);
        Memory grammar = memory(ALICE, "What is it that she said about my plans", 1);
        put(ALICE, content, grammar);
        assertThat(searchIds(store, ALICE, "what is my job at the clinic?")).containsExactly(content.id());
        assertThat(searchIds(store, ALICE, "what is it")).containsExactly(grammar.id());
    }

    @Test
    void should_filter_search_by_kind_and_status_inside_the_scope_not_after_a_global_top_k() {
        WriteBatch others = WriteBatch.of(BOB);
        for (int i = 0; i < 50; i++) {
            others.put(memory(BOB, "coffee coffee coffee " + i, i));
        }
        store.write(others);
        Memory skill = memory(ALICE, "Brews coffee", 0).toBuilder().kind(MemoryKind.SKILL).build();
        Memory fact = memory(ALICE, "Drinks coffee daily with more coffee", 1);
        put(ALICE, skill, fact);
        assertThat(store.searchMemories(ALICE, "coffee", ANY_STATUS, EnumSet.of(MemoryKind.SKILL), 1))
                .extracting(h -> h.item().id()).containsExactly(skill.id());
        assertThat(store.searchObservations(ALICE, "coffee", EnumSet.allOf(ObservationStatus.class), 5)).isEmpty();
    }

    // ------------------------------------------------------------ batches

    @Test
    void should_apply_a_batch_in_order_with_the_last_operation_winning() {
        Memory m = memory(ALICE, "first version", 0);
        store.write(WriteBatch.of(ALICE).put(m).put(m.toBuilder().text("second version").build()).deleteMemory(m.id()));
        assertThat(store.memory(ALICE, m.id())).isEmpty();
        store.write(WriteBatch.of(ALICE).deleteMemory(m.id()).put(m));
        assertThat(store.memory(ALICE, m.id())).contains(m);
        assertThat(store.memories(ALICE, MemoryFilter.all())).hasSize(1);
    }

    @Test
    void should_refuse_a_turn_seq_repeated_inside_one_batch() {
        SessionTurn t = new SessionTurn(ALICE, "s1", 0, "t1", Role.USER, null, "hi", T0);
        Memory m = memory(ALICE, "not written", 0);
        assertThatThrownBy(() -> store.write(WriteBatch.of(ALICE).put(m).append(t).append(t)))
                .isInstanceOf(MemoryStoreException.class).hasMessageContaining("seq 0").hasMessageContaining("s1");
        assertThat(store.memory(ALICE, m.id())).isEmpty();
        assertThat(store.sessionLength(ALICE, "s1")).isZero();
    }

    @Test
    void should_order_sessions_by_first_activity() {
        store.write(WriteBatch.of(ALICE)
                .append(new SessionTurn(ALICE, "later", 0, "a", Role.USER, null, "x", T0.plusSeconds(50)))
                .append(new SessionTurn(ALICE, "earlier", 0, "b", Role.USER, null, "y", T0.plusSeconds(10)))
                .append(new SessionTurn(ALICE, "later", 1, "c", Role.USER, null, "z", T0.plusSeconds(5))));
        assertThat(store.sessions(ALICE)).containsExactly("later", "earlier");
    }

    // ------------------------------------------------------------ erase

    @Test
    void should_erase_a_scope_from_the_index_files() throws IOException {
        put(ALICE, memory(ALICE, "zanzibar secret", 0), observation(ALICE, "zanzibar note", 0));
        put(BOB, memory(BOB, "bob keeps his data", 0));
        store.erase(ALICE);
        assertThat(store.endUsers("clinic-1", "receptionist")).containsExactly(BOB);
        assertThat(searchIds(store, BOB, "data")).hasSize(1);
        store.close();
        try (Directory dir = FSDirectory.open(folder.resolve("tenant-clinic-1"));
             DirectoryReader reader = DirectoryReader.open(dir)) {
            assertThat(reader.maxDoc()).isEqualTo(reader.numDocs()).isEqualTo(1);
            for (String field : List.of(LuceneDocuments.MEMORY_TEXT, LuceneDocuments.OBSERVATION_TEXT)) {
                Terms terms = MultiTerms.getTerms(reader, field);
                assertThat(terms == null || !terms.iterator().seekExact(new BytesRef("zanzibar"))).as(field).isTrue();
            }
        }
        store = openStore(folder);
    }

    @Test
    void should_build_queries_only_from_analyzed_terms() {
        try (TextAnalysis analysis = new TextAnalysis()) {
            // ':' joins letters in Unicode word rules, so "text:x" stays one plain term, never a field name
            assertThat(analysis.queryTerms("a\" OR text:x NEAR( Alérgica*"))
                    .containsExactly("text:x", "near", "alergica");
            assertThat(analysis.queryTerms("\"*():")).isEmpty();
            assertThat(analysis.queryTerms("word ".repeat(10) + "tea")).containsExactly("word", "tea");
            StringBuilder many = new StringBuilder();
            for (int i = 0; i < 500; i++) {
                many.append("w").append(i).append(' ');
            }
            assertThat(analysis.queryTerms(many.toString())).hasSize(TextAnalysis.MAX_QUERY_TERMS);
        }
    }

    @Test
    void archived_turns_written_before_episodic_recall_are_reindexed_at_open() throws IOException {
        SessionTurn old = new SessionTurn(ALICE, "s1", 0, "t0", Role.USER, "Alice",
                "we planted tulips by the river", T0);
        store.write(WriteBatch.of(ALICE).archive(old));
        store.close();
        // what an archived turn looked like before this version: no search text, no time field
        try (Directory dir = FSDirectory.open(folder.resolve("tenant-clinic-1"));
             org.apache.lucene.index.IndexWriter w = new org.apache.lucene.index.IndexWriter(dir,
                     new org.apache.lucene.index.IndexWriterConfig())) {
            org.apache.lucene.document.Document d = new org.apache.lucene.document.Document();
            for (String[] f : new String[][] {{LuceneDocuments.TYPE, "archive"}, {LuceneDocuments.AGENT, "receptionist"},
                    {LuceneDocuments.USER, "alice"}, {LuceneDocuments.SCOPE, LuceneDocuments.scopeKey(ALICE)},
                    {LuceneDocuments.UID, LuceneDocuments.turnUid(LuceneDocuments.Type.ARCHIVE, ALICE, "s1", 0)},
                    {LuceneDocuments.SESSION, "s1"}}) {
                d.add(new org.apache.lucene.document.StringField(f[0], f[1],
                        org.apache.lucene.document.Field.Store.NO));
            }
            d.add(new org.apache.lucene.document.LongPoint(LuceneDocuments.SEQ, 0));
            d.add(new org.apache.lucene.document.NumericDocValuesField(LuceneDocuments.SEQ, 0));
            d.add(new org.apache.lucene.document.StoredField(LuceneDocuments.JSON, dev.reverie.internal.Json.write(old)));
            w.updateDocument(new org.apache.lucene.index.Term(LuceneDocuments.UID,
                    LuceneDocuments.turnUid(LuceneDocuments.Type.ARCHIVE, ALICE, "s1", 0)), d);
            w.commit();
        }
        store = openStore(folder);
        assertThat(store.archivedTurns(ALICE, "s1")).containsExactly(old);
        assertThat(store.searchTurns(ALICE, "Alice tulips", 5)).extracting(Scored::item).containsExactly(old);
        assertThat(store.hasArchivedTurnsBefore(ALICE, T0.plusSeconds(1))).isTrue();
    }

    @Test
    void a_style_observation_an_older_version_indexed_is_never_returned() throws IOException {
        List<dev.reverie.Observation> written = paintingFactAndStyle();
        dev.reverie.Observation fact = written.get(0);
        dev.reverie.Observation style = written.get(1);
        store.close();
        // what an earlier version wrote: the STYLE observation's text indexed too (with the store's analyzer)
        try (Directory dir = FSDirectory.open(folder.resolve("tenant-clinic-1"));
             org.apache.lucene.index.IndexWriter w = new org.apache.lucene.index.IndexWriter(dir,
                     new org.apache.lucene.index.IndexWriterConfig(new TextAnalysis().indexAnalyzer()))) {
            org.apache.lucene.document.Document d = LuceneDocuments.observation(style);
            assertThat(d.getField(LuceneDocuments.OBSERVATION_TEXT)).isNull();
            d.add(new org.apache.lucene.document.TextField(LuceneDocuments.OBSERVATION_TEXT, style.text(),
                    org.apache.lucene.document.Field.Store.NO));
            w.updateDocument(new org.apache.lucene.index.Term(LuceneDocuments.UID,
                    LuceneDocuments.uid(LuceneDocuments.Type.OBSERVATION, ALICE, style.id())), d);
            // the commit keeps the store's own data (its translog position), so nothing is replayed over it
            w.setLiveCommitData(org.apache.lucene.index.SegmentInfos.readLatestCommit(dir).getUserData().entrySet());
            w.commit();
        }
        store = openStore(folder);
        assertThat(store.searchObservations(ALICE, "painting", EnumSet.allOf(ObservationStatus.class), 10))
                .extracting(h -> h.item().id()).containsExactly(fact.id());
        assertThat(store.observation(ALICE, style.id())).contains(style);
    }

    @Test
    void memories_written_before_the_permanent_flag_was_indexed_are_pinned_after_reopening() throws IOException {
        Memory name = memory(ALICE, "Name is Alice", 0).toBuilder().permanent(true).importance(95).build();
        Memory plain = memory(ALICE, "Likes jazz", 1);
        put(ALICE, name, plain);
        store.close();
        // what a memory looked like before this version: the same document without the flag
        try (Directory dir = FSDirectory.open(folder.resolve("tenant-clinic-1"));
             org.apache.lucene.index.IndexWriter w = new org.apache.lucene.index.IndexWriter(dir,
                     new org.apache.lucene.index.IndexWriterConfig())) {
            for (Memory m : List.of(name, plain)) {
                org.apache.lucene.document.Document d = LuceneDocuments.memory(m);
                d.removeField(LuceneDocuments.PERMANENT);
                w.updateDocument(new org.apache.lucene.index.Term(LuceneDocuments.UID,
                        LuceneDocuments.uid(LuceneDocuments.Type.MEMORY, ALICE, m.id())), d);
            }
            w.commit();
        }
        store = openStore(folder);
        assertThat(store.pinnedMemories(ALICE, 10)).containsExactly(name);
        assertThat(store.memories(ALICE, MemoryFilter.all())).containsExactlyInAnyOrder(name, plain);
    }

    @Test
    void recalls_update_doc_values_in_place_and_no_read_returns_the_counts_before() throws IOException {
        Memory m = memory(ALICE, "plays the cello on Sundays", 0);
        put(ALICE, m);
        LuceneMemoryStore lucene = (LuceneMemoryStore) store;
        // decoded once: the hits of this segment's document are kept by DecodedDocs from here on
        assertThat(store.searchMemories(ALICE, "cello", ANY_STATUS, ANY_KIND, 5)).extracting(Scored::item)
                .containsExactly(m);
        lucene.commit();
        String before = placeOf(m);

        for (int i = 1; i <= 3; i++) {
            store.write(WriteBatch.of(ALICE).addRecalls(m.id(), 2, T0.plusSeconds(i)));
            Memory recalled = m.toBuilder().retrievalCount(2 * i).lastRetrievedAt(T0.plusSeconds(i)).build();
            assertThat(store.searchMemories(ALICE, "cello", ANY_STATUS, ANY_KIND, 5)).extracting(Scored::item)
                    .containsExactly(recalled);
            assertThat(store.memory(ALICE, m.id())).contains(recalled);
            assertThat(store.memories(ALICE, MemoryFilter.all())).containsExactly(recalled);
        }
        lucene.commit();
        assertThat(placeOf(m)).as("the same document of the same segment: updated in place").isEqualTo(before);
    }

    @Test
    void a_memory_written_before_the_recall_doc_values_is_rewritten_once_then_updated_in_place() throws IOException {
        Memory m = memory(ALICE, "plays the cello on Sundays", 0).toBuilder().retrievalCount(4)
                .lastRetrievedAt(T0.plusNanos(123_456_789)).build();
        put(ALICE, m);
        store.close();
        putWithoutRecallDocValues(folder.resolve("tenant-clinic-1"), m);
        store = openStore(folder);
        assertThat(store.memory(ALICE, m.id())).contains(m);
        store.write(WriteBatch.of(ALICE).addRecalls(m.id(), 1, T0));
        Memory once = m.toBuilder().retrievalCount(5).build(); // T0 is earlier: the stored time stays, to the nano
        assertThat(store.memory(ALICE, m.id())).contains(once);
        ((LuceneMemoryStore) store).commit();
        String before = placeOf(m);
        store.write(WriteBatch.of(ALICE).addRecalls(m.id(), 1, T0.plusSeconds(5).plusNanos(7)));
        assertThat(store.memory(ALICE, m.id()))
                .contains(once.toBuilder().retrievalCount(6).lastRetrievedAt(T0.plusSeconds(5).plusNanos(7)).build());
        ((LuceneMemoryStore) store).commit();
        assertThat(placeOf(m)).isEqualTo(before);
    }

    /**
     * Rewrites memory {@code m} in the closed index in {@code tenantFolder} as a Reverie from before the
     * recall doc values wrote it (its recall count and time only in the JSON), and commits.
     */
    static void putWithoutRecallDocValues(Path tenantFolder, Memory m) throws IOException {
        try (Directory dir = FSDirectory.open(tenantFolder);
             org.apache.lucene.index.IndexWriter w = new org.apache.lucene.index.IndexWriter(dir,
                     new org.apache.lucene.index.IndexWriterConfig())) {
            org.apache.lucene.document.Document d = LuceneDocuments.memory(m);
            d.removeFields(LuceneDocuments.RECALLS);
            d.removeFields(LuceneDocuments.RECALLED_SECOND);
            d.removeFields(LuceneDocuments.RECALLED_NANO);
            w.updateDocument(new org.apache.lucene.index.Term(LuceneDocuments.UID,
                    LuceneDocuments.uid(LuceneDocuments.Type.MEMORY, m.scope(), m.id())), d);
            w.commit();
        }
    }

    /**
     * Where the committed index of tenant clinic-1 keeps the memory: its segment and document there
     * (a re-indexed memory moves to a new segment; one whose doc values are updated stays).
     */
    private String placeOf(Memory m) throws IOException {
        try (Directory dir = FSDirectory.open(folder.resolve("tenant-clinic-1"));
             DirectoryReader r = DirectoryReader.open(dir)) {
            org.apache.lucene.util.BytesRef uid = new org.apache.lucene.util.BytesRef(
                    LuceneDocuments.uid(LuceneDocuments.Type.MEMORY, ALICE, m.id()));
            List<String> places = new java.util.ArrayList<>();
            for (org.apache.lucene.index.LeafReaderContext leaf : r.leaves()) {
                org.apache.lucene.index.PostingsEnum docs = leaf.reader().postings(
                        new org.apache.lucene.index.Term(LuceneDocuments.UID, uid));
                org.apache.lucene.util.Bits live = leaf.reader().getLiveDocs();
                for (int d = docs == null ? org.apache.lucene.search.DocIdSetIterator.NO_MORE_DOCS : docs.nextDoc();
                     d != org.apache.lucene.search.DocIdSetIterator.NO_MORE_DOCS; d = docs.nextDoc()) {
                    if (live == null || live.get(d)) {
                        places.add(((org.apache.lucene.index.SegmentReader) leaf.reader()).getSegmentName() + "#" + d);
                    }
                }
            }
            assertThat(places).hasSize(1);
            return places.get(0);
        }
    }
}
