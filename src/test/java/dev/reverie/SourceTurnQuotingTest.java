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
 * A one-sentence memory picked for the context brings its source turn along when the turn search
 * found that turn, even if diversity did not pick it (the two share most words), so the packer
 * can quote what was said instead of the fragment.
 */
class SourceTurnQuotingTest {

    static final Instant T0 = Instant.parse("2023-01-20T10:00:00Z");
    static final Scope OMAR = Scope.of("acme", "coach", "omar");
    static final Set<MemoryKind> KINDS = EnumSet.complementOf(EnumSet.of(MemoryKind.STYLE));
    static final String SOURCE = "Thanks, Lena! I ride every kind of bike, but gravel is my favourite. Long routes"
            + " through the hills are the best! What do you ride?";

    @TempDir
    Path dir;

    List<ScoredCandidate> retrieve(MemoryStore store, boolean quote) {
        // no neighbour windows: the source turn sits next to the strongly matching turns, and a
        // neighbour would bring it whatever quoting does (NeighbourTurnsTest covers that path)
        MemoryPolicy policy = MemoryPolicy.builder().quoteSourceTurns(quote).neighbourTurns(0).build();
        return new Retriever(store, policy, null).retrieve(OMAR, "Which bike is Omar's favourite?", null, KINDS,
                false, true, true, "s9", 0, T0.plus(Duration.ofDays(2)), 200, 40);
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "lucene"})
    void a_picked_fragment_brings_its_source_turn_after_the_picks(String kind) {
        try (MemoryStore store = MemoryStores.open(kind + ":" + dir)) {
            WriteBatch batch = WriteBatch.of(OMAR);
            batch.archive(new SessionTurn(OMAR, "s1", 0, "D1:8", Role.USER, "Omar", SOURCE, T0));
            for (int i = 1; i <= 6; i++) {
                batch.archive(new SessionTurn(OMAR, "s1", i, "D1:" + (8 + i), Role.USER, "Omar",
                        "Bike, bike, bike: my favourite for the club is bike number " + i + ".",
                        T0.plusSeconds(60L * i)));
            }
            batch.put(new Observation("o1", OMAR, MemoryKind.EVENT,
                    "Omar: I ride every kind of bike, but gravel is my favourite.", "omar.episode.bikes", "",
                    Cardinality.MULTI, Polarity.POSITIVE, 0.9, T0, "s1",
                    Provenance.ofTurn(Role.USER, "s1", "D1:8", T0), List.of("D1:8"), 1,
                    ObservationStatus.PENDING, null, null));
            store.write(batch);

            List<ScoredCandidate> without = retrieve(store, false);
            assertThat(without).extracting(sc -> sc.candidate().id()).contains("o1")
                    .as("diversity alone keeps the fragment and drops its turn").doesNotContain("turn:s1:0");

            List<ScoredCandidate> with = retrieve(store, true);
            assertThat(with.subList(0, without.size())).containsExactlyElementsOf(without);
            assertThat(with.subList(without.size(), with.size())).extracting(sc -> sc.candidate().id())
                    .containsExactly("turn:s1:0");
            assertThat(with.get(with.size() - 1).candidate().turn().text()).isEqualTo(SOURCE);
        }
    }
}
