package dev.reverie.store;

import dev.reverie.Role;
import dev.reverie.Scope;
import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.MemoryStores;
import dev.reverie.spi.SessionTurn;
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

/**
 * Group commit on both durable stores: concurrent writers of one tenant share a transaction (SQLite)
 * or a translog append (Lucene), including writers appending to one session at once. That a failing
 * batch fails alone is in the contract kit ({@code should_write_each_batch_of_write_each_on_its_own}).
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
                                "w" + writer + "-" + i, Role.USER, null, "writer " + writer + " turn " + i, T0);
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
