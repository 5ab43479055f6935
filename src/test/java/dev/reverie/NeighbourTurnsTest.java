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

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "lucene", "postgres"})
    void the_reply_to_a_matching_question_ranks_above_the_turn_before_it(String kind) {
        String location = kind.equals("postgres")
                ? dev.reverie.store.postgres.EmbeddedPostgresServer.url(Path.of("neighbours-" + dir.getFileName()))
                : kind + ":" + dir;
        try (MemoryStore store = MemoryStores.open(location)) {
            WriteBatch batch = WriteBatch.of(SCOPE);
            batch.archive(new SessionTurn(SCOPE, "s1", 0, "A:0", Role.USER, "Lena", "Nice photo of the lake!", T0));
            batch.archive(new SessionTurn(SCOPE, "s1", 1, "A:1", Role.USER, "Lena",
                    "The summer holidays are close! What do you plan to do, Omar?", T0.plusSeconds(30)));
            batch.archive(new SessionTurn(SCOPE, "s1", 2, "A:2", Role.USER, "Ana", REPLY, T0.plusSeconds(60)));
            store.write(batch);

            List<ScoredCandidate> ranked = retrieve(store, 1);
            ScoredCandidate anchor = ranked.get(0);
            assertThat(anchor.candidate().id()).isEqualTo("turn:s1:1");
            double discount = MemoryPolicy.defaults().neighbourDiscount();
            ScoredCandidate reply = ranked.get(indexOf(ranked, "turn:s1:2"));
            ScoredCandidate before = ranked.get(indexOf(ranked, "turn:s1:0"));
            assertThat(reply.score()).isCloseTo(anchor.score() * discount, within(1e-9));
            assertThat(before.score()).isCloseTo(anchor.score() * discount * Retriever.BEFORE_ANCHOR, within(1e-9));
            assertThat(indexOf(ranked, "turn:s1:2")).as("the reply first").isLessThan(indexOf(ranked, "turn:s1:0"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "lucene"})
    void the_store_reads_only_the_window_turns_the_searches_did_not_find(String kind) {
        try (MemoryStore real = MemoryStores.open(kind + ":" + dir)) {
            WriteBatch batch = WriteBatch.of(SCOPE);
            // one session: the question's words in turns 0, 1 and 3, none in 2 and 4
            String[] texts = {"What do you plan for the summer holidays, Omar?", "Omar: summer plans first!",
                    "Restoring an old sailboat with my uncle.", "Then the holidays in the Alps.", "Sounds great."};
            for (int i = 0; i < texts.length; i++) {
                batch.archive(new SessionTurn(SCOPE, "s1", i, "A:" + i, Role.USER, i % 2 == 0 ? "Lena" : "Ana",
                        texts[i], T0.plusSeconds(30L * i)));
            }
            real.write(batch);
            List<List<dev.reverie.spi.TurnRange>> reads = new java.util.ArrayList<>();
            MemoryStore store = (MemoryStore) java.lang.reflect.Proxy.newProxyInstance(
                    MemoryStore.class.getClassLoader(), new Class<?>[] {MemoryStore.class}, (proxy, method, args) -> {
                        if (method.getName().equals("archivedTurns") && args.length == 2 && args[1] instanceof List<?> l) {
                            @SuppressWarnings("unchecked")
                            List<dev.reverie.spi.TurnRange> ranges = (List<dev.reverie.spi.TurnRange>) l;
                            reads.add(List.copyOf(ranges));
                        }
                        try {
                            return method.invoke(real, args);
                        } catch (java.lang.reflect.InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });

            List<ScoredCandidate> ranked = retrieve(store, 2);
            assertThat(ranked).extracting(sc -> sc.candidate().id())
                    .contains("turn:s1:0", "turn:s1:1", "turn:s1:2", "turn:s1:3", "turn:s1:4").doesNotHaveDuplicates();
            // the windows cover seqs 0–5 and the searches found 0, 1 and 3: one range, from the first
            // turn they did not find to the last (2–5; 5 is past the session's last turn)
            assertThat(reads).containsExactly(List.of(new dev.reverie.spi.TurnRange("s1", 2, 5)));
            // the same ranking through the real store (which the proxy only watches)
            assertThat(ranked).isEqualTo(retrieve(real, 2));
        }
    }

    @org.junit.jupiter.api.Test
    void unknown_parts_are_the_ranges_trimmed_to_what_is_not_known_and_merged() {
        java.util.TreeMap<Long, SessionTurn> s1 = new java.util.TreeMap<>();
        for (long seq : new long[] {3, 4, 7, 20, 21}) {
            s1.put(seq, new SessionTurn(SCOPE, "s1", seq, "t" + seq, Role.USER, null, "x", T0));
        }
        java.util.Map<String, java.util.TreeMap<Long, SessionTurn>> known = java.util.Map.of("s1", s1);
        long max = Long.MAX_VALUE;
        assertThat(Retriever.unknownParts(List.of(
                new dev.reverie.spi.TurnRange("s1", 3, 8),      // 5, 6, 8 missing: 5–8 (7 read again)
                new dev.reverie.spi.TurnRange("s1", 3, 4),      // all known: nothing
                new dev.reverie.spi.TurnRange("s2", 0, 2),      // a session with nothing known
                new dev.reverie.spi.TurnRange("s1", 9, 11),     // adjacent to 5–8: merged into 5–11
                new dev.reverie.spi.TurnRange("s1", 19, 22),    // 19 and 22 missing: 19–22
                new dev.reverie.spi.TurnRange("s3", max - 4, max)), known)) // the last seqs there are
                .containsExactly(new dev.reverie.spi.TurnRange("s1", 5, 11), new dev.reverie.spi.TurnRange("s1", 19, 22),
                        new dev.reverie.spi.TurnRange("s2", 0, 2), new dev.reverie.spi.TurnRange("s3", max - 4, max));
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "lucene"})
    void hundreds_of_anchors_get_their_neighbours(String kind) {
        try (MemoryStore store = MemoryStores.open(kind + ":" + dir)) {
            // 400 sessions whose middle turn matches: 400 anchors, each with two unmatched neighbours
            WriteBatch batch = WriteBatch.of(SCOPE);
            for (int s = 0; s < 400; s++) {
                batch.archive(new SessionTurn(SCOPE, "s" + s, 0, "a" + s, Role.USER, "Lena", "Good morning!",
                        T0.plusSeconds(60L * s)));
                batch.archive(new SessionTurn(SCOPE, "s" + s, 1, "b" + s, Role.USER, "Omar",
                        "Summer holidays plan number " + s, T0.plusSeconds(60L * s + 1)));
                batch.archive(new SessionTurn(SCOPE, "s" + s, 2, "c" + s, Role.USER, "Lena", "Lovely, enjoy!",
                        T0.plusSeconds(60L * s + 2)));
            }
            store.write(batch);
            MemoryPolicy policy = MemoryPolicy.builder().candidateLimit(500).neighbourTurns(1).neighbourAnchors(400)
                    .neighbourMinRelevance(0).build();
            List<ScoredCandidate> ranked = new Retriever(store, policy, null).retrieve(SCOPE,
                    "summer holidays plan", null, KINDS, false, true, true, "s999", 0,
                    T0.plus(Duration.ofDays(2)), 2_000, Integer.MAX_VALUE);
            List<String> ids = ranked.stream().map(sc -> sc.candidate().id()).toList();
            assertThat(ids).doesNotHaveDuplicates();
            for (int s = 0; s < 400; s++) {
                assertThat(ids).as("session %d's middle turn and both its neighbours", s)
                        .contains("turn:s" + s + ":0", "turn:s" + s + ":1", "turn:s" + s + ":2");
            }
        }
    }
}
