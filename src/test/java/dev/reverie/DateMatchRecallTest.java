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
 * A question that names a day or a month ("what did Omar start on 3 June, 2023?") is about what was
 * said then: a turn of that day outranks turns of other days that match the question as well (its
 * score is {@code 1 + dateMatchBoost} times its plain score). With {@code dateMatchBoost(0)} the ranking ignores
 * the date.
 */
class DateMatchRecallTest {

    static final Instant JUNE_3 = Instant.parse("2023-06-03T18:00:00Z");
    static final Scope SCOPE = Scope.of("acme", "coach", "household");
    static final Set<MemoryKind> KINDS = EnumSet.complementOf(EnumSet.of(MemoryKind.STYLE));

    @TempDir
    Path dir;

    List<ScoredCandidate> retrieve(MemoryStore store, String question, double boost) {
        MemoryPolicy policy = MemoryPolicy.builder().dateMatchBoost(boost).neighbourTurns(0).build();
        return new Retriever(store, policy, null).retrieve(SCOPE, question, null, KINDS, false, true, true, "s99", 0,
                JUNE_3.plus(Duration.ofDays(90)), 200, Integer.MAX_VALUE);
    }

    double plainScore(MemoryStore store, String q, String id) {
        return retrieve(store, q, 0).stream().filter(sc -> sc.candidate().id().equals(id)).findFirst()
                .orElseThrow().score();
    }

    static void fill(MemoryStore store) {
        WriteBatch batch = WriteBatch.of(SCOPE);
        // the same words on five days, two weeks apart; the one of 3 June is in the middle
        String[] texts = {"I just started a pottery class on Tuesdays.", "I started running with a club.",
            "We started a small vegetable garden.", "I started learning the cello.", "I started a book club."};
        for (int i = 0; i < texts.length; i++) {
            Instant at = JUNE_3.plus(Duration.ofDays(14L * (i - 2)));
            batch.archive(new SessionTurn(SCOPE, "s" + i, 0, "T:" + i, Role.USER, "Omar", texts[i], at));
        }
        store.write(batch);
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "lucene"})
    void a_turn_of_the_named_day_ranks_first(String kind) {
        try (MemoryStore store = MemoryStores.open(kind + ":" + dir)) {
            fill(store);
            String q = "What did Omar say he started, as mentioned on 3 June, 2023?";
            List<ScoredCandidate> boosted = retrieve(store, q, 0.5);
            assertThat(boosted.get(0).candidate().id()).isEqualTo("turn:s2:0");
            assertThat(boosted.get(0).score()).as("1.5 times its plain score")
                    .isCloseTo(1.5 * plainScore(store, q, "turn:s2:0"), org.assertj.core.api.Assertions.within(1e-9));

            List<ScoredCandidate> plain = retrieve(store, q, 0);
            assertThat(plain).extracting(sc -> sc.candidate().id()).contains("turn:s2:0");
            assertThat(plain.get(0).candidate().id()).as("without the boost the date does not decide")
                    .isNotEqualTo("turn:s2:0");

            List<ScoredCandidate> month = retrieve(store, "What did Omar start in June?", 0.5);
            assertThat(month.get(0).candidate().provenance().observedAt())
                    .as("a turn said in June (3 or 17 June) ranks first")
                    .isIn(JUNE_3, JUNE_3.plus(Duration.ofDays(14)));
        }
    }
}
