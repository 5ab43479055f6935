package dev.reverie;

import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.MemoryStores;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Episodic recall (DESIGN §5 "Sources and fusion"): the verbatim turns of past sessions compete for
 * the persistent layer, written in the turn's own transaction, within their retention, never
 * duplicating what the temporal layer already holds. Runs on both stores.
 */
class EpisodicRecallTest {

    static final Instant T0 = Instant.parse("2026-03-01T09:00:00Z");
    static final Scope ALICE = Scope.of("clinic-42", "receptionist", "alice");
    static final Scope BOB = Scope.of("clinic-42", "receptionist", "bob");

    @TempDir
    Path dir;
    MemoryStore store;
    MutableClock clock;
    ContextManager memory;

    void open(String kind) {
        store = MemoryStores.open(kind + ":" + dir);
        clock = new MutableClock(T0);
        memory = ContextManager.builder().store(store).immutable(ImmutableLayer.of("You are a helpful assistant."))
                .clock(clock).build();
    }

    @AfterEach
    void tearDown() {
        if (memory != null) {
            memory.close();
            store.close();
        }
    }

    AssembledContext ask(Scope scope, String session, String query, int budget) {
        return memory.buildContext(ContextRequest.builder(scope, session).query(query).budgetTokens(budget).build());
    }

    static List<RecalledMemory> episodes(AssembledContext ctx) {
        return ctx.recalled().stream().filter(RecalledMemory::episode).toList();
    }

    static String persistent(AssembledContext ctx) {
        return ctx.messages().stream().filter(m -> m.layer() == Layer.PERSISTENT).map(ContextMessage::content)
                .findFirst().orElse("");
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "lucene"})
    void a_past_sessions_turn_is_recalled_verbatim_with_its_turn_id(String kind) {
        open(kind);
        memory.recordTurn(ALICE, "s1",
                Turn.user("We finally booked the venue: the ceremony will be at the old lighthouse in Porto.")
                        .withId("D1:1").at(T0),
                Turn.assistant("That sounds lovely!").withId("D1:2").at(T0));
        memory.recordTurn(BOB, "s1", Turn.user("My ceremony is at the lighthouse too.").withId("B1:1").at(T0));
        clock.set(T0.plus(Duration.ofDays(3)));

        AssembledContext ctx = ask(ALICE, "s2", "Where will the ceremony be held?", 2_000);

        assertThat(episodes(ctx)).extracting(RecalledMemory::memoryId).contains("D1:1");
        RecalledMemory turn = episodes(ctx).stream().filter(r -> r.memoryId().equals("D1:1")).findFirst().orElseThrow();
        assertThat(turn.sourceTurnIds()).containsExactly("D1:1");
        assertThat(turn.origin()).isEqualTo(RecalledMemory.Origin.TURN);
        assertThat(persistent(ctx)).contains("the ceremony will be at the old lighthouse in Porto")
                .doesNotContain("My ceremony is at the lighthouse too");
        assertThat(ctx.recalled()).flatExtracting(RecalledMemory::sourceTurnIds).doesNotContain("B1:1");
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "lucene"})
    void the_answer_in_the_reply_comes_with_a_strongly_matching_turn(String kind) {
        open(kind);
        memory.recordTurn(ALICE, "s1",
                Turn.user("What instrument did your grandfather play at the village festival?").withId("D1:1").at(T0),
                Turn.user("He played the accordion every single summer.").withId("D1:2").at(T0),
                Turn.user("Unrelated remark about parking downtown.").withId("D1:3").at(T0));
        clock.set(T0.plus(Duration.ofDays(3)));

        AssembledContext ctx = ask(ALICE, "s2", "What instrument did the grandfather play at the festival?", 2_000);

        assertThat(episodes(ctx)).extracting(RecalledMemory::memoryId).contains("D1:1", "D1:2");
        assertThat(persistent(ctx)).contains("He played the accordion every single summer.");
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "lucene"})
    void the_current_sessions_verbatim_turns_are_not_recalled_twice(String kind) {
        open(kind);
        memory.recordTurn(ALICE, "s1", Turn.user("My favourite tea is genmaicha from Kyoto.").withId("D1:1").at(T0));

        AssembledContext ctx = ask(ALICE, "s1", "Which tea is my favourite?", 2_000);

        assertThat(episodes(ctx)).isEmpty();
        assertThat(ctx.messages()).filteredOn(m -> m.layer() == Layer.TEMPORAL).extracting(ContextMessage::content)
                .anySatisfy(c -> assertThat(c).contains("genmaicha"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "lucene"})
    void a_memory_and_its_own_source_turn_are_not_both_packed(String kind) {
        open(kind);
        memory.recordTurn(ALICE, "s1", Turn.user("I'm allergic to penicillin.").withId("D1:1").at(T0));
        memory.dream(ALICE);
        clock.set(T0.plus(Duration.ofDays(3)));

        AssembledContext ctx = ask(ALICE, "s2", "Am I allergic to penicillin?", 2_000);

        List<RecalledMemory> fromTurn = ctx.recalled().stream()
                .filter(r -> r.sourceTurnIds().equals(List.of("D1:1")) && !r.pinned()).toList();
        assertThat(fromTurn).hasSizeLessThanOrEqualTo(1);
        assertThat(ctx.recalled()).flatExtracting(RecalledMemory::sourceTurnIds).contains("D1:1");
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "lucene"})
    void every_fact_extracted_from_a_packed_turn_makes_room_for_it(String kind) {
        open(kind);
        memory.recordTurn(ALICE, "s1", Turn.user("I'm allergic to penicillin. I live in Porto. I work as a nurse.")
                .withId("D1:1").at(T0));
        clock.set(T0.plus(Duration.ofDays(3)));

        AssembledContext ctx = ask(ALICE, "s2", "penicillin Porto nurse", 2_000);

        assertThat(ctx.recalled()).filteredOn(r -> !r.pinned() && r.sourceTurnIds().equals(List.of("D1:1")))
                .extracting(RecalledMemory::origin).containsExactly(RecalledMemory.Origin.TURN);
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "lucene"})
    void turn_ids_reused_across_sessions_never_stand_for_each_other(String kind) {
        open(kind);
        // a host numbering turns per session: "1" names a different turn in each session
        memory.recordTurn(ALICE, "s1", Turn.user("I love sailing on weekends.").withId("1").at(T0));
        memory.recordTurn(ALICE, "s2", Turn.user("My cousin visited Lisbon and went sailing.").withId("1")
                .at(T0.plus(Duration.ofDays(1))));
        clock.set(T0.plus(Duration.ofDays(3)));

        AssembledContext ctx = ask(ALICE, "s3", "sailing Lisbon weekends", 2_000);

        assertThat(persistent(ctx)).contains("I love sailing on weekends.")
                .contains("My cousin visited Lisbon and went sailing.");
        assertThat(episodes(ctx)).hasSize(2);
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "lucene"})
    void turns_past_their_retention_are_neither_recalled_nor_kept_after_a_dream(String kind) {
        open(kind);
        memory.recordTurn(ALICE, "s1", Turn.user("The spare key hides under the blue flowerpot.").withId("D1:1").at(T0));
        clock.set(T0.plus(Duration.ofDays(10)));
        assertThat(episodes(ask(ALICE, "s2", "Where is the spare key?", 2_000))).isNotEmpty();

        clock.set(T0.plus(memory.policy().turnRetention()).plus(Duration.ofDays(1)));
        assertThat(episodes(ask(ALICE, "s3", "Where is the spare key?", 2_000))).isEmpty();
        memory.dream(ALICE);
        assertThat(memory.admin().conversation(ALICE, "s1")).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "lucene"})
    void an_acknowledged_turn_is_searchable_at_once_and_after_reopen(String kind) {
        open(kind);
        memory.recordTurn(ALICE, "s1", Turn.user("Our dog Biscuit learned to open the fridge.").withId("D1:1").at(T0));
        assertThat(store.searchTurns(ALICE, "Biscuit fridge", 5)).extracting(h -> h.item().turnId())
                .containsExactly("D1:1");
        memory.close();
        store.close();
        open(kind);
        assertThat(episodes(ask(ALICE, "s2", "What did Biscuit learn?", 2_000))).extracting(RecalledMemory::memoryId)
                .contains("D1:1");
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "lucene"})
    void the_recall_tool_finds_past_turns_and_says_who_said_them(String kind) throws Exception {
        open(kind);
        memory.recordTurn(ALICE, "s1",
                Turn.user("My brother Tomás restores old sailboats in Aveiro.").withId("D1:1").withSpeaker("Alice").at(T0),
                Turn.assistant("Restoring sailboats takes patience!").withId("D1:2").at(T0));
        memory.recordTurn(BOB, "s1", Turn.user("I restore sailboats too.").withId("B1:1").at(T0));
        clock.set(T0.plus(Duration.ofDays(2)));

        com.fasterxml.jackson.databind.JsonNode out = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(memory.recallTool(ALICE).call("{\"query\":\"sailboats Aveiro\",\"limit\":5}"));

        com.fasterxml.jackson.databind.JsonNode results = out.get("results");
        assertThat(results).isNotEmpty();
        assertThat(results).anySatisfy(r -> {
            assertThat(r.get("verbatim").asBoolean()).isTrue();
            assertThat(r.get("said_by").asText()).isEqualTo("Alice");
            assertThat(r.get("text").asText()).contains("Aveiro");
        });
        assertThat(out.toString()).doesNotContain("I restore sailboats too");
    }

    @org.junit.jupiter.api.Test
    void retention_is_bounded_so_date_arithmetic_stays_finite() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> MemoryPolicy.builder()
                        .turnRetention(Duration.ofDays(Integer.MAX_VALUE)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("turnRetention")
                .hasMessageContaining("36500 days");
        assertThat(MemoryPolicy.builder().turnRetention(MemoryPolicy.MAX_TURN_RETENTION).build().turnRetention())
                .isEqualTo(MemoryPolicy.MAX_TURN_RETENTION);
    }

    /**
     * A turn that says "last year" is packed in place of the event extracted from it, and keeps the
     * day the event resolved to: the turn's own date is when it was said, not when it happened.
     */
    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "lucene"})
    void a_recalled_turn_keeps_the_day_its_event_resolved_to(String kind) {
        open(kind);
        memory.recordTurn(ALICE, "s1",
                Turn.user("I went hiking in the Smoky Mountains with my sister last year, it was beautiful.")
                        .withId("D1:1").at(T0),
                Turn.assistant("What a trip!").withId("D1:2").at(T0));
        memory.recordTurn(ALICE, "s1", Turn.user("Today I painted the fence green.").withId("D1:3").at(T0));
        clock.set(T0.plus(Duration.ofDays(3)));

        String block = persistent(ask(ALICE, "s2", "When did Alice go hiking in the Smoky Mountains?", 2_000));

        assertThat(block).contains("[2026-03-01] user: I went hiking in the Smoky Mountains with my sister last year,"
                + " it was beautiful. (on 2025-03-01)");
        assertThat(block).doesNotContain("(event)");
        // a turn whose event happened on the day it was said gets no note
        block = persistent(ask(ALICE, "s3", "What colour is the fence?", 2_000));
        assertThat(block).contains("user: Today I painted the fence green.").doesNotContain("green. (on");
    }

    /** A turn whose events happened on different days gets no single day. */
    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "lucene"})
    void a_turn_with_events_of_different_days_gets_no_day(String kind) {
        open(kind);
        memory.recordTurn(ALICE, "s1", Turn.user("Last week I went to the harbour museum. Yesterday I went to the"
                + " harbour museum again.").withId("D1:1").at(T0));
        clock.set(T0.plus(Duration.ofDays(3)));

        String block = persistent(ask(ALICE, "s2", "When did Alice go to the harbour museum?", 2_000));

        assertThat(block).contains("user: Last week I went to the harbour museum. Yesterday I went to the harbour"
                + " museum again.\n").doesNotContain("(on ");

        // an event of the day it was said and one of another day: no single day either
        memory.recordTurn(ALICE, "s3", Turn.user("Today I visited the lighthouse gallery. Last month I went to the"
                + " lighthouse gallery too.").withId("D3:1").at(T0));
        block = persistent(ask(ALICE, "s4", "When did Alice visit the lighthouse gallery?", 2_000));
        assertThat(block).contains("Last month I went to the lighthouse gallery too.\n").doesNotContain("(on ");
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "lucene"})
    void episodic_recall_can_be_turned_off(String kind) {
        store = MemoryStores.open(kind + ":" + dir);
        clock = new MutableClock(T0);
        memory = ContextManager.builder().store(store).clock(clock)
                .policy(MemoryPolicy.builder().episodicRecall(false).build()).build();
        memory.recordTurn(ALICE, "s1", Turn.user("The spare key hides under the blue flowerpot.").withId("D1:1").at(T0));
        assertThat(episodes(ask(ALICE, "s2", "Where is the spare key?", 2_000))).isEmpty();
    }
}
