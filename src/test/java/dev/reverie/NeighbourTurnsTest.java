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
import static org.assertj.core.api.Assertions.within;

/**
 * The reply to a strongly matching turn joins the ranking just below it, also when the turn search
 * found the reply on its own through a word it shares with the query only by chance (here the
 * speaker's name, which is indexed with every turn): the reply then takes the higher of its own
 * score and the one its anchor gives it, instead of staying at the bottom of the list.
 */
class NeighbourTurnsTest {

    static final Instant T0 = Instant.parse("2023-03-01T10:00:00Z");
    static final Scope SCOPE = Scope.of("acme", "coach", "household");
    static final Set<MemoryKind> KINDS = EnumSet.complementOf(EnumSet.of(MemoryKind.STYLE));
    static final String QUESTION = "What does Omar plan for the summer holidays?";
    static final String REPLY = "Restoring an old sailboat with my uncle, then a week of climbing in the Alps.";

    @TempDir
    Path dir;

    List<ScoredCandidate> retrieve(MemoryStore store, int neighbourTurns) {
        MemoryPolicy policy = MemoryPolicy.builder().neighbourTurns(neighbourTurns).build();
        return new Retriever(store, policy, null).retrieve(SCOPE, QUESTION, null, KINDS, false, true, true, "s99", 0,
                T0.plus(Duration.ofDays(2)), 200, Integer.MAX_VALUE);
    }

    static int indexOf(List<ScoredCandidate> ranked, String id) {
        for (int i = 0; i < ranked.size(); i++) {
            if (ranked.get(i).candidate().id().equals(id)) {
                return i;
            }
        }
        return -1;
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "lucene"})
    void a_reply_found_only_through_the_speakers_name_ranks_as_its_anchors_neighbour(String kind) {
        try (MemoryStore store = MemoryStores.open(kind + ":" + dir)) {
            WriteBatch batch = WriteBatch.of(SCOPE);
            batch.archive(new SessionTurn(SCOPE, "s1", 0, "A:1", Role.USER, "Lena",
                    "The summer holidays are close! What do you plan to do, Omar?", T0));
            batch.archive(new SessionTurn(SCOPE, "s1", 1, "A:2", Role.USER, "Omar", REPLY, T0.plusSeconds(30)));
            // other sessions: one query word each, so they outrank the reply on its own
            String[] others = {"I plan to repaint the kitchen next month.", "No plan yet for the garden.",
                    "The plan for the team dinner changed again.", "My plan is to read more this year.",
                    "We need a plan for the move.", "Any plan for the weekend?"};
            for (int i = 0; i < others.length; i++) {
                batch.archive(new SessionTurn(SCOPE, "s" + (2 + i), 0, "B:" + i, Role.USER, "Omar", others[i],
                        T0.plusSeconds(3_600L * (i + 1))));
            }
            store.write(batch);

            List<ScoredCandidate> alone = retrieve(store, 0);
            int replyAlone = indexOf(alone, "turn:s1:1");
            assertThat(replyAlone).as("the search finds the reply on its own, through the speaker's name")
                    .isGreaterThan(0);
            assertThat(alone.get(0).candidate().id()).isEqualTo("turn:s1:0");

            List<ScoredCandidate> ranked = retrieve(store, 2);
            ScoredCandidate anchor = ranked.get(0);
            assertThat(anchor.candidate().id()).isEqualTo("turn:s1:0");
            int reply = indexOf(ranked, "turn:s1:1");
            assertThat(ranked.get(reply).score()).as("the anchor's score, discounted")
                    .isCloseTo(anchor.score() * MemoryPolicy.defaults().neighbourDiscount(), within(1e-9))
                    .isGreaterThan(alone.get(replyAlone).score());
            assertThat(reply).as("above the turns that share one query word").isLessThan(replyAlone);
            assertThat(ranked).extracting(sc -> sc.candidate().id()).doesNotHaveDuplicates();
        }
    }
}
