package dev.reverie;

import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.MemoryStores;
import dev.reverie.spi.SessionSummary;
import dev.reverie.spi.SessionTurn;
import dev.reverie.spi.WriteBatch;
import dev.reverie.store.postgres.EmbeddedPostgresServer;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Through the manager, on each built-in store: what the hot-path work of wave 2 changed inside the
 * stores must not show outside them. Recall statistics (kept in columns on SQLite, logged and folded
 * later into doc values on Lucene, written into the record on PostgreSQL) are counted once, seen by
 * the next read, and kept across a close and reopen; and a turn said long ago is still recalled
 * after enough traffic for the SQLite store's index upkeep to merge its indexes in the background,
 * before and after a reopen (which lets queued merges finish first); and the temporal layer holds the
 * turns after the session's summary, at most the last {@code MAX_SESSION_TURNS}, however it reads them.
 */
class RecallAcrossStoresTest {

    static final Instant T0 = Instant.parse("2026-03-01T09:00:00Z");
    static final Scope ALICE = Scope.of("clinic-42", "receptionist", "alice");
    static final String[] TOPICS = ("garden piano harbour bakery tennis river mountain winter coffee library"
            + " museum painting novel chess football bicycle train office poetry market").split(" ");

    @TempDir
    Path dir;

    /** A store URI of kind {@code kind}, the same on every call of one test (so it can be reopened). */
    private String uri(String kind) {
        return switch (kind) {
            case "sqlite" -> "sqlite:" + dir.resolve("sqlite");
            case "lucene" -> "lucene:" + dir.resolve("lucene");
            case "postgres" -> EmbeddedPostgresServer.url(Path.of("recall-" + dir.getFileName()));
            default -> throw new IllegalArgumentException(kind);
        };
    }

    private static ContextManager manager(MemoryStore store, MutableClock clock) {
        return ContextManager.builder().store(store).clock(clock).build();
    }

    private static AssembledContext ask(ContextManager manager, String session, String query) {
        return manager.buildContext(ContextRequest.builder(ALICE, session).query(query).budgetTokens(2_000).build());
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "lucene", "postgres"})
    void recalls_are_counted_once_seen_at_once_and_kept_across_a_reopen(String kind) {
        MutableClock clock = new MutableClock(T0);
        Memory jazz = Memory.builder("m-jazz", ALICE, MemoryKind.PREFERENCE, "Alice likes jazz on Sunday evenings", T0)
                .subject("user.likes").importance(50).build();
        try (MemoryStore store = MemoryStores.open(uri(kind));
             ContextManager manager = manager(store, clock)) {
            store.write(WriteBatch.of(ALICE).put(jazz));
            clock.advance(Duration.ofHours(1));
            for (int i = 0; i < 3; i++) {
                assertThat(ask(manager, "s-1", "Does Alice like jazz?").recalled())
                        .extracting(RecalledMemory::memoryId).contains("m-jazz");
            }
            manager.flush();
            Memory seen = store.memory(ALICE, "m-jazz").orElseThrow();
            assertThat(seen.retrievalCount()).as(kind).isEqualTo(3);
            assertThat(seen.lastRetrievedAt()).as(kind).isEqualTo(T0.plus(Duration.ofHours(1)));
            assertThat(manager.admin().memories(ALICE, MemoryFilter.all()))
                    .filteredOn(m -> m.id().equals("m-jazz")).extracting(Memory::retrievalCount).containsExactly(3);
        }
        clock.advance(Duration.ofHours(1));
        try (MemoryStore store = MemoryStores.open(uri(kind));
             ContextManager manager = manager(store, clock)) {
            assertThat(store.memory(ALICE, "m-jazz").orElseThrow().retrievalCount()).as(kind + " reopened")
                    .isEqualTo(3);
            ask(manager, "s-2", "jazz evenings");
            manager.flush();
            Memory after = store.memory(ALICE, "m-jazz").orElseThrow();
            assertThat(after.retrievalCount()).as(kind + " after one more").isEqualTo(4);
            assertThat(after.lastRetrievedAt()).isEqualTo(T0.plus(Duration.ofHours(2)));
            assertThat(after.text()).isEqualTo(jazz.text());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "lucene", "postgres"})
    void a_turn_said_long_ago_is_recalled_after_traffic_that_merges_the_indexes(String kind) {
        MutableClock clock = new MutableClock(T0);
        String early = "My sister Marta moved to Porto last spring and teaches violin there.";
        try (MemoryStore store = MemoryStores.open(uri(kind));
             ContextManager manager = manager(store, clock)) {
            manager.recordTurn(ALICE, "day-0", Turn.user(early), Turn.assistant("That sounds lovely."));
            // 160 exchanges in 16 sessions: on SQLite far more than the 256 indexed rows after which the
            // store checks its indexes and merges them in the background, while these writes go on
            for (int i = 0; i < 160; i++) {
                clock.advance(Duration.ofHours(3));
                String topic = TOPICS[i % TOPICS.length];
                manager.recordTurn(ALICE, "day-" + (1 + i / 10),
                        Turn.user("Today was about " + topic + " number " + i + " and nothing else."),
                        Turn.assistant("Noted, " + topic + " " + i + "."));
            }
            manager.flush();
            assertThat(ask(manager, "later", "Where does Marta live?").asText()).as(kind).contains("Porto");
        }
        try (MemoryStore store = MemoryStores.open(uri(kind));
             ContextManager manager = manager(store, clock)) {
            AssembledContext reopened = ask(manager, "later-2", "Where does Marta live?");
            assertThat(reopened.asText()).as(kind + " reopened").contains("Porto");
            assertThat(reopened.recalled()).as(kind + " reopened")
                    .anyMatch(r -> r.text().contains("Porto") && r.sourceTurnIds().size() > 0);
            List<String> sessions = store.sessions(ALICE);
            assertThat(sessions).hasSizeGreaterThanOrEqualTo(17);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "lucene", "postgres"})
    void the_temporal_layer_holds_the_turns_after_the_summary_and_at_most_the_last_max_session_turns(String kind) {
        int max = ContextAssembler.MAX_SESSION_TURNS;
        try (MemoryStore store = MemoryStores.open(uri(kind));
             ContextManager manager = manager(store, new MutableClock(T0))) {
            WriteBatch batch = WriteBatch.of(ALICE);
            for (int seq = 0; seq < max + 3; seq++) {
                batch.append(new SessionTurn(ALICE, "long", seq, "t" + seq, Role.USER, null, "note " + seq,
                        T0.plusSeconds(seq)));
            }
            store.write(batch);
            // no summary: the last MAX_SESSION_TURNS turns
            assertThat(temporalTexts(manager)).as(kind).hasSize(max).startsWith("note 3")
                    .endsWith("note " + (max + 2));
            // summaries leaving fewer, exactly MAX_SESSION_TURNS, one more, and none uncovered
            store.write(WriteBatch.of(ALICE).put(new SessionSummary(ALICE, "long", "earlier notes", 10, T0)));
            assertThat(temporalTexts(manager)).as(kind).hasSize(max - 7).startsWith("note 10")
                    .endsWith("note " + (max + 2));
            store.write(WriteBatch.of(ALICE).put(new SessionSummary(ALICE, "long", "earlier notes", 3, T0)));
            assertThat(temporalTexts(manager)).as(kind).hasSize(max).startsWith("note 3")
                    .endsWith("note " + (max + 2));
            store.write(WriteBatch.of(ALICE).put(new SessionSummary(ALICE, "long", "earlier notes", 2, T0)));
            assertThat(temporalTexts(manager)).as(kind).hasSize(max).startsWith("note 3")
                    .endsWith("note " + (max + 2));
            store.write(WriteBatch.of(ALICE).put(new SessionSummary(ALICE, "long", "earlier notes", max + 10, T0)));
            assertThat(temporalTexts(manager)).as(kind).isEmpty();
        }
    }

    /** The verbatim turns TEMPORAL shows for session "long" with room for all of them (nothing compacts). */
    private static List<String> temporalTexts(ContextManager manager) {
        AssembledContext ctx = manager.buildContext(ContextRequest.builder(ALICE, "long").budgetTokens(200_000).build());
        return ctx.messages().stream().filter(m -> m.layer() == Layer.TEMPORAL && m.role() == Role.USER)
                .map(ContextMessage::content).toList();
    }
}
