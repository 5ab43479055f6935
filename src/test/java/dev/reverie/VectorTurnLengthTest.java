package dev.reverie;

import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.MemoryStores;
import dev.reverie.spi.SessionTurn;
import dev.reverie.spi.WriteBatch;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A short past turn ("Cool! What did it look like?") is no vector candidate: its embedding lies close
 * to almost any question. It still competes lexically; longer turns compete by vector as before, and
 * {@code minVectorTurnTerms(0)} keeps every vector hit.
 */
class VectorTurnLengthTest {

    static final Instant T0 = Instant.parse("2024-05-01T09:00:00Z");
    static final Scope SCOPE = Scope.of("acme", "coach", "household");
    static final Set<MemoryKind> KINDS = EnumSet.complementOf(EnumSet.of(MemoryKind.STYLE));

    @TempDir
    Path dir;

    List<String> retrieve(MemoryStore store, MemoryPolicy policy, String query, float[] vector) {
        return new Retriever(store, policy, null).retrieve(SCOPE, query, vector, KINDS, false, true, true, "s99", 0,
                T0.plus(Duration.ofDays(1)), 200, Integer.MAX_VALUE).stream().map(sc -> sc.candidate().id()).toList();
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "lucene"})
    void short_turns_compete_lexically_but_not_by_vector(String kind) {
        try (MemoryStore store = MemoryStores.open(kind + ":" + dir)) {
            store.write(WriteBatch.of(SCOPE)
                    // the nearest vector, four content words
                    .archive(new SessionTurn(SCOPE, "s1", 0, "a", Role.USER, "Lena", "Cool! What did it look like?",
                            T0), Embedding.of(new float[] {1, 0, 0}))
                    // further, but a real answer: eight content words or more
                    .archive(new SessionTurn(SCOPE, "s2", 0, "b", Role.USER, "Omar",
                            "We restored the old wooden sailboat with my uncle during the long summer holidays",
                            T0.plusSeconds(60)), Embedding.of(new float[] {0.7f, 0.7f, 0})));
            float[] question = {1, 0.1f, 0};
            MemoryPolicy defaults = MemoryPolicy.defaults();
            assertThat(defaults.minVectorTurnTerms()).isEqualTo(8);
            // a question sharing no word with either turn: only vector hits
            assertThat(retrieve(store, defaults, "Which boat project happened?", question))
                    .containsExactly("turn:s2:0");
            assertThat(retrieve(store, MemoryPolicy.builder().minVectorTurnTerms(0).build(),
                    "Which boat project happened?", question))
                    .containsExactly("turn:s1:0", "turn:s2:0");
            // the short turn is still found by its words
            assertThat(retrieve(store, defaults, "what did it look like", question)).contains("turn:s1:0");
        }
    }

    @org.junit.jupiter.api.Test
    void a_negative_minimum_is_refused_with_its_name() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> MemoryPolicy.builder().minVectorTurnTerms(-1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("minVectorTurnTerms");
    }
}
