package dev.reverie;

import dev.reverie.extract.RuleBasedExtractor;
import dev.reverie.spi.Embedder;
import dev.reverie.spi.Extractor;
import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.MemoryStores;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Failures the manager absorbs instead of throwing (an extractor that throws, an LLM answer that
 * falls back to the rules, an embedder that fails) are counted in {@code health().failures()}, on
 * every store. The warnings they log carry no stack trace.
 */
class AbsorbedFailuresTest {

    static final Instant T0 = Instant.parse("2026-05-04T12:00:00Z");
    static final Scope ALICE = Scope.of("clinic-42", "receptionist", "alice");

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "lucene"})
    void an_extractor_that_throws_is_counted_and_the_turn_is_still_recorded(String scheme) {
        RuleBasedExtractor rules = new RuleBasedExtractor();
        Extractor flaky = turn -> {
            if (turn.text().contains("boom")) {
                throw new IllegalStateException("extractor bug");
            }
            return rules.extract(turn);
        };
        try (MemoryStore store = MemoryStores.open(scheme + ":" + dir);
             ContextManager memory = ContextManager.builder().store(store).clock(new MutableClock(T0))
                     .extractor(flaky).build()) {
            TurnReceipt r = memory.recordTurn(ALICE, "s1", Turn.user("boom: I live in Recife."));
            memory.recordTurn(ALICE, "s1", Turn.user("I'm allergic to penicillin."));

            assertThat(r.observations()).isZero();
            assertThat(store.sessionTurns(ALICE, "s1", 0, 10)).hasSize(2);
            LayerHealth.Failures f = memory.health().failures();
            assertThat(f.extractorErrors()).isEqualTo(1);
            assertThat(memory.health().toMap()).containsEntry("reverie.failures.extractor_errors", 1L);

            memory.resetHealth();
            assertThat(memory.health().failures().none()).isTrue();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "lucene"})
    void an_llm_extraction_that_falls_back_to_the_rules_is_counted(String scheme) {
        try (MemoryStore store = MemoryStores.open(scheme + ":" + dir);
             ContextManager memory = ContextManager.builder().store(store).clock(new MutableClock(T0))
                     .languageModel(prompt -> "this is not JSON").build()) {
            TurnReceipt r = memory.recordTurn(ALICE, "s1", Turn.user("I'm allergic to penicillin."));

            assertThat(r.observations()).isPositive(); // the rules took over
            assertThat(memory.health().failures().extractionFallbacks()).isEqualTo(1);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "lucene"})
    void an_embedder_that_fails_is_counted_and_leaves_the_turn_lexically_searchable(String scheme) {
        Embedder broken = new Embedder() {
            @Override
            public int dimension() {
                return 3;
            }

            @Override
            public float[] embed(String text) {
                throw new IllegalStateException("embedding service down");
            }
        };
        try (MemoryStore store = MemoryStores.open(scheme + ":" + dir);
             ContextManager memory = ContextManager.builder().store(store).clock(new MutableClock(T0))
                     .embedder(broken).build()) {
            memory.recordTurn(ALICE, "s1", Turn.user("I'm allergic to penicillin."));
            memory.flush();

            assertThat(memory.health().failures().embeddingFailures()).isEqualTo(1);
            assertThat(memory.health().failures().embeddingDrops()).isZero();
            assertThat(store.searchTurns(ALICE, "penicillin", 5)).hasSize(1);
        }
    }
}
