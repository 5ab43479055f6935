package dev.reverie.store.lucene;

import dev.reverie.Cardinality;
import dev.reverie.ContextManager;
import dev.reverie.MemoryKind;
import dev.reverie.MemoryStoreException;
import dev.reverie.Observation;
import dev.reverie.ObservationFilter;
import dev.reverie.ObservationStatus;
import dev.reverie.Outcome;
import dev.reverie.Polarity;
import dev.reverie.Provenance;
import dev.reverie.Role;
import dev.reverie.Scope;
import dev.reverie.Source;
import dev.reverie.Trust;
import dev.reverie.Turn;
import dev.reverie.spi.SessionTurn;
import dev.reverie.spi.WriteBatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The Lucene store refreshes its searcher on read, not after every write: a write is visible to every
 * read that starts after it returns (from any thread), writes without reads do not refresh, and a
 * batch that reads back what was written since the last refresh (a turn's seq, a record it replaces
 * or whose status it changes, a session's end) sees it. Real indexes in a temporary folder, in the default translog
 * mode, with background commits pushed out of the way.
 */
class LuceneRefreshOnReadTest {

    private static final Instant T0 = Instant.parse("2026-03-01T09:00:00Z");
    private static final String TENANT = "clinic";
    static final Scope ANA = Scope.of(TENANT, "desk", "ana");

    @TempDir
    Path dir;

    private LuceneMemoryStore store;

    @BeforeEach
    void open() {
        store = LuceneMemoryStore.builder(dir).translogCommitInterval(Duration.ofMinutes(10)).build();
    }

    @AfterEach
    void close() {
        store.close();
    }

    /** A pending fact of {@code ANA} observed at {@code T0} (also used by {@code LuceneDecodedDocsTest}). */
    static Observation observation(String id, String text) {
        Provenance provenance = new Provenance(Source.USER, "s1", "t-" + id, T0, Outcome.UNKNOWN, Trust.FIRST_PARTY);
        return new Observation(id, ANA, MemoryKind.FACT, text, "user.fact." + id, text.toLowerCase(),
                Cardinality.MULTI, Polarity.POSITIVE, 0.8, T0, "s1", provenance, List.of("t-" + id), 1,
                ObservationStatus.PENDING, null, null);
    }

    private static SessionTurn turn(String sessionId, long seq) {
        return new SessionTurn(ANA, sessionId, seq, sessionId + "-" + seq, Role.USER, null, "turn " + seq, T0);
    }

    @Test
    void writes_without_reads_do_not_refresh_and_the_next_read_refreshes_once_and_sees_them_all() {
        try (ContextManager memory = ContextManager.builder().store(store).build()) {
            memory.recordTurn(ANA, "s1", Turn.user("I live in Recife."), Turn.assistant("Noted."));
            assertThat(store.sessionLength(ANA, "s1")).isEqualTo(2);
            long before = store.refreshes(TENANT);

            for (int i = 0; i < 100; i++) {
                memory.recordTurn(ANA, "s1", Turn.user("I have a dog named Rex " + i + "."), Turn.assistant("Noted."));
            }
            assertThat(store.refreshes(TENANT)).as("no refresh while only writing").isEqualTo(before);

            assertThat(store.sessionLength(ANA, "s1")).isEqualTo(202);
            assertThat(store.refreshes(TENANT)).as("the first read refreshes").isEqualTo(before + 1);
            assertThat(store.archivedTurns(ANA, "s1")).hasSize(202);
            assertThat(store.refreshes(TENANT)).as("later reads find the searcher current").isEqualTo(before + 1);
        }
    }

    @Test
    void a_read_on_an_interrupted_thread_refreshes_without_harm_and_keeps_the_interrupt() {
        store.write(WriteBatch.of(ANA).put(observation("o1", "likes green tea")));
        long before = store.refreshes(TENANT);

        Thread.currentThread().interrupt(); // a host cancelled the request that reads
        try {
            assertThat(store.observations(ANA, ObservationFilter.all())).extracting(Observation::id)
                    .containsExactly("o1");
            assertThat(Thread.currentThread().isInterrupted()).as("the caller's interrupt is kept").isTrue();
        } finally {
            Thread.interrupted();
        }
        assertThat(store.refreshes(TENANT)).isEqualTo(before + 1);
        // the refresh's files were written off the interrupted thread: the index still works
        store.write(WriteBatch.of(ANA).put(observation("o2", "likes black coffee")));
        assertThat(store.observations(ANA, ObservationFilter.all())).extracting(Observation::id)
                .containsExactlyInAnyOrder("o1", "o2");
    }

    @Test
    void a_write_is_visible_to_a_read_another_thread_starts_after_it_returns() throws Exception {
        int writes = 200;
        BlockingQueue<Integer> acknowledged = new LinkedBlockingQueue<>();
        BlockingQueue<Integer> checked = new LinkedBlockingQueue<>();
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            Future<?> writer = threads.submit(() -> {
                for (int i = 0; i < writes; i++) {
                    store.write(WriteBatch.of(ANA).put(observation("o" + i, "fact number " + i))
                            .appendAtSessionEnd(turn("s1", 0)));
                    acknowledged.add(i);
                    // every other write waits for its read: reads both right after a write and with a write in flight
                    if (i % 2 == 0) {
                        assertThat(checked.take()).isEqualTo(i);
                    }
                }
                return null;
            });
            Future<List<String>> reader = threads.submit(() -> {
                List<String> missing = new ArrayList<>();
                for (int i = 0; i < writes; i++) {
                    int n = acknowledged.take();
                    if (store.observation(ANA, "o" + n).isEmpty()) {
                        missing.add("observation o" + n);
                    }
                    if (store.sessionLength(ANA, "s1") < n + 1) {
                        missing.add("turn " + n);
                    }
                    if (n % 2 == 0) {
                        checked.add(n);
                    }
                }
                return missing;
            });
            writer.get(1, TimeUnit.MINUTES);
            assertThat(reader.get(1, TimeUnit.MINUTES)).isEmpty();
        } finally {
            threads.shutdownNow();
        }
        assertThat(store.observations(ANA, ObservationFilter.all().page(0, 1000))).hasSize(writes);
    }

    @Test
    void concurrent_writers_and_readers_always_see_every_acknowledged_write() throws Exception {
        int writers = 2;
        int readers = 2;
        int perWriter = 150;
        BlockingQueue<String> acknowledged = new LinkedBlockingQueue<>();
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(writers + readers);
        try {
            List<Future<?>> writing = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                String session = "w" + w;
                writing.add(threads.submit(() -> {
                    start.await();
                    for (int i = 0; i < perWriter; i++) {
                        String id = session + "-o" + i;
                        store.write(WriteBatch.of(ANA).put(observation(id, "fact " + id))
                                .appendAtSessionEnd(turn(session, 0)));
                        acknowledged.add(id);
                    }
                    return null;
                }));
            }
            List<Future<List<String>>> reading = new ArrayList<>();
            for (int r = 0; r < readers; r++) {
                reading.add(threads.submit(() -> {
                    start.await();
                    List<String> missing = new ArrayList<>();
                    for (int i = 0; i < writers * perWriter / readers; i++) {
                        String id = acknowledged.take();
                        if (store.observation(ANA, id).isEmpty()) {
                            missing.add(id);
                        }
                        String session = id.substring(0, id.indexOf('-'));
                        long seq = Long.parseLong(id.substring(id.indexOf("-o") + 2));
                        if (store.sessionLength(ANA, session) < seq + 1) {
                            missing.add("turn " + seq + " of " + session);
                        }
                    }
                    return missing;
                }));
            }
            start.countDown();
            for (Future<?> f : writing) {
                f.get(1, TimeUnit.MINUTES);
            }
            for (Future<List<String>> f : reading) {
                assertThat(f.get(1, TimeUnit.MINUTES)).isEmpty();
            }
        } finally {
            threads.shutdownNow();
        }
        assertThat(store.sessionLength(ANA, "w0")).isEqualTo(perWriter);
        assertThat(store.sessionLength(ANA, "w1")).isEqualTo(perWriter);
    }

    @Test
    void a_turn_seq_written_since_the_last_refresh_is_still_refused_a_second_time() {
        store.write(WriteBatch.of(ANA).append(turn("s1", 0)));

        assertThatThrownBy(() -> store.write(WriteBatch.of(ANA).append(turn("s1", 0))))
                .isInstanceOf(MemoryStoreException.class).hasMessageContaining("already in the store");
        assertThat(store.sessionLength(ANA, "s1")).isEqualTo(1);
    }

    @Test
    void records_rewritten_and_deleted_between_refreshes_keep_one_version_each() {
        store.write(WriteBatch.of(ANA).put(observation("o1", "first version")).put(observation("o2", "kept")));
        store.write(WriteBatch.of(ANA).put(observation("o1", "second version")));
        store.write(WriteBatch.of(ANA).put(observation("o1", "third version")).put(observation("o2", "kept again")));
        store.write(WriteBatch.of(ANA).put(observation("o3", "deleted soon")));
        store.write(WriteBatch.of(ANA).deleteObservation("o3"));

        assertThat(store.observations(ANA, ObservationFilter.all())).extracting(Observation::text)
                .containsExactlyInAnyOrder("third version", "kept again");
        // and once more after the refresh that read caused
        store.write(WriteBatch.of(ANA).put(observation("o1", "fourth version")));
        assertThat(store.observations(ANA, ObservationFilter.all())).extracting(Observation::text)
                .containsExactlyInAnyOrder("fourth version", "kept again");
    }

    @Test
    void a_status_change_of_a_record_written_since_the_last_refresh_applies_to_it() {
        store.write(WriteBatch.of(ANA).put(observation("o1", "lives in Recife")));
        store.write(WriteBatch.of(ANA).setStatus("o1", ObservationStatus.CONSOLIDATED, T0.plusSeconds(60)));

        Observation o = store.observation(ANA, "o1").orElseThrow();
        assertThat(o.text()).isEqualTo("lives in Recife");
        assertThat(o.status()).isEqualTo(ObservationStatus.CONSOLIDATED);
    }

    @Test
    void appending_at_the_end_of_sessions_the_reopened_store_has_not_seen_finds_their_ends() {
        store.write(WriteBatch.of(ANA).append(turn("s1", 0)).append(turn("s1", 1)).append(turn("s1", 2)));
        store.close();
        store = LuceneMemoryStore.builder(dir).translogCommitInterval(Duration.ofMinutes(10)).build();

        WriteBatch existing = WriteBatch.of(ANA).appendAtSessionEnd(turn("s1", 0));
        WriteBatch fresh = WriteBatch.of(ANA).appendAtSessionEnd(turn("s", 0));
        store.write(existing);
        store.write(fresh);

        assertThat(existing.assignedSeq("s1")).isEqualTo(3);
        assertThat(fresh.assignedSeq("s")).isZero();
        assertThat(store.sessionLength(ANA, "s1")).isEqualTo(4);
        assertThat(store.sessionLength(ANA, "s")).isEqualTo(1);
    }

    @Test
    void batches_of_one_group_read_what_the_earlier_ones_wrote() {
        store.write(WriteBatch.of(ANA).put(observation("o0", "before the group")));

        // one group: a single translog append, none of it published before the append
        assertThatThrownBy(() -> store.writeEach(List.of(
                WriteBatch.of(ANA).put(observation("o1", "lives in Recife")),
                WriteBatch.of(ANA).setStatus("o1", ObservationStatus.DISCARDED, null),
                WriteBatch.of(ANA).append(turn("s1", 0)),
                WriteBatch.of(ANA).append(turn("s1", 0)),
                WriteBatch.of(ANA).setStatus("o0", ObservationStatus.CONSOLIDATED, T0))))
                .isInstanceOf(MemoryStoreException.class).hasMessageContaining("already in the store");

        assertThat(store.observation(ANA, "o1").orElseThrow().status()).isEqualTo(ObservationStatus.DISCARDED);
        assertThat(store.observation(ANA, "o0").orElseThrow().status()).isEqualTo(ObservationStatus.CONSOLIDATED);
        assertThat(store.sessionLength(ANA, "s1")).isEqualTo(1);
    }
}
