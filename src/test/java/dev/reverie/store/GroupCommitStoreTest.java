package dev.reverie.store;

import dev.reverie.Memory;
import dev.reverie.MemoryKind;
import dev.reverie.MemoryStoreException;
import dev.reverie.Scope;
import dev.reverie.SessionTurn;
import dev.reverie.TurnRole;
import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.MemoryStores;
import dev.reverie.spi.WriteBatch;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Group commit on both durable stores: concurrent writers of one tenant share a transaction (SQLite)
 * or a translog append (Lucene), and a failing batch fails alone.
 */
class GroupCommitStoreTest {

    private static final Instant T0 = Instant.parse("2026-03-01T09:00:00Z");
    private static final Scope ANA = Scope.of("clinic", "desk", "ana");
    private static final Scope BIA = Scope.of("clinic", "desk", "bia");
    private static final int WRITERS = 4;
    private static final int WRITES = 40;

    @TempDir
    Path dir;

    private MemoryStore open(String store) {
        return MemoryStores.open(store + ":" + dir.resolve("data"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "lucene"})
    void concurrent_writers_all_land_with_contiguous_seqs_and_survive_reopen(String store) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
        try (MemoryStore s = open(store)) {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> writers = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                int writer = w;
                writers.add(pool.submit(() -> {
                    await(start);
                    for (int i = 0; i < WRITES; i++) {
                        // two writers share each session, so one group may append to a session twice
                        Scope scope = writer % 2 == 0 ? ANA : BIA;
                        SessionTurn t = new SessionTurn(scope, "sx", 0,
                                "w" + writer + "-" + i, TurnRole.USER, null, "writer " + writer + " turn " + i, T0);
                        WriteBatch b = WriteBatch.of(scope).appendAtSessionEnd(t).archiveAtSessionEnd(t);
                        s.write(b);
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : writers) {
                f.get(60, TimeUnit.SECONDS);
            }
            assertContiguous(s);
        } finally {
            pool.shutdownNow();
        }
        try (MemoryStore reopened = open(store)) {
            assertContiguous(reopened);
        }
    }

    private static void assertContiguous(MemoryStore s) {
        for (Scope scope : List.of(ANA, BIA)) {
            List<SessionTurn> turns = s.sessionTurns(scope, "sx", 0, Integer.MAX_VALUE);
            assertThat(turns).hasSize(2 * WRITES);
            Set<String> ids = new HashSet<>();
            for (int i = 0; i < turns.size(); i++) {
                assertThat(turns.get(i).seq()).isEqualTo(i);
                ids.add(turns.get(i).turnId());
            }
            assertThat(ids).hasSize(2 * WRITES);
            assertThat(s.archivedTurns(scope, "sx")).hasSize(2 * WRITES);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "lucene"})
    void a_failing_batch_in_a_shared_commit_fails_alone_and_leaves_nothing_behind(String store) {
        try (MemoryStore s = open(store)) {
            SessionTurn first = new SessionTurn(ANA, "s1", 0, "t0", TurnRole.USER, null, "hello", T0);
            s.write(WriteBatch.of(ANA).append(first));
            Memory before = memory(ANA, "m-before", "written before the bad batch");
            Memory doomed = memory(ANA, "m-doomed", "must not survive its batch");
            Memory after = memory(BIA, "m-after", "written after the bad batch");
            // seq 0 of s1 exists: the whole second batch must be refused, the other two committed
            WriteBatch bad = WriteBatch.of(ANA).put(doomed)
                    .append(new SessionTurn(ANA, "s1", 0, "t0-again", TurnRole.USER, null, "again", T0));

            assertThatThrownBy(() -> s.writeEach(List.of(WriteBatch.of(ANA).put(before), bad,
                    WriteBatch.of(BIA).put(after)))).isInstanceOf(MemoryStoreException.class);

            assertThat(s.memory(ANA, "m-before")).contains(before);
            assertThat(s.memory(BIA, "m-after")).contains(after);
            assertThat(s.memory(ANA, "m-doomed")).isEmpty();
            assertThat(s.sessionTurns(ANA, "s1", 0, 10)).containsExactly(first);
            // the store goes on: the next write commits
            s.write(WriteBatch.of(ANA).put(doomed));
            assertThat(s.memory(ANA, "m-doomed")).contains(doomed);
        }
    }

    private static Memory memory(Scope scope, String id, String text) {
        return Memory.builder(id, scope, MemoryKind.FACT, text, T0).subject("user.fact." + id).build();
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(30, TimeUnit.SECONDS)) {
                throw new AssertionError("start latch never opened");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
