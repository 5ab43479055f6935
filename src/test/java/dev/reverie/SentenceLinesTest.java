package dev.reverie;

import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.MemoryStores;
import dev.reverie.spi.WriteBatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Facts read from one sentence share one line of the memory block that quotes the sentence once
 * ({@code ContextAssembler.SentenceLines}), through {@link ContextManager#buildContext}: on SQLite here,
 * on Lucene and PostgreSQL in the subclasses.
 */
class SentenceLinesTest {

    static final Instant T0 = Instant.parse("2026-03-01T09:00:00Z");
    static final Scope ALICE = Scope.of("clinic-42", "receptionist", "alice");
    static final String SYSTEM = "You are the clinic's receptionist. Be brief and kind.";

    @TempDir
    Path dir;
    MemoryStore store;
    MutableClock clock;
    ContextManager memory;
    int ids;

    /** The store under test: a SQLite folder here. */
    MemoryStore newStore() {
        return MemoryStores.open("sqlite:" + dir);
    }

    @BeforeEach
    void setUp() {
        store = newStore();
        clock = new MutableClock(T0);
        memory = ContextManager.builder().store(store).immutable(ImmutableLayer.of(SYSTEM)).clock(clock).build();
    }

    @AfterEach
    void tearDown() {
        memory.close();
        store.close();
    }

    AssembledContext ask(Scope scope, String query, int budget) {
        return memory.buildContext(ContextRequest.builder(scope, "session-1").query(query).budgetTokens(budget).build());
    }

    Memory rememberFrom(String turnId, Trust trust, String subject, String text, double importance, boolean permanent) {
        Source source = trust == Trust.THIRD_PARTY ? Source.TOOL : Source.USER;
        Memory m = Memory.builder("m" + (++ids), ALICE, MemoryKind.FACT, text, T0).subject(subject)
                .importance(importance).permanent(permanent)
                .provenance(new Provenance(source, "s0", turnId, T0, Outcome.UNKNOWN, trust))
                .sourceTurnIds(List.of(turnId)).build();
        store.write(WriteBatch.of(ALICE).put(m));
        return m;
    }

    @Test
    void facts_read_from_one_sentence_share_one_line_that_quotes_it_once() {
        String furQuote = " (\"I'm allergic to most reptiles and animals with fur.\")";
        rememberFrom("t1", Trust.FIRST_PARTY, "user.allergy", "Alice is allergic to animals with fur" + furQuote, 90, true);
        rememberFrom("t1", Trust.FIRST_PARTY, "user.allergy2", "Alice is allergic to most reptiles" + furQuote, 90, true);
        // a doubt the sentence voices stays next to both of its facts
        String doubt = " (\"I don't know if I'm allergic to penicillin and aspirin.\")";
        rememberFrom("t2", Trust.FIRST_PARTY, "user.allergy3", "Alice is allergic to penicillin" + doubt, 70, false);
        rememberFrom("t2", Trust.FIRST_PARTY, "user.allergy4", "Alice is allergic to aspirin" + doubt, 70, false);
        // the same sentence read from a tool's text is marked, so it keeps a line of its own
        rememberFrom("t3", Trust.THIRD_PARTY, "user.allergy5", "Alice is allergic to aspirin" + doubt, 40, false);
        rememberFrom("t4", Trust.FIRST_PARTY, "user.pet", "Alice wants a pet turtle (\"I'd love a turtle, they are calm.\")",
                60, false);
        AssembledContext ctx = ask(ALICE, "is Alice allergic to penicillin, aspirin or reptiles like a turtle?", 2_000);
        String block = ctx.messages(Layer.PERSISTENT).get(0).content();
        assertThat(block).contains("- [2026-03-01] (fact) Alice is allergic to animals with fur; Alice is allergic to "
                        + "most reptiles" + furQuote + "\n")
                .contains("- [2026-03-01] (fact) Alice is allergic to penicillin; Alice is allergic to aspirin" + doubt
                        + "\n")
                .contains("Alice wants a pet turtle (\"I'd love a turtle, they are calm.\")\n");
        assertThat(block.split("most reptiles and animals with fur", -1)).hasSize(2);
        assertThat(block.split("I don't know if", -1)).hasSize(2);
        String third = ctx.messages(Layer.PERSISTENT).get(1).content();
        assertThat(ctx.messages(Layer.PERSISTENT).get(1).role()).isEqualTo(Role.USER);
        assertThat(third).contains("Alice is allergic to aspirin" + doubt).doesNotContain("Alice is allergic to penicillin");
        // every memory is still reported, the pinned ones as pinned
        assertThat(ctx.recalled()).extracting(RecalledMemory::text).containsExactlyInAnyOrder(
                "Alice is allergic to animals with fur" + furQuote, "Alice is allergic to most reptiles" + furQuote,
                "Alice is allergic to penicillin" + doubt, "Alice is allergic to aspirin" + doubt,
                "Alice is allergic to aspirin" + doubt, "Alice wants a pet turtle (\"I'd love a turtle, they are calm.\")");
        assertThat(ctx.recalled()).filteredOn(RecalledMemory::pinned).extracting(RecalledMemory::text)
                .containsExactlyInAnyOrder("Alice is allergic to animals with fur" + furQuote,
                        "Alice is allergic to most reptiles" + furQuote);
        assertThat(ctx.usage().total()).isLessThanOrEqualTo(2_000);
    }

    @Test
    void sentences_that_end_with_a_bracketed_quote_of_their_own_are_not_taken_for_one_sentence() {
        String furry = " (\"the furry ones\").\")";
        rememberFrom("t1", Trust.FIRST_PARTY, "user.allergy", "Alice is allergic to cats (\"I think I'm allergic to cats"
                + furry, 70, false);
        rememberFrom("t1", Trust.FIRST_PARTY, "user.allergy2", "Alice is allergic to dogs (\"I guess I'm allergic to dogs"
                + furry, 70, false);
        AssembledContext ctx = ask(ALICE, "is Alice allergic to cats or dogs?", 2_000);
        String block = ctx.messages(Layer.PERSISTENT).get(0).content();
        assertThat(block).contains("- [2026-03-01] (fact) Alice is allergic to cats (\"I think I'm allergic to cats"
                        + furry + "\n")
                .contains("- [2026-03-01] (fact) Alice is allergic to dogs (\"I guess I'm allergic to dogs" + furry + "\n");
    }

    @Test
    void a_joined_line_is_charged_what_it_costs_so_a_budget_too_small_for_two_lines_holds_both_facts() {
        String quote = " (\"My sister Maria and my brother Tom both live in Porto near the river.\")";
        rememberFrom("t1", Trust.FIRST_PARTY, "user.sibling", "Alice has a sister named Maria" + quote, 60, false);
        rememberFrom("t1", Trust.FIRST_PARTY, "user.sibling2", "Alice has a brother named Tom" + quote, 60, false);
        memory.close();
        // the memory block may take all the budget the other layers leave
        memory = ContextManager.builder().store(store).immutable(ImmutableLayer.of(SYSTEM)).clock(clock)
                .policy(MemoryPolicy.builder().persistentShare(1.0).build()).build();
        String query = "where do Alice's sister Maria and brother Tom live?";
        AssembledContext wide = ask(ALICE, query, 2_000);
        String joined = "- [2026-03-01] (fact) Alice has a sister named Maria; Alice has a brother named Tom" + quote;
        assertThat(wide.messages(Layer.PERSISTENT).get(0).content()).contains(joined + "\n");
        // two lines quoting the sentence each would cost this much more than the joined one
        dev.reverie.spi.TokenCounter counter = dev.reverie.spi.TokenCounter.o200k();
        int more = counter.count("- [2026-03-01] (fact) Alice has a sister named Maria" + quote) + 1
                + counter.count("- [2026-03-01] (fact) Alice has a brother named Tom" + quote) + 1
                - counter.count(joined) - 1;
        assertThat(more).isGreaterThan(15);
        // a few tokens over the joined context's size (packing estimates a line's newline apart), far
        // under two lines': both facts fit, so the join is charged its own tokens
        AssembledContext tight = ask(ALICE, query, wide.usage().total() + 5);
        assertThat(tight.messages(Layer.PERSISTENT).get(0).content()).contains(joined + "\n");
        assertThat(tight.recalled()).hasSize(2);
        assertThat(tight.usage().total()).isEqualTo(wide.usage().total());
    }

    @Test
    void a_turn_that_replaces_a_joined_line_takes_only_the_facts_of_its_own_session_with_it() {
        memory.close();
        // memories first, in score order, each packed as a line: the turn comes after both
        memory = ContextManager.builder().store(store).immutable(ImmutableLayer.of(SYSTEM)).clock(clock)
                .policy(MemoryPolicy.builder().quoteSourceTurns(false).mmrLambda(1.0).build()).build();
        String quote = " (\"I'm allergic to penicillin and aspirin, said the nurse.\")";
        store.write(WriteBatch.of(ALICE).archive(new dev.reverie.spi.SessionTurn(ALICE, "s0", 0, "t1", Role.USER,
                "Alice", "The nurse checked my chart; I'm allergic to penicillin and aspirin, said the nurse.",
                T0.minus(Duration.ofDays(30)))));
        rememberFrom("t1", Trust.FIRST_PARTY, "user.allergy", "Alice is allergic to penicillin" + quote, 99, false);
        rememberFrom("t1", Trust.FIRST_PARTY, "user.allergy2", "Alice is allergic to aspirin" + quote, 98, false);
        // the same turn id in another session (hosts may reuse ids across sessions): not that turn
        Memory other = Memory.builder("m-other", ALICE, MemoryKind.FACT, "Alice is allergic to ibuprofen" + quote, T0)
                .subject("user.allergy3").importance(97)
                .provenance(new Provenance(Source.USER, "s9", "t1", T0, Outcome.UNKNOWN, Trust.FIRST_PARTY))
                .sourceTurnIds(List.of("t1")).build();
        store.write(WriteBatch.of(ALICE).put(other));
        AssembledContext ctx = ask(ALICE, "is Alice allergic to penicillin, aspirin or ibuprofen?", 2_000);
        String block = ctx.messages(Layer.PERSISTENT).get(0).content();
        assertThat(block).contains("Alice: The nurse checked my chart")
                .doesNotContain("Alice is allergic to penicillin").doesNotContain("Alice is allergic to aspirin")
                .contains("- [2026-03-01] (fact) Alice is allergic to ibuprofen" + quote + "\n");
        assertThat(ctx.recalled()).extracting(RecalledMemory::memoryId).contains("m-other", "t1")
                .doesNotContain("m1", "m2");
        assertThat(ctx.usage().total()).isLessThanOrEqualTo(2_000);
    }
}
