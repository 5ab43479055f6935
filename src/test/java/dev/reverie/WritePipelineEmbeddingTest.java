package dev.reverie;

import dev.reverie.spi.Embedder;
import dev.reverie.spi.ExtractedFact;
import dev.reverie.spi.Extractor;
import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.MemoryStores;
import dev.reverie.spi.WriteBatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class WritePipelineEmbeddingTest {

    static final Instant T0 = Instant.parse("2026-03-02T09:00:00Z");
    static final Scope ALICE = Scope.of("clinic-42", "receptionist", "alice");

    /** Every sentence of a user turn becomes one FACT observation. */
    static final Extractor SENTENCES = turn -> {
        List<ExtractedFact> out = new ArrayList<>();
        for (String s : turn.text().split("\\.\\s*")) {
            if (!s.isBlank()) {
                out.add(new ExtractedFact(MemoryKind.FACT, s.strip(), "user.note", s.strip().toLowerCase(),
                        Cardinality.MULTI, Polarity.POSITIVE, 0.9, null));
            }
        }
        return out;
    };

    /** A deterministic embedder that records its calls and can be held at a gate. */
    static final class RecordingEmbedder implements Embedder {
        final List<List<String>> calls = new CopyOnWriteArrayList<>();
        volatile CountDownLatch gate = new CountDownLatch(0);
        volatile int returnedDimension = 4;
        volatile boolean fail;

        @Override
        public int dimension() {
            return 4;
        }

        @Override
        public float[] embed(String text) {
            return embedAll(List.of(text)).get(0);
        }

        @Override
        public List<float[]> embedAll(List<String> texts) {
            try {
                gate.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            calls.add(List.copyOf(texts));
            if (fail) {
                throw new IllegalStateException("embedding service unavailable");
            }
            List<float[]> out = new ArrayList<>();
            for (String t : texts) {
                float[] v = new float[returnedDimension];
                v[0] = t.length();
                v[returnedDimension - 1] = 1;
                out.add(v);
            }
            return out;
        }
    }

    @TempDir
    Path dir;
    MemoryStore store;
    ContextManager memory;
    final RecordingEmbedder embedder = new RecordingEmbedder();

    void open() {
        store = MemoryStores.open("sqlite:" + dir);
        memory = ContextManager.builder().store(store).clock(new MutableClock(T0)).extractor(SENTENCES)
                .embedder(embedder).build();
    }

    @AfterEach
    void tearDown() {
        memory.close();
        store.close();
    }

    List<Observation> observations() {
        return store.observations(ALICE, ObservationFilter.all());
    }

    @Test
    void observations_of_one_record_call_are_embedded_in_one_batch() {
        open();
        memory.recordTurn(ALICE, "s1", Turn.user("I'm allergic to dipyrone. I live in Recife."),
                Turn.user("I work as a teacher."));
        memory.flush();

        // one call: the observations' texts, then the archived turns' (episodic vector search)
        assertThat(embedder.calls).containsExactly(List.of("I'm allergic to dipyrone", "I live in Recife",
                "I work as a teacher", "I'm allergic to dipyrone. I live in Recife.", "I work as a teacher."));
        assertThat(observations()).hasSize(3).allSatisfy(o -> {
            assertThat(o.embedding()).isNotNull();
            assertThat(o.embedding().toArray()[0]).isEqualTo(o.text().length());
        });
        float[] query = embedder.embed("I work as a teacher.");
        assertThat(store.searchTurnsByVector(ALICE, query, 5)).hasSize(2);
    }

    @Test
    void style_observations_are_stored_but_never_embedded() {
        store = MemoryStores.open("sqlite:" + dir);
        // the default rule-based extractor: a user turn also yields how the user writes (STYLE)
        memory = ContextManager.builder().store(store).clock(new MutableClock(T0)).embedder(embedder).build();
        memory.recordTurn(ALICE, "s1", Turn.user("hey!! I live in Recife and I work as a teacher lol"));
        memory.flush();

        List<Observation> stored = observations();
        assertThat(stored).anyMatch(o -> o.kind() == MemoryKind.STYLE).anyMatch(o -> o.kind() != MemoryKind.STYLE);
        // nor does the dream embed them when it looks for duplicates
        memory.recordTurn(ALICE, "s2", Turn.user("hey!! I moved to Olinda lol"));
        memory.flush();
        memory.dream(ALICE);
        List<String> embedded = embedder.calls.stream().flatMap(List::stream).toList();
        for (Observation o : stored) {
            if (o.kind() == MemoryKind.STYLE) {
                assertThat(o.embedding()).as(o.text()).isNull();
                assertThat(embedded).as(o.text()).doesNotContain(o.text());
            } else {
                assertThat(o.embedding()).as(o.text()).isNotNull();
                assertThat(embedded).as(o.text()).contains(o.text());
            }
        }
    }

    @Test
    void record_turn_returns_before_the_vectors_and_flush_waits_for_them() {
        open();
        embedder.gate = new CountDownLatch(1);
        TurnReceipt receipt = memory.recordTurn(ALICE, "s1", Turn.user("I'm allergic to dipyrone."));

        assertThat(receipt.observations()).isEqualTo(1);
        assertThat(observations()).singleElement().satisfies(o -> assertThat(o.embedding()).isNull());
        embedder.gate.countDown();
        memory.flush();
        assertThat(observations()).singleElement().satisfies(o -> assertThat(o.embedding()).isNotNull());
    }

    @Test
    void a_change_made_meanwhile_is_kept_and_a_deleted_observation_stays_deleted() {
        open();
        embedder.gate = new CountDownLatch(1);
        memory.recordTurn(ALICE, "s1", Turn.user("I'm allergic to dipyrone. I live in Recife."));
        List<Observation> written = observations();
        Observation consolidated = written.get(0).withStatus(ObservationStatus.CONSOLIDATED, T0);
        store.write(WriteBatch.of(ALICE).put(consolidated).deleteObservation(written.get(1).id()));

        embedder.gate.countDown();
        memory.flush();

        assertThat(observations()).singleElement().satisfies(o -> {
            assertThat(o.id()).isEqualTo(consolidated.id());
            assertThat(o.status()).isEqualTo(ObservationStatus.CONSOLIDATED);
            assertThat(o.embedding()).isNotNull();
        });
    }

    @Test
    void an_embedder_failure_never_reaches_the_caller_and_leaves_the_observation_searchable() {
        open();
        embedder.fail = true;
        TurnReceipt receipt = memory.recordTurn(ALICE, "s1", Turn.user("I'm allergic to dipyrone."));
        memory.flush();

        assertThat(receipt.observations()).isEqualTo(1);
        assertThat(observations()).singleElement().satisfies(o -> assertThat(o.embedding()).isNull());
        assertThat(store.searchObservations(ALICE, "dipyrone", java.util.EnumSet.of(ObservationStatus.PENDING), 5))
                .hasSize(1);
    }

    @Test
    void vectors_of_the_wrong_dimension_are_not_stored() {
        open();
        embedder.returnedDimension = 3;
        memory.recordTurn(ALICE, "s1", Turn.user("I'm allergic to dipyrone."));
        memory.flush();

        assertThat(observations()).singleElement().satisfies(o -> assertThat(o.embedding()).isNull());
    }

    @Test
    void vectors_queued_at_close_are_written_before_the_store_closes() {
        open();
        memory.recordTurn(ALICE, "s1", Turn.user("I'm allergic to dipyrone."));
        memory.close();
        memory = ContextManager.builder().store(store).clock(new MutableClock(T0)).build();

        assertThat(observations()).singleElement().satisfies(o -> assertThat(o.embedding()).isNotNull());
    }

    @Test
    void erasing_an_end_user_while_vectors_are_pending_leaves_nothing_behind() throws Exception {
        open();
        embedder.gate = new CountDownLatch(1);
        memory.recordTurn(ALICE, "s1", Turn.user("I'm allergic to dipyrone. I live in Recife."));
        Thread erase = new Thread(() -> memory.admin().eraseEndUser(ALICE));
        erase.start();
        Thread.sleep(50);
        embedder.gate.countDown();
        erase.join(10_000);
        memory.flush();

        assertThat(erase.isAlive()).isFalse();
        assertThat(observations()).isEmpty();
        assertThat(store.sessionTurns(ALICE, "s1", 0, 10)).isEmpty();
    }
}
