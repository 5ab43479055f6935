package dev.reverie;

import dev.reverie.internal.ScopeLocks;
import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.MemoryStores;
import dev.reverie.spi.WriteBatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class RetrievalRecorderTest {

    private static final Instant T0 = Instant.parse("2026-03-01T09:00:00Z");
    private static final List<Scope> USERS = List.of(Scope.of("clinic", "desk", "ana"),
            Scope.of("clinic", "desk", "bia"), Scope.of("clinic", "desk", "caio"));
    private static final long NEVER_MS = TimeUnit.HOURS.toMillis(1);

    @TempDir
    Path dir;

    /**
     * The store under test: SQLite or Lucene (both take {@link WriteBatch#addRecalls}), or SQLite behind
     * a proxy that says it does not and fails any batch holding one (a store written against 0.1.0:
     * the recorder re-reads and puts whole memories).
     */
    private MemoryStore open(String kind) {
        if (!kind.endsWith("-without-recall-writes")) {
            MemoryStore store = MemoryStores.open(kind + ":" + dir);
            assertThat(store.supportsRecallWrites()).isTrue();
            return store;
        }
        MemoryStore real = MemoryStores.open("sqlite:" + dir);
        return (MemoryStore) java.lang.reflect.Proxy.newProxyInstance(MemoryStore.class.getClassLoader(),
                new Class<?>[] {MemoryStore.class}, (proxy, method, args) -> {
                    if (method.getName().equals("supportsRecallWrites")) {
                        return false;
                    }
                    if (method.getName().startsWith("write")) {
                        List<?> written = args[0] instanceof List<?> l ? l : List.of(args[0]);
                        for (Object b : written) {
                            for (WriteBatch.Op op : ((WriteBatch) b).ops()) {
                                if (op instanceof WriteBatch.AddRecalls) {
                                    throw new IllegalArgumentException("unknown write operation " + op);
                                }
                            }
                        }
                    }
                    try {
                        return method.invoke(real, args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"sqlite", "lucene", "sqlite-without-recall-writes"})
    void recalls_are_counted_in_memory_and_written_in_one_batch_on_flush(String kind) {
        try (MemoryStore store = open(kind)) {
            seed(store);
            try (RetrievalRecorder recorder = new RetrievalRecorder(store, new ScopeLocks(64), NEVER_MS)) {
                for (int i = 0; i < 30; i++) {
                    recorder.recalled(USERS.get(i % 3), List.of("m-" + (i % 3)), T0.plusSeconds(i));
                }
                // nothing durable per call
                for (int u = 0; u < 3; u++) {
                    assertThat(store.memory(USERS.get(u), "m-" + u).orElseThrow().retrievalCount()).isZero();
                }
                assertThat(recorder.writes()).isZero();

                recorder.flush();

                assertThat(recorder.writes()).as("one store write for every scope").isEqualTo(1);
                for (int u = 0; u < 3; u++) {
                    Memory m = store.memory(USERS.get(u), "m-" + u).orElseThrow();
                    assertThat(m.retrievalCount()).isEqualTo(10);
                    assertThat(m.lastRetrievedAt()).isEqualTo(T0.plusSeconds(27 + u));
                }
                recorder.flush();
                assertThat(recorder.writes()).as("nothing pending, nothing written").isEqualTo(1);

                // more recalls add up; one of a memory deleted before the flush creates nothing
                recorder.recalled(USERS.get(0), List.of("m-0"), T0.minusSeconds(5));
                recorder.recalled(USERS.get(1), List.of("m-1"), T0.plusSeconds(100));
                store.write(WriteBatch.of(USERS.get(2)).deleteMemory("m-2"));
                recorder.recalled(USERS.get(2), List.of("m-2"), T0.plusSeconds(100));
                recorder.flush();
                Memory m0 = store.memory(USERS.get(0), "m-0").orElseThrow();
                assertThat(m0.retrievalCount()).isEqualTo(11);
                assertThat(m0.lastRetrievedAt()).as("an earlier recall keeps the later time").isEqualTo(T0.plusSeconds(27));
                Memory m1 = store.memory(USERS.get(1), "m-1").orElseThrow();
                assertThat(m1.retrievalCount()).isEqualTo(11);
                assertThat(m1.lastRetrievedAt()).isEqualTo(T0.plusSeconds(100));
                assertThat(m1.text()).isEqualTo("Likes jazz records");
                assertThat(store.memory(USERS.get(2), "m-2")).isEmpty();
                assertThat(recorder.failed()).isZero();
            }
        }
    }

    @Test
    void enough_pending_recalls_wake_the_flusher() {
        try (MemoryStore store = MemoryStores.open("sqlite:" + dir)) {
            seed(store);
            try (RetrievalRecorder recorder = new RetrievalRecorder(store, new ScopeLocks(64), NEVER_MS)) {
                for (int i = 0; i < RetrievalRecorder.FLUSH_AT; i++) {
                    recorder.recalled(USERS.get(0), List.of("m-0"), T0);
                }
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (recorder.writes() == 0 && System.nanoTime() < deadline) {
                    Thread.onSpinWait();
                }
                assertThat(recorder.writes()).isEqualTo(1);
                assertThat(store.memory(USERS.get(0), "m-0").orElseThrow().retrievalCount())
                        .isEqualTo(RetrievalRecorder.FLUSH_AT);
            }
        }
    }

    @Test
    void close_writes_what_is_pending() {
        try (MemoryStore store = MemoryStores.open("sqlite:" + dir)) {
            seed(store);
            RetrievalRecorder recorder = new RetrievalRecorder(store, new ScopeLocks(64), NEVER_MS);
            recorder.recalled(USERS.get(1), List.of("m-1"), T0);
            recorder.close();
            recorder.close();
            assertThat(store.memory(USERS.get(1), "m-1").orElseThrow().retrievalCount()).isEqualTo(1);
        }
    }

    @Test
    void the_dream_sees_the_statistics_of_every_earlier_build_context() {
        try (MemoryStore store = MemoryStores.open("sqlite:" + dir);
             ContextManager memory = ContextManager.builder().store(store)
                     .clock(Clock.fixed(T0.plusSeconds(60), ZoneOffset.UTC)).build()) {
            seed(store);
            memory.buildContext(ContextRequest.builder(USERS.get(2), "s1").query("what about jazz?")
                    .budgetTokens(2_000).build());

            memory.dream(USERS.get(2));

            assertThat(store.memory(USERS.get(2), "m-2").orElseThrow().retrievalCount()).isEqualTo(1);
        }
    }

    private static void seed(MemoryStore store) {
        for (int u = 0; u < 3; u++) {
            store.write(WriteBatch.of(USERS.get(u)).put(Memory.builder("m-" + u, USERS.get(u), MemoryKind.PREFERENCE,
                    "Likes jazz records", T0).subject("user.likes.jazz").importance(60).build()));
        }
    }
}
