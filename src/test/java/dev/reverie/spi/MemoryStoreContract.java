package dev.reverie.spi;

import dev.reverie.Cardinality;
import dev.reverie.Embedding;
import dev.reverie.Memory;
import dev.reverie.MemoryEvent;
import dev.reverie.MemoryEventType;
import dev.reverie.MemoryFilter;
import dev.reverie.MemoryKind;
import dev.reverie.MemoryStatus;
import dev.reverie.Observation;
import dev.reverie.ObservationFilter;
import dev.reverie.ObservationStatus;
import dev.reverie.Outcome;
import dev.reverie.Polarity;
import dev.reverie.Provenance;
import dev.reverie.Role;
import dev.reverie.Scope;
import dev.reverie.Source;
import dev.reverie.StoreClosedException;
import dev.reverie.StyleProfile;
import dev.reverie.Trust;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The contract every {@link MemoryStore} must pass: round trips of every record, isolation between
 * tenants, agents and end users, atomic batches, ordering and paging, filters, lexical search
 * sanity and safety against query syntax, vector search, reopen-after-close durability and the
 * closed-store behaviour. Extend it and implement {@link #openStore(Path)}; the same folder is
 * passed again to prove durability across reopen. Shipped in the {@code tests} classifier jar.
 */
public abstract class MemoryStoreContract {

    /** Opens (or reopens) a durable store whose data lives under {@code folder}. */
    protected abstract MemoryStore openStore(Path folder);

    @TempDir
    protected Path folder;
    protected MemoryStore store;

    protected static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");
    protected static final Scope ALICE = Scope.of("clinic-1", "receptionist", "alice");
    protected static final Scope BOB = Scope.of("clinic-1", "receptionist", "bob");
    protected static final Scope ALICE_OTHER_AGENT = Scope.of("clinic-1", "nurse", "alice");
    protected static final Scope ALICE_OTHER_TENANT = Scope.of("clinic-2", "receptionist", "alice");

    private final AtomicInteger ids = new AtomicInteger();

    @BeforeEach
    void openIt() {
        store = openStore(folder);
    }

    @AfterEach
    void closeIt() {
        store.close();
    }

    protected Provenance provenance(String turnId) {
        return new Provenance(Source.USER, "s1", turnId, T0, Outcome.UNKNOWN, Trust.FIRST_PARTY);
    }

    protected Observation observation(Scope scope, String text, int minutes) {
        String id = "o" + ids.incrementAndGet();
        return new Observation(id, scope, MemoryKind.FACT, text, "user.fact." + id, text.toLowerCase(),
                Cardinality.MULTI, Polarity.POSITIVE, 0.8, T0.plusSeconds(60L * minutes), "s1",
                provenance("t" + id), List.of("t" + id), 1, ObservationStatus.PENDING, null, null);
    }

    /**
     * Writes, for ALICE, a FACT observation "painting by the lake" and a STYLE observation "painting"
     * (which no text search returns); returns both, the fact first. For the stores' tests of indexes
     * an older version wrote.
     */
    protected List<Observation> paintingFactAndStyle() {
        Observation fact = observation(ALICE, "painting by the lake", 0);
        Observation style = observation(ALICE, "painting", 1).toBuilder().kind(MemoryKind.STYLE)
                .subject("user.style.length").build();
        store.write(WriteBatch.of(ALICE).put(fact).put(style));
        return List.of(fact, style);
    }

    protected Memory memory(Scope scope, String text, int minutes) {
        String id = "m" + ids.incrementAndGet();
        Instant at = T0.plusSeconds(60L * minutes);
        return Memory.builder(id, scope, MemoryKind.FACT, text, at).subject("user.fact." + id)
                .provenance(provenance("t" + id)).sourceTurnIds(List.of("t" + id)).build();
    }

    protected void put(Scope scope, Object... items) {
        WriteBatch b = WriteBatch.of(scope);
        for (Object item : items) {
            if (item instanceof Memory m) {
                b.put(m);
            } else if (item instanceof Observation o) {
                b.put(o);
            } else {
                throw new IllegalArgumentException(String.valueOf(item));
            }
        }
        store.write(b);
    }

    protected void reopen() {
        store.close();
        store = openStore(folder);
    }

    // ------------------------------------------------------------ round trips

    @Test
    void should_round_trip_every_field_of_an_observation() {
        Observation o = new Observation("obs-1", ALICE, MemoryKind.PREFERENCE, "Prefers tea over coffee",
                "user.likes.drink", "tea", Cardinality.SINGLE, Polarity.NEGATIVE, 0.65, T0, "session-9",
                new Provenance(Source.TOOL, "session-9", "D1:3", T0, Outcome.FAILED, Trust.THIRD_PARTY),
                List.of("D1:3", "D2:4"), 3, ObservationStatus.CONSOLIDATED, T0.plusSeconds(5),
                Embedding.of(new float[] {0.5f, -1.25f, 3f}));
        store.write(WriteBatch.of(ALICE).put(o));
        assertThat(store.observation(ALICE, "obs-1")).contains(o);
        reopen();
        assertThat(store.observation(ALICE, "obs-1")).contains(o);
    }

    @Test
    void should_round_trip_every_field_of_a_memory() {
        Memory m = Memory.builder("mem-1", ALICE, MemoryKind.FACT, "Allergic to dipyrone", T0)
                .subject("user.allergy").value("dipyrone").cardinality(Cardinality.MULTI).polarity(Polarity.POSITIVE)
                .importance(93.5).permanent(true).updatedAt(T0.plusSeconds(1)).lastReinforcedAt(T0.plusSeconds(2))
                .reinforcementCount(4).retrievalCount(7).lastRetrievedAt(T0.plusSeconds(3))
                .expiresAt(T0.plusSeconds(86_400)).status(MemoryStatus.DEPRECATED).supersededBy("mem-2")
                .sourceObservationIds(List.of("obs-1", "obs-2")).sourceTurnIds(List.of("D1:3"))
                .provenance(new Provenance(Source.USER, "s", "D1:3", T0, Outcome.SUCCEEDED, Trust.FIRST_PARTY))
                .confidence(0.9).embedding(Embedding.of(new float[] {1f, 2f})).build();
        store.write(WriteBatch.of(ALICE).put(m));
        assertThat(store.memory(ALICE, "mem-1")).contains(m);
        reopen();
        assertThat(store.memory(ALICE, "mem-1")).contains(m);
    }

    @Test
    void should_round_trip_sessions_summaries_archive_style_and_history() {
        SessionTurn t0 = new SessionTurn(ALICE, "s1", 0, "D1:1", Role.USER, "Priya", "Hello there", T0);
        SessionTurn t1 = new SessionTurn(ALICE, "s1", 1, "D1:2", Role.ASSISTANT, null, "Hi!", T0.plusSeconds(1));
        SessionSummary summary = new SessionSummary(ALICE, "s1", "Decided: Friday 10:00", 1, T0.plusSeconds(2));
        StyleProfile style = new StyleProfile(ALICE, "short", "informal", "pt", true, "direct", "Short, informal.",
                3, T0);
        MemoryEvent e1 = new MemoryEvent("e1", ALICE, "mem-1", MemoryEventType.CREATED, T0, null, "a", "promoted");
        MemoryEvent e2 = new MemoryEvent("e2", ALICE, "mem-1", MemoryEventType.EDITED, T0.plusSeconds(9), "a", "b",
                "operator");
        store.write(WriteBatch.of(ALICE).append(t0).append(t1).archive(t0).archive(t1).put(summary).put(style)
                .append(e1).append(e2));
        for (int round = 0; round < 2; round++) {
            assertThat(store.sessionTurns(ALICE, "s1", 0, 10)).containsExactly(t0, t1);
            assertThat(store.recentTurns(ALICE, "s1", 1)).containsExactly(t1);
            assertThat(store.sessionLength(ALICE, "s1")).isEqualTo(2);
            assertThat(store.archivedTurns(ALICE, "s1")).containsExactly(t0, t1);
            assertThat(store.sessionSummary(ALICE, "s1")).contains(summary);
            assertThat(store.styleProfile(ALICE)).contains(style);
            assertThat(store.history(ALICE, "mem-1")).containsExactly(e1, e2);
            assertThat(store.sessions(ALICE)).containsExactly("s1");
            reopen();
        }
    }

    @Test
    void should_replace_on_put_with_the_same_id() {
        Memory m = memory(ALICE, "lives in Recife", 0);
        put(ALICE, m);
        Memory changed = m.toBuilder().text("lives in Lisbon").status(MemoryStatus.SUPERSEDED).build();
        put(ALICE, changed);
        assertThat(store.memories(ALICE, MemoryFilter.all())).containsExactly(changed);
        assertThat(store.searchMemories(ALICE, "Recife", EnumSet.allOf(MemoryStatus.class),
                EnumSet.allOf(MemoryKind.class), 10)).isEmpty();
        assertThat(store.searchMemories(ALICE, "Lisbon", EnumSet.allOf(MemoryStatus.class),
                EnumSet.allOf(MemoryKind.class), 10)).extracting(s -> s.item().id()).containsExactly(m.id());
    }

    @Test
    void should_insert_an_observation_with_a_new_id_beside_session_end_turns_and_replace_it_later() {
        Observation o = observation(ALICE, "plays the cello", 0);
        SessionTurn turn = new SessionTurn(ALICE, "s1", 0, "t-new", Role.USER, null, "I play the cello", T0);
        store.write(WriteBatch.of(ALICE).putNew(o).appendAtSessionEnd(turn).archiveAtSessionEnd(turn));
        store.write(WriteBatch.of(ALICE).putNew(observation(ALICE, "plays the drums", 1))
                .appendAtSessionEnd(turn.withSeq(0)).appendAtSessionEnd(turn.withSeq(1)));
        assertThat(store.observation(ALICE, o.id())).contains(o);
        assertThat(store.recentTurns(ALICE, "s1", 10)).extracting(SessionTurn::seq).containsExactly(0L, 1L, 2L);

        Observation changed = o.withStatus(ObservationStatus.CONSOLIDATED, T0.plusSeconds(60));
        store.write(WriteBatch.of(ALICE).put(changed));
        reopen();
        assertThat(store.observations(ALICE, ObservationFilter.all())).filteredOn(x -> x.id().equals(o.id()))
                .containsExactly(changed);
        assertThat(store.searchObservations(ALICE, "cello", EnumSet.allOf(ObservationStatus.class), 10))
                .extracting(x -> x.item().id()).containsExactly(o.id());
    }

    @Test
    void should_never_return_style_observations_from_a_text_search_and_still_keep_them() {
        Set<ObservationStatus> any = EnumSet.allOf(ObservationStatus.class);
        Observation fact = observation(ALICE, "Ana writes songs for the choir", 0);
        List<Observation> styles = new ArrayList<>();
        WriteBatch batch = WriteBatch.of(ALICE).putNew(fact);
        for (int i = 0; i < 5; i++) {
            // shorter than the fact and with the same words: BM25 would rank each of them first
            Observation s = observation(ALICE, "Ana writes", i + 1).toBuilder().kind(MemoryKind.STYLE)
                    .subject("user.style.length").build();
            styles.add(s);
            batch.putNew(s);
        }
        store.write(batch);
        assertThat(store.searchObservations(ALICE, "Ana writes", any, 1)).extracting(s -> s.item().id())
                .containsExactly(fact.id());
        assertThat(store.searchObservations(ALICE, "Ana writes", any, 10)).extracting(s -> s.item().id())
                .containsExactly(fact.id());
        assertThat(store.observation(ALICE, styles.get(0).id())).contains(styles.get(0));
        assertThat(store.observations(ALICE, ObservationFilter.all())).hasSize(6);

        // a kind changed by a later write (same id) moves the observation into or out of the search
        Observation nowFact = styles.get(1).toBuilder().kind(MemoryKind.FACT).subject("user.fact.x").build();
        Observation nowStyle = fact.toBuilder().kind(MemoryKind.STYLE).subject("user.style.length").build();
        store.write(WriteBatch.of(ALICE).put(nowFact).put(nowStyle)
                .put(styles.get(2).withStatus(ObservationStatus.CONSOLIDATED, T0.plusSeconds(600))));
        reopen();
        assertThat(store.searchObservations(ALICE, "Ana writes", any, 10)).extracting(s -> s.item().id())
                .containsExactly(nowFact.id());
        assertThat(store.searchObservations(ALICE, "choir", any, 10)).isEmpty();
        store.write(WriteBatch.of(ALICE).deleteObservation(styles.get(3).id()).deleteObservation(nowStyle.id()));
        assertThat(store.observations(ALICE, ObservationFilter.all())).hasSize(4);
        assertThat(store.searchObservations(ALICE, "Ana writes", any, 10)).extracting(s -> s.item().id())
                .containsExactly(nowFact.id());
    }

    @Test
    void should_delete_memories_and_observations_and_keep_history() {
        Memory m = memory(ALICE, "likes jazz", 0);
        Observation o = observation(ALICE, "likes jazz", 0);
        put(ALICE, m, o);
        store.write(WriteBatch.of(ALICE).append(new MemoryEvent("e9", ALICE, m.id(), MemoryEventType.DELETED, T0,
                "likes jazz", null, "operator")).deleteMemory(m.id()).deleteObservation(o.id()));
        assertThat(store.memory(ALICE, m.id())).isEmpty();
        assertThat(store.observation(ALICE, o.id())).isEmpty();
        assertThat(store.searchMemories(ALICE, "jazz", EnumSet.allOf(MemoryStatus.class),
                EnumSet.allOf(MemoryKind.class), 10)).isEmpty();
        assertThat(store.searchObservations(ALICE, "jazz", EnumSet.allOf(ObservationStatus.class), 10)).isEmpty();
        assertThat(store.history(ALICE, m.id())).hasSize(1);
    }

    @Test
    void should_list_a_scopes_whole_history_in_append_order_including_deleted_memories() {
        Memory kept = memory(ALICE, "likes jazz", 0);
        Memory gone = memory(ALICE, "likes rock", 1);
        put(ALICE, kept, gone);
        MemoryEvent e1 = new MemoryEvent("e1", ALICE, gone.id(), MemoryEventType.CREATED, T0, null, "likes rock", "");
        MemoryEvent e2 = new MemoryEvent("e2", ALICE, kept.id(), MemoryEventType.CREATED, T0, null, "likes jazz", "");
        MemoryEvent e3 = new MemoryEvent("e3", ALICE, gone.id(), MemoryEventType.DELETED, T0.plusSeconds(1),
                "likes rock", null, "operator");
        store.write(WriteBatch.of(ALICE).append(e1).append(e2));
        store.write(WriteBatch.of(ALICE).append(e3).deleteMemory(gone.id()));
        store.write(WriteBatch.of(BOB).append(new MemoryEvent("e4", BOB, "m-bob", MemoryEventType.CREATED, T0, null,
                "x", "")));
        assertThat(store.history(ALICE)).containsExactly(e1, e2, e3);
        reopen();
        assertThat(store.history(ALICE)).containsExactly(e1, e2, e3);
        assertThat(store.history(ALICE_OTHER_AGENT)).isEmpty();
    }

    // ------------------------------------------------------------ isolation

    @Test
    void should_never_let_data_cross_tenants_agents_or_end_users() {
        List<Scope> scopes = List.of(ALICE, BOB, ALICE_OTHER_AGENT, ALICE_OTHER_TENANT);
        for (Scope s : scopes) {
            put(s, memory(s, "secret word " + s.tenantId() + " " + s.agentId() + " " + s.endUserId() + " shared", 0),
                    observation(s, "note shared " + s.endUserId(), 0));
            store.write(WriteBatch.of(s).append(new SessionTurn(s, "same-session", 0, "t1", Role.USER, null,
                    "turn of " + s, T0)).put(new StyleProfile(s, "", "", "", false, "", "style of " + s, 1, T0)));
        }
        for (Scope s : scopes) {
            assertThat(store.memories(s, MemoryFilter.all())).singleElement().satisfies(m -> {
                assertThat(m.scope()).isEqualTo(s);
                assertThat(m.text()).contains(s.endUserId());
            });
            assertThat(store.searchMemories(s, "shared secret word", EnumSet.allOf(MemoryStatus.class),
                    EnumSet.allOf(MemoryKind.class), 100)).extracting(x -> x.item().scope()).containsOnly(s);
            assertThat(store.searchObservations(s, "note shared", EnumSet.allOf(ObservationStatus.class), 100))
                    .hasSize(1).extracting(x -> x.item().scope()).containsOnly(s);
            assertThat(store.sessionTurns(s, "same-session", 0, 10)).singleElement()
                    .satisfies(t -> assertThat(t.text()).isEqualTo("turn of " + s));
            assertThat(store.styleProfile(s)).get().extracting(StyleProfile::description)
                    .isEqualTo("style of " + s);
        }
        assertThat(store.endUsers("clinic-1", "receptionist")).containsExactly(ALICE, BOB);
        assertThat(store.endUsers("clinic-1", "nurse")).containsExactly(ALICE_OTHER_AGENT);
        assertThat(store.endUsers("clinic-9", "receptionist")).isEmpty();

        store.erase(ALICE);
        assertThat(store.memories(ALICE, MemoryFilter.all())).isEmpty();
        assertThat(store.sessionTurns(ALICE, "same-session", 0, 10)).isEmpty();
        assertThat(store.styleProfile(ALICE)).isEmpty();
        assertThat(store.endUsers("clinic-1", "receptionist")).containsExactly(BOB);
        for (Scope s : List.of(BOB, ALICE_OTHER_AGENT, ALICE_OTHER_TENANT)) {
            assertThat(store.memories(s, MemoryFilter.all())).hasSize(1);
            assertThat(store.observations(s, ObservationFilter.all())).hasSize(1);
            assertThat(store.sessionTurns(s, "same-session", 0, 10)).hasSize(1);
        }
    }

    @Test
    void should_refuse_a_batch_item_of_another_scope() {
        assertThatThrownBy(() -> WriteBatch.of(ALICE).put(memory(BOB, "x", 0)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("batch scope");
    }

    // ------------------------------------------------------------ atomicity

    @Test
    void should_leave_nothing_behind_when_a_batch_fails_midway() {
        Memory kept = memory(ALICE, "kept before", 0);
        put(ALICE, kept);
        SessionTurn turn = new SessionTurn(ALICE, "s1", 0, "t1", Role.USER, null, "first", T0);
        store.write(WriteBatch.of(ALICE).append(turn));
        Memory fresh = memory(ALICE, "should vanish", 1);
        WriteBatch failing = WriteBatch.of(ALICE)
                .put(fresh)
                .put(kept.toBuilder().text("changed text").build())
                .append(turn); // same session and seq again: the store must refuse it
        assertThatThrownBy(() -> store.write(failing)).isInstanceOf(RuntimeException.class);
        assertThat(store.memory(ALICE, fresh.id())).isEmpty();
        assertThat(store.memory(ALICE, kept.id())).contains(kept);
        assertThat(store.searchMemories(ALICE, "vanish changed", EnumSet.allOf(MemoryStatus.class),
                EnumSet.allOf(MemoryKind.class), 10)).isEmpty();
        // and the store still works
        put(ALICE, fresh);
        assertThat(store.memory(ALICE, fresh.id())).contains(fresh);
    }

    // ------------------------------------------------------------ status-only changes and joint writes

    @Test
    void should_change_only_the_status_of_a_stored_observation_or_memory() {
        org.junit.jupiter.api.Assumptions.assumeTrue(store.supportsStatusWrites(),
                "the store takes no status-only writes (the dream then writes whole records)");
        Observation o = observation(ALICE, "likes green tea", 0).withEmbedding(Embedding.of(new float[] {1f, 0.5f}));
        Memory m = memory(ALICE, "works as a nurse", 1).toBuilder().importance(61.5)
                .embedding(Embedding.of(new float[] {0.25f, 2f})).build();
        put(ALICE, o, m);
        Instant judged = T0.plusSeconds(3_600);

        store.write(WriteBatch.of(ALICE).setStatus(o.id(), ObservationStatus.CONSOLIDATED, judged)
                .setMemoryStatus(m.id(), MemoryStatus.SUPERSEDED, "m-newer", judged));

        Observation judgedObservation = o.withStatus(ObservationStatus.CONSOLIDATED, judged);
        Memory superseded = m.toBuilder().status(MemoryStatus.SUPERSEDED).supersededBy("m-newer").updatedAt(judged)
                .build();
        assertThat(store.observation(ALICE, o.id())).contains(judgedObservation);
        assertThat(store.memory(ALICE, m.id())).contains(superseded);
        assertThat(store.observations(ALICE, ObservationFilter.all().withStatuses(ObservationStatus.PENDING))).isEmpty();
        assertThat(store.searchObservations(ALICE, "green tea", EnumSet.of(ObservationStatus.CONSOLIDATED), 10))
                .extracting(s -> s.item().id()).containsExactly(o.id());
        assertThat(store.searchObservations(ALICE, "green tea", EnumSet.of(ObservationStatus.PENDING), 10)).isEmpty();
        assertThat(store.searchMemories(ALICE, "nurse", EnumSet.of(MemoryStatus.SUPERSEDED),
                EnumSet.allOf(MemoryKind.class), 10)).extracting(s -> s.item().id()).containsExactly(m.id());
        assertThat(store.searchMemories(ALICE, "nurse", EnumSet.of(MemoryStatus.ACTIVE),
                EnumSet.allOf(MemoryKind.class), 10)).isEmpty();

        store.write(WriteBatch.of(ALICE).setStatus(o.id(), ObservationStatus.PENDING, null)
                .setMemoryStatus(m.id(), MemoryStatus.ACTIVE, null, judged.plusSeconds(1)));
        reopen();
        assertThat(store.observation(ALICE, o.id())).contains(o);
        assertThat(store.memory(ALICE, m.id())).contains(m.toBuilder().updatedAt(judged.plusSeconds(1)).build());
    }

    @Test
    void should_add_recalls_to_a_stored_memory_leaving_the_rest_as_stored() {
        org.junit.jupiter.api.Assumptions.assumeTrue(store.supportsRecallWrites(),
                "the store takes no recall writes (recall statistics then put whole memories)");
        Memory m = memory(ALICE, "works as a nurse", 1).toBuilder().importance(61.5)
                .embedding(Embedding.of(new float[] {0.25f, 2f})).build();
        Memory putTogether = memory(ALICE, "plays the cello", 2);
        Memory deleted = memory(ALICE, "lives in Recife", 3);
        put(ALICE, m, deleted);
        Instant t1 = T0.plusSeconds(3_600);

        store.write(WriteBatch.of(ALICE).addRecalls(m.id(), 2, t1));
        Memory twice = m.toBuilder().retrievalCount(2).lastRetrievedAt(t1).build();
        assertThat(store.memory(ALICE, m.id())).contains(twice);
        assertThat(store.searchMemories(ALICE, "nurse", EnumSet.allOf(MemoryStatus.class),
                EnumSet.allOf(MemoryKind.class), 10)).extracting(Scored::item).containsExactly(twice);
        assertThat(store.searchMemoriesByVector(ALICE, new float[] {0.25f, 2f}, EnumSet.allOf(MemoryStatus.class), 1))
                .extracting(Scored::item).containsExactly(twice);

        // an earlier recall adds to the count and keeps the later time; a status change in the same batch
        // applies too, in batch order
        store.write(WriteBatch.of(ALICE).addRecalls(m.id(), 1, T0)
                .setMemoryStatus(m.id(), MemoryStatus.SUPERSEDED, "m-newer", t1.plusSeconds(1))
                .addRecalls(m.id(), 4, t1.plusSeconds(2)));
        Memory after = twice.toBuilder().retrievalCount(7).lastRetrievedAt(t1.plusSeconds(2))
                .status(MemoryStatus.SUPERSEDED).supersededBy("m-newer").updatedAt(t1.plusSeconds(1)).build();
        assertThat(store.memory(ALICE, m.id())).contains(after);

        // a memory put in the same batch gets its recalls; one deleted before them, or never written, stays absent
        store.write(WriteBatch.of(ALICE).put(putTogether).addRecalls(putTogether.id(), 3, t1)
                .deleteMemory(deleted.id()).addRecalls(deleted.id(), 1, t1).addRecalls("never-written", 1, t1));
        Memory recalledTogether = putTogether.toBuilder().retrievalCount(3).lastRetrievedAt(t1).build();
        assertThat(store.memories(ALICE, MemoryFilter.all())).containsExactlyInAnyOrder(after, recalledTogether);
        assertThat(store.memories(BOB, MemoryFilter.all())).isEmpty();

        // a later put of the whole memory replaces the counts, as any put does
        Memory replaced = after.toBuilder().retrievalCount(1).lastRetrievedAt(null).build();
        put(ALICE, replaced);
        assertThat(store.memory(ALICE, m.id())).contains(replaced);
        store.writeEach(List.of(WriteBatch.of(ALICE).addRecalls(m.id(), 1, t1),
                WriteBatch.of(ALICE).addRecalls(putTogether.id(), 1, t1.plusSeconds(9))));
        reopen();
        assertThat(store.memory(ALICE, m.id())).contains(replaced.toBuilder().retrievalCount(2).lastRetrievedAt(t1).build());
        assertThat(store.memory(ALICE, putTogether.id()))
                .contains(recalledTogether.toBuilder().retrievalCount(4).lastRetrievedAt(t1.plusSeconds(9)).build());
        assertThatThrownBy(() -> WriteBatch.of(ALICE).addRecalls(m.id(), 0, t1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("count must be positive");
    }

    @Test
    void should_give_each_memory_its_own_recalls_when_many_are_read_together() {
        org.junit.jupiter.api.Assumptions.assumeTrue(store.supportsRecallWrites(),
                "the store takes no recall writes (recall statistics then put whole memories)");
        // written in four batches with reads between them (several segments in an index) and archived
        // turns among them (so memories are a sparse part of each segment); read together by every read
        // path, in orders that are not the order they were written in; every third one never recalled
        List<Memory> written = new java.util.ArrayList<>();
        for (int batch = 0; batch < 4; batch++) {
            WriteBatch b = WriteBatch.of(ALICE);
            for (int k = 0; k < 10; k++) {
                int i = batch * 10 + k;
                Memory m = memory(ALICE, "garden note " + "x".repeat(1 + (i * 7) % 13), i).toBuilder()
                        .importance(10 + (i * 37) % 80).permanent(i % 4 == 0)
                        .embedding(Embedding.of(new float[] {1, i / 40f})).build();
                written.add(m);
                b.put(m);
                b.archive(new SessionTurn(ALICE, "s" + batch, k, "t" + i, Role.USER, null, "garden chat " + i,
                        T0.plusSeconds(i)));
            }
            store.write(b);
            assertThat(store.searchMemories(ALICE, "garden note", EnumSet.of(MemoryStatus.ACTIVE),
                    EnumSet.allOf(MemoryKind.class), 100)).hasSize(written.size());
        }
        java.util.Map<String, Memory> expected = new java.util.HashMap<>();
        WriteBatch recalls = WriteBatch.of(ALICE);
        for (int i = 0; i < written.size(); i++) {
            Memory m = written.get(i);
            if (i % 3 == 2) {
                expected.put(m.id(), m);
                continue;
            }
            Instant at = T0.plusSeconds(1_000L * i).plusNanos(i * 1_001L);
            recalls.addRecalls(m.id(), i + 1, at);
            expected.put(m.id(), m.toBuilder().retrievalCount(i + 1).lastRetrievedAt(at).build());
        }
        store.write(recalls);

        for (int round = 0; round < 2; round++) { // the second round reads what the first one may have cached
            assertThat(store.searchMemories(ALICE, "garden note", EnumSet.of(MemoryStatus.ACTIVE), EnumSet.allOf(MemoryKind.class), 100))
                    .extracting(Scored::item).containsExactlyInAnyOrderElementsOf(expected.values());
            assertThat(store.memories(ALICE, MemoryFilter.all()))
                    .containsExactlyInAnyOrderElementsOf(expected.values());
            assertThat(store.pinnedMemories(ALICE, 100)).containsExactlyInAnyOrderElementsOf(
                    expected.values().stream().filter(Memory::permanent).toList());
            assertThat(store.searchMemoriesByVector(ALICE, new float[] {1, 0.5f}, EnumSet.of(MemoryStatus.ACTIVE), 100))
                    .extracting(Scored::item).containsExactlyInAnyOrderElementsOf(expected.values());
            for (Memory m : written) {
                assertThat(store.memory(ALICE, m.id())).contains(expected.get(m.id()));
            }
        }
    }

    @Test
    void should_apply_a_status_change_in_batch_order_and_never_create_a_row() {
        org.junit.jupiter.api.Assumptions.assumeTrue(store.supportsStatusWrites(),
                "the store takes no status-only writes (the dream then writes whole records)");
        Observation put = observation(ALICE, "likes jazz", 0);
        Observation deleted = observation(ALICE, "likes rock", 1);
        put(ALICE, deleted);

        store.write(WriteBatch.of(ALICE)
                .put(put).setStatus(put.id(), ObservationStatus.DISCARDED, T0)
                .deleteObservation(deleted.id()).setStatus(deleted.id(), ObservationStatus.CONSOLIDATED, T0)
                .setStatus("never-written", ObservationStatus.CONSOLIDATED, T0)
                .setMemoryStatus("never-written", MemoryStatus.DEPRECATED, null, T0));

        assertThat(store.observations(ALICE, ObservationFilter.all()))
                .containsExactly(put.withStatus(ObservationStatus.DISCARDED, T0));
        assertThat(store.memories(ALICE, MemoryFilter.all())).isEmpty();
        assertThat(store.observations(BOB, ObservationFilter.all())).isEmpty();
    }

    @Test
    void should_apply_long_runs_of_status_changes_as_each_alone() {
        org.junit.jupiter.api.Assumptions.assumeTrue(store.supportsStatusWrites(),
                "the store takes no status-only writes (the dream then writes whole records)");
        // a night's judgements: long runs of one status and time (a store may group them), broken by
        // another status, a repeated id, unknown ids and a second time; another user's rows untouched
        List<Observation> mine = new java.util.ArrayList<>();
        for (int i = 0; i < 150; i++) {
            mine.add(observation(ALICE, "note number " + i, i));
        }
        Observation bobs = observation(BOB, "note number 7", 7);
        put(ALICE, mine.toArray());
        put(BOB, bobs);
        Instant later = T0.plusSeconds(60);
        WriteBatch batch = WriteBatch.of(ALICE);
        java.util.Map<String, Observation> expected = new java.util.LinkedHashMap<>();
        for (int i = 0; i < 150; i++) {
            Observation o = mine.get(i);
            ObservationStatus status = i % 50 == 49 ? ObservationStatus.DISCARDED : ObservationStatus.CONSOLIDATED;
            Instant at = i >= 140 ? later : T0;
            batch.setStatus(o.id(), status, at);
            expected.put(o.id(), o.withStatus(status, at));
            if (i == 70) {
                batch.setStatus("never-written-" + i, ObservationStatus.CONSOLIDATED, T0);
                batch.setStatus(mine.get(3).id(), ObservationStatus.CONSOLIDATED, T0); // again, same values
            }
        }
        batch.setStatus(mine.get(0).id(), ObservationStatus.PENDING, null); // the last change of an id wins
        expected.put(mine.get(0).id(), mine.get(0));
        store.write(batch);

        reopen();
        assertThat(store.observations(ALICE, ObservationFilter.all()))
                .containsExactlyInAnyOrderElementsOf(expected.values());
        assertThat(store.observation(BOB, bobs.id())).contains(bobs);
        assertThat(store.observations(ALICE, ObservationFilter.all().withStatuses(ObservationStatus.DISCARDED)))
                .extracting(Observation::id).containsExactlyInAnyOrder(mine.get(49).id(), mine.get(99).id(),
                        mine.get(149).id());

        // one unbroken run longer than two of any grouping of 64
        List<Observation> more = new java.util.ArrayList<>();
        WriteBatch judged = WriteBatch.of(BOB);
        for (int i = 0; i < 130; i++) {
            more.add(observation(BOB, "more notes " + i, i));
        }
        put(BOB, more.toArray());
        more.forEach(o -> judged.setStatus(o.id(), ObservationStatus.CONSOLIDATED, later));
        store.write(judged);
        assertThat(store.observations(BOB, ObservationFilter.all().withStatuses(ObservationStatus.CONSOLIDATED)))
                .hasSize(130).allSatisfy(o -> assertThat(o.consolidatedAt()).isEqualTo(later));
        assertThat(store.observation(BOB, bobs.id())).contains(bobs);
    }

    @Test
    void should_write_several_end_users_batches_together_or_leave_them_to_single_writes() {
        Memory alices = memory(ALICE, "lives in Recife", 0);
        Memory bobs = memory(BOB, "lives in Porto", 0);
        Observation o = observation(ALICE, "lives in Recife", 0);
        put(ALICE, o);

        List<WriteBatch> batches = List.of(WriteBatch.of(ALICE).put(alices), WriteBatch.of(BOB).put(bobs),
                WriteBatch.of(ALICE).setStatus(o.id(), ObservationStatus.CONSOLIDATED, T0));
        if (!store.writeAll(batches)) {
            // a store may decline: then it wrote nothing, and the caller writes them one by one
            assertThat(store.memories(ALICE, MemoryFilter.all())).isEmpty();
            assertThat(store.memories(BOB, MemoryFilter.all())).isEmpty();
            return;
        }
        reopen();
        assertThat(store.memories(ALICE, MemoryFilter.all())).containsExactly(alices);
        assertThat(store.memories(BOB, MemoryFilter.all())).containsExactly(bobs);
        assertThat(store.observation(ALICE, o.id())).contains(o.withStatus(ObservationStatus.CONSOLIDATED, T0));
        assertThat(store.searchMemories(BOB, "Porto", EnumSet.allOf(MemoryStatus.class),
                EnumSet.allOf(MemoryKind.class), 10)).extracting(s -> s.item().id()).containsExactly(bobs.id());
    }

    @Test
    void should_write_joint_batches_all_or_nothing() {
        SessionTurn turn = new SessionTurn(ALICE, "s1", 0, "t1", Role.USER, null, "first", T0);
        store.write(WriteBatch.of(ALICE).append(turn));
        Memory bobs = memory(BOB, "should vanish", 0);
        List<WriteBatch> batches = List.of(WriteBatch.of(BOB).put(bobs),
                WriteBatch.of(ALICE).append(turn)); // same session and seq again: the store must refuse it

        boolean written;
        try {
            written = store.writeAll(batches);
        } catch (RuntimeException refused) {
            written = false;
        }

        assertThat(written).isFalse();
        assertThat(store.memories(BOB, MemoryFilter.all())).isEmpty();
        assertThat(store.searchMemories(BOB, "vanish", EnumSet.allOf(MemoryStatus.class),
                EnumSet.allOf(MemoryKind.class), 10)).isEmpty();
        assertThatThrownBy(() -> store.writeAll(List.of(WriteBatch.of(ALICE).put(memory(ALICE, "x", 0)),
                WriteBatch.of(ALICE_OTHER_TENANT).put(memory(ALICE_OTHER_TENANT, "y", 0)))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("share a tenant");
    }

    @Test
    void should_find_everything_as_before_after_index_maintenance() {
        for (int i = 0; i < 30; i++) {
            Scope who = i % 2 == 0 ? ALICE : BOB;
            put(who, memory(who, "note number " + i + " about tea", i));
            put(ALICE, observation(ALICE, "said " + i + " things about coffee", i));
        }
        store.maintain(ALICE.tenantId());
        store.maintain(ALICE_OTHER_TENANT.tenantId()); // a tenant with no data yet

        assertThat(store.searchMemories(ALICE, "tea", EnumSet.allOf(MemoryStatus.class),
                EnumSet.allOf(MemoryKind.class), 50)).hasSize(15);
        assertThat(store.searchObservations(ALICE, "coffee", EnumSet.allOf(ObservationStatus.class), 50)).hasSize(30);
        assertThat(store.searchMemories(ALICE_OTHER_TENANT, "tea", EnumSet.allOf(MemoryStatus.class),
                EnumSet.allOf(MemoryKind.class), 50)).isEmpty();
    }

    @Test
    void should_write_each_batch_of_write_each_on_its_own() {
        SessionTurn turn = new SessionTurn(ALICE, "s1", 0, "t1", Role.USER, null, "first", T0);
        store.write(WriteBatch.of(ALICE).append(turn));
        Memory before = memory(ALICE, "written before the failing batch", 0);
        Memory doomed = memory(ALICE, "must not survive its batch", 1);
        Memory after = memory(BOB, "written after the failing batch", 2);
        WriteBatch failing = WriteBatch.of(ALICE).put(doomed).append(turn); // seq 0 of s1 exists

        assertThatThrownBy(() -> store.writeEach(List.of(WriteBatch.of(ALICE).put(before), failing,
                WriteBatch.of(BOB).put(after)))).isInstanceOf(RuntimeException.class);

        assertThat(store.memory(ALICE, before.id())).contains(before);
        assertThat(store.memory(BOB, after.id())).contains(after);
        assertThat(store.memory(ALICE, doomed.id())).isEmpty();
        assertThat(store.sessionTurns(ALICE, "s1", 0, 10)).containsExactly(turn);
        store.writeEach(List.of());
        put(ALICE, doomed);
        assertThat(store.memory(ALICE, doomed.id())).contains(doomed);
    }

    // ------------------------------------------------------------ ordering, paging and filters

    @Test
    void should_list_in_time_order_with_paging() {
        List<Memory> all = new ArrayList<>();
        List<Observation> obs = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            all.add(memory(ALICE, "memory number " + i, 25 - i)); // inserted newest first
            obs.add(observation(ALICE, "observation number " + i, 25 - i));
        }
        WriteBatch b = WriteBatch.of(ALICE);
        all.forEach(b::put);
        obs.forEach(b::put);
        store.write(b);
        List<Memory> expected = new ArrayList<>(all);
        expected.sort((x, y) -> x.createdAt().compareTo(y.createdAt()));
        assertThat(store.memories(ALICE, MemoryFilter.all())).containsExactlyElementsOf(expected);
        assertThat(store.memories(ALICE, MemoryFilter.all().page(10, 5))).containsExactlyElementsOf(expected.subList(10, 15));
        List<Observation> expectedObs = new ArrayList<>(obs);
        expectedObs.sort((x, y) -> x.observedAt().compareTo(y.observedAt()));
        assertThat(store.observations(ALICE, ObservationFilter.all().page(20, 10)))
                .containsExactlyElementsOf(expectedObs.subList(20, 25));
    }

    @Test
    void should_filter_by_status_kind_text_and_time() {
        Memory active = memory(ALICE, "Likes 100% dark_chocolate", 0);
        Memory superseded = memory(ALICE, "Lives in Recife", 1).toBuilder().status(MemoryStatus.SUPERSEDED).build();
        Memory skill = memory(ALICE, "Knows Kotlin", 2).toBuilder().kind(MemoryKind.SKILL).build();
        put(ALICE, active, superseded, skill);
        assertThat(store.memories(ALICE, MemoryFilter.active())).containsExactly(active, skill);
        assertThat(store.memories(ALICE, MemoryFilter.all().withStatuses(MemoryStatus.SUPERSEDED)))
                .containsExactly(superseded);
        assertThat(store.memories(ALICE, MemoryFilter.all().withKinds(MemoryKind.SKILL))).containsExactly(skill);
        assertThat(store.memories(ALICE, MemoryFilter.all().withText("100%"))).containsExactly(active);
        assertThat(store.memories(ALICE, MemoryFilter.all().withText("dark_"))).containsExactly(active);
        assertThat(store.memories(ALICE, MemoryFilter.all().withText("K_OWS"))).isEmpty();
        assertThat(store.memories(ALICE, MemoryFilter.all().createdBetween(T0.plusSeconds(60), T0.plusSeconds(120))))
                .containsExactly(superseded);
        assertThat(store.countMemories(ALICE, EnumSet.of(MemoryStatus.ACTIVE))).isEqualTo(2);
        assertThat(store.searchMemories(ALICE, "Recife", EnumSet.of(MemoryStatus.ACTIVE),
                EnumSet.allOf(MemoryKind.class), 10)).isEmpty();
        assertThat(store.searchMemories(ALICE, "Kotlin", EnumSet.allOf(MemoryStatus.class),
                EnumSet.of(MemoryKind.FACT), 10)).isEmpty();

        Observation pending = observation(ALICE, "pending note", 0);
        Observation done = observation(ALICE, "done note", 1).withStatus(ObservationStatus.CONSOLIDATED, T0);
        put(ALICE, pending, done);
        assertThat(store.observations(ALICE, ObservationFilter.pending())).containsExactly(pending);
        assertThat(store.searchObservations(ALICE, "note", EnumSet.of(ObservationStatus.CONSOLIDATED), 10))
                .extracting(s -> s.item().id()).containsExactly(done.id());
    }

    // ------------------------------------------------------------ search

    @Test
    void should_rank_the_more_relevant_memory_first() {
        put(ALICE,
                memory(ALICE, "The patient is allergic to dipyrone and penicillin", 0),
                memory(ALICE, "Enjoys long walks on the beach", 1),
                memory(ALICE, "Mentioned an allergy test next month", 2),
                memory(ALICE, "Prefers morning appointments", 3));
        List<Scored<Memory>> hits = store.searchMemories(ALICE, "Is she allergic to dipyrone?",
                EnumSet.of(MemoryStatus.ACTIVE), EnumSet.allOf(MemoryKind.class), 10);
        assertThat(hits).isNotEmpty();
        assertThat(hits.get(0).item().text()).contains("dipyrone");
        assertThat(hits).extracting(h -> h.item().text()).doesNotContain("Enjoys long walks on the beach");
        for (int i = 1; i < hits.size(); i++) {
            assertThat(hits.get(i).score()).isLessThanOrEqualTo(hits.get(i - 1).score());
        }
    }

    /**
     * Ranking weighs a word by how rare it is in the scope (BM25's IDF): a name said in every turn
     * of a conversation, even three times over, must not outrank the one text holding the rare word
     * the question asks about. Memories, observations and archived turns alike.
     */
    @Test
    void should_rank_a_rare_query_word_above_a_common_one_repeated() {
        String[] places = {"park", "lake", "market", "museum", "cinema", "library", "beach", "garden", "station",
                "harbour", "bakery", "stadium"};
        WriteBatch b = WriteBatch.of(ALICE);
        for (int i = 0; i < places.length; i++) {
            String common = "Melanie told Melanie's sister that Melanie walked to the " + places[i];
            b.put(memory(ALICE, common, i)).put(observation(ALICE, common, i))
                    .archive(archived(ALICE, "s1", i, "Melanie", common, 0));
        }
        String rare = "Signed up for a pottery class on Tuesdays";
        b.put(memory(ALICE, rare, 20)).put(observation(ALICE, rare, 20))
                .archive(archived(ALICE, "s1", 20, "Melanie", rare, 0));
        store.write(b);
        String question = "What pottery does Melanie do?";
        for (int round = 0; round < 2; round++) {
            List<Scored<Memory>> memories = store.searchMemories(ALICE, question, EnumSet.of(MemoryStatus.ACTIVE),
                    EnumSet.allOf(MemoryKind.class), 5);
            List<Scored<Observation>> observations = store.searchObservations(ALICE, question,
                    EnumSet.of(ObservationStatus.PENDING), 5);
            List<Scored<SessionTurn>> turns = store.searchTurns(ALICE, question, 5);
            assertThat(memories).isNotEmpty();
            assertThat(memories.get(0).item().text()).isEqualTo(rare);
            assertThat(observations).isNotEmpty();
            assertThat(observations.get(0).item().text()).isEqualTo(rare);
            assertThat(turns).isNotEmpty();
            assertThat(turns.get(0).item().text()).isEqualTo(rare);
            reopen();
        }
    }

    @Test
    void should_list_active_permanent_memories_as_pins_most_important_first() {
        Memory name = memory(ALICE, "Name is Marina", 0).toBuilder().permanent(true).importance(95).build();
        Memory allergy = memory(ALICE, "Allergic to dipyrone", 1).toBuilder().permanent(true).importance(99).build();
        Memory old = memory(ALICE, "Name was Ana", 2).toBuilder().permanent(true).importance(99)
                .status(MemoryStatus.SUPERSEDED).build();
        Memory plain = memory(ALICE, "Likes jazz", 3);
        Memory bobs = memory(BOB, "Name is Bob", 0).toBuilder().permanent(true).build();
        put(ALICE, name, allergy, old, plain);
        put(BOB, bobs);
        assertThat(store.pinnedMemories(ALICE, 10)).containsExactly(allergy, name);
        assertThat(store.pinnedMemories(ALICE, 1)).containsExactly(allergy);
        put(ALICE, allergy.toBuilder().permanent(false).build());
        assertThat(store.pinnedMemories(ALICE, 10)).containsExactly(name);
    }

    @Test
    void should_respect_the_search_limit() {
        WriteBatch b = WriteBatch.of(ALICE);
        for (int i = 0; i < 30; i++) {
            b.put(memory(ALICE, "coffee note " + i, i));
        }
        store.write(b);
        assertThat(store.searchMemories(ALICE, "coffee", EnumSet.of(MemoryStatus.ACTIVE),
                EnumSet.allOf(MemoryKind.class), 7)).hasSize(7);
    }

    @Test
    void should_never_fail_on_query_syntax_in_user_text() {
        put(ALICE, memory(ALICE, "Dra. Marina likes \"quoted\" things (and AND NEAR) - minus \\ back", 0),
                observation(ALICE, "emoji 😀 and עברית text", 0));
        StringBuilder huge = new StringBuilder();
        while (huge.length() < 100_000) {
            huge.append("word").append(huge.length()).append(" \"(*:");
        }
        List<String> nasty = List.of("\"", "\"unbalanced", "*", "a*", ":", "text:foo", "(", ")", "((a)", "AND",
                "a AND", "OR", "NOT", "NEAR", "NEAR(a b, 2)", "-", "-a", "\\", "^", "{", "}", "[", "]", "~", "+",
                "sk : x", "😀", "עברית", "مرحبا", "", "   ", "'; DROP TABLE memories; --", "%", "_", huge.toString(),
                "quoted", "marina*", "col:value AND NOT x");
        for (String q : nasty) {
            assertThat(store.searchMemories(ALICE, q, EnumSet.allOf(MemoryStatus.class),
                    EnumSet.allOf(MemoryKind.class), 5)).as(q).isNotNull();
            assertThat(store.searchObservations(ALICE, q, EnumSet.allOf(ObservationStatus.class), 5)).as(q)
                    .isNotNull();
        }
        assertThat(store.searchMemories(ALICE, "\"quoted\"", EnumSet.allOf(MemoryStatus.class),
                EnumSet.allOf(MemoryKind.class), 5)).hasSize(1);
        assertThat(store.searchObservations(ALICE, "😀 עברית", EnumSet.allOf(ObservationStatus.class), 5)).hasSize(1);
        assertThat(store.memories(ALICE, MemoryFilter.all())).hasSize(1);
    }

    @Test
    void should_find_nearest_vectors_within_the_scope() {
        Memory near = memory(ALICE, "near", 0).toBuilder().embedding(Embedding.of(new float[] {1, 0, 0})).build();
        Memory far = memory(ALICE, "far", 1).toBuilder().embedding(Embedding.of(new float[] {0, 1, 0})).build();
        Memory plain = memory(ALICE, "no vector", 2);
        Memory bobs = memory(BOB, "bob near", 0).toBuilder().embedding(Embedding.of(new float[] {1, 0, 0})).build();
        put(ALICE, near, far, plain);
        put(BOB, bobs);
        List<Scored<Memory>> hits = store.searchMemoriesByVector(ALICE, new float[] {0.9f, 0.1f, 0},
                EnumSet.of(MemoryStatus.ACTIVE), 10);
        assertThat(hits).extracting(h -> h.item().id()).containsExactly(near.id(), far.id());
        assertThat(hits.get(0).score()).isGreaterThan(hits.get(1).score());
        assertThat(store.searchMemoriesByVector(ALICE, new float[] {1, 0, 0}, EnumSet.of(MemoryStatus.ACTIVE), 1))
                .extracting(h -> h.item().id()).containsExactly(near.id());
        assertThatThrownBy(() -> store.searchMemoriesByVector(ALICE, new float[] {1, 0}, EnumSet.of(MemoryStatus.ACTIVE), 5))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("dimension");

        Observation ov = observation(ALICE, "vector note", 0).withEmbedding(Embedding.of(new float[] {0, 0, 1}));
        put(ALICE, ov);
        assertThat(store.searchObservationsByVector(ALICE, new float[] {0, 0, 1},
                EnumSet.allOf(ObservationStatus.class), 3)).extracting(h -> h.item().id()).containsExactly(ov.id());
    }

    @Test
    void a_similarity_floor_keeps_the_hits_at_or_above_it_in_the_unfloored_order() {
        // equal vectors (the same text embedded twice) written between rows under the floors, so ties
        // at the limit and the rows a floor skips both meet the cut
        float[][] vectors = {{1, 0, 0}, {0, 1, 0}, {0.8f, 0.6f, 0}, {-1, 0, 0}, {0.8f, 0.6f, 0}, {0, 1, 0},
            {0.8f, 0.6f, 0}, {0.6f, 0.8f, 0}, {-1, 0, 0}, {0.6f, 0.8f, 0}, {1, 0, 0}};
        for (int i = 0; i < vectors.length; i++) {
            put(ALICE, memory(ALICE, "memory " + i, i).toBuilder().embedding(Embedding.of(vectors[i])).build());
            put(ALICE, observation(ALICE, "observation " + i, i).withEmbedding(Embedding.of(vectors[i])));
            store.write(WriteBatch.of(ALICE).archive(archived(ALICE, "s1", i, null, "turn " + i, 0),
                    Embedding.of(vectors[i])));
        }
        float[] query = {1, 0, 0};
        Set<MemoryStatus> active = EnumSet.of(MemoryStatus.ACTIVE);
        Set<ObservationStatus> anyObservation = EnumSet.allOf(ObservationStatus.class);
        for (double floor : new double[] {-1.0, 0.0, 0.5, 0.7, 0.9, 1.5}) {
            for (int limit = 1; limit <= vectors.length + 1; limit++) {
                assertThat(store.searchMemoriesByVector(ALICE, query, active, limit, floor))
                        .as("memories from %s, limit %s", floor, limit)
                        .isEqualTo(atLeast(store.searchMemoriesByVector(ALICE, query, active, limit), floor));
                assertThat(store.searchObservationsByVector(ALICE, query, anyObservation, limit, floor))
                        .as("observations from %s, limit %s", floor, limit)
                        .isEqualTo(atLeast(store.searchObservationsByVector(ALICE, query, anyObservation, limit), floor));
                assertThat(store.searchTurnsByVector(ALICE, query, limit, floor))
                        .as("turns from %s, limit %s", floor, limit)
                        .isEqualTo(atLeast(store.searchTurnsByVector(ALICE, query, limit), floor));
            }
        }
        // cosines 1 (rows 0, 10), 0.8 (2, 4, 6), 0.6 (7, 9), 0, -1: a floor of 0.5 keeps seven, best first;
        // the limit still applies, and it cuts through the equal ones the same way every time
        assertThat(store.searchMemoriesByVector(ALICE, query, active, 20, 0.5)).hasSize(7)
                .extracting(h -> h.item().text()).startsWith("memory 0", "memory 10").contains("memory 9");
        List<Scored<SessionTurn>> four = store.searchTurnsByVector(ALICE, query, 4, 0.5);
        assertThat(four).extracting(h -> h.item().seq()).startsWith(0L, 10L).hasSize(4);
        assertThat(store.searchTurnsByVector(ALICE, query, 4, 0.5)).isEqualTo(four);
        assertThat(store.searchObservationsByVector(ALICE, query, anyObservation, 20, 0.9))
                .extracting(h -> h.item().text()).containsExactlyInAnyOrder("observation 0", "observation 10");
        assertThatThrownBy(() -> store.searchMemoriesByVector(ALICE, query, active, 10, Double.NaN))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("minSimilarity");
        assertThatThrownBy(() -> store.searchTurnsByVector(ALICE, query, 10, Double.POSITIVE_INFINITY))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("minSimilarity");
    }

    @Test
    void a_smaller_vector_limit_gives_the_first_hits_of_a_larger_one_ties_included() {
        // many exact ties (the same vector written again) on both sides of every cut: a store that keeps
        // its k best while scanning must cut through them as its full ranking does
        float[][] distinct = {{1, 0, 0}, {0.8f, 0.6f, 0}, {0.6f, 0.8f, 0}, {0, 1, 0}, {-1, 0, 0}, {0.6f, 0, 0.8f}};
        int n = 24;
        for (int i = 0; i < n; i++) {
            float[] v = distinct[(i * 5) % distinct.length];
            put(ALICE, memory(ALICE, "memory " + i, i).toBuilder().embedding(Embedding.of(v)).build());
            put(ALICE, observation(ALICE, "observation " + i, i).withEmbedding(Embedding.of(v)));
            store.write(WriteBatch.of(ALICE).archive(archived(ALICE, "s1", i, null, "turn " + i, 0), Embedding.of(v)));
        }
        float[] query = {0.9f, 0.3f, 0.1f};
        Set<MemoryStatus> active = EnumSet.of(MemoryStatus.ACTIVE);
        Set<ObservationStatus> anyObservation = EnumSet.allOf(ObservationStatus.class);
        List<Scored<Memory>> memories = store.searchMemoriesByVector(ALICE, query, active, n);
        List<Scored<Observation>> observations = store.searchObservationsByVector(ALICE, query, anyObservation, n);
        List<Scored<SessionTurn>> turns = store.searchTurnsByVector(ALICE, query, n);
        assertThat(memories).hasSize(n);
        assertThat(observations).hasSize(n);
        assertThat(turns).hasSize(n);
        for (int limit = 1; limit < n; limit++) {
            assertThat(store.searchMemoriesByVector(ALICE, query, active, limit)).as("memories, limit %s", limit)
                    .isEqualTo(memories.subList(0, limit));
            assertThat(store.searchObservationsByVector(ALICE, query, anyObservation, limit))
                    .as("observations, limit %s", limit).isEqualTo(observations.subList(0, limit));
            assertThat(store.searchTurnsByVector(ALICE, query, limit)).as("turns, limit %s", limit)
                    .isEqualTo(turns.subList(0, limit));
        }
        for (int i = 1; i < n; i++) {
            assertThat(memories.get(i).score()).isLessThanOrEqualTo(memories.get(i - 1).score());
        }
    }

    @Test
    void pins_of_equal_importance_come_by_id_and_a_limit_cuts_through_them_so() {
        Memory b = memory(ALICE, "Allergic to penicillin", 0).toBuilder().id("pin-b").permanent(true).importance(90).build();
        Memory a = memory(ALICE, "Allergic to dipyrone", 1).toBuilder().id("pin-a").permanent(true).importance(90).build();
        Memory c = memory(ALICE, "Name is Marina", 2).toBuilder().id("pin-c").permanent(true).importance(90).build();
        Memory top = memory(ALICE, "Lactose intolerant", 3).toBuilder().id("pin-z").permanent(true).importance(95).build();
        Memory low = memory(ALICE, "Lives in Porto", 4).toBuilder().id("pin-0").permanent(true).importance(40).build();
        Memory deprecated = memory(ALICE, "Allergic to nuts", 5).toBuilder().id("pin-aa").permanent(true)
                .importance(90).status(MemoryStatus.DEPRECATED).build();
        put(ALICE, b, low, c, deprecated, top, a);
        assertThat(store.pinnedMemories(ALICE, 10)).containsExactly(top, a, b, c, low);
        assertThat(store.pinnedMemories(ALICE, 2)).containsExactly(top, a);
        assertThat(store.pinnedMemories(ALICE, 3)).containsExactly(top, a, b);
    }

    private static <T> List<Scored<T>> atLeast(List<Scored<T>> hits, double floor) {
        return hits.stream().filter(h -> h.score() >= floor).toList();
    }

    // ------------------------------------------------------------ sessions

    @Test
    void should_return_recent_turns_in_order() {
        WriteBatch b = WriteBatch.of(ALICE);
        for (int i = 0; i < 12; i++) {
            b.append(new SessionTurn(ALICE, "s1", i, "t" + i, i % 2 == 0 ? Role.USER : Role.ASSISTANT, null,
                    "turn " + i, T0.plusSeconds(i)));
        }
        store.write(b);
        assertThat(store.recentTurns(ALICE, "s1", 3)).extracting(SessionTurn::seq).containsExactly(9L, 10L, 11L);
        assertThat(store.sessionTurns(ALICE, "s1", 4, 2)).extracting(SessionTurn::seq).containsExactly(4L, 5L);
        assertThat(store.sessionLength(ALICE, "s1")).isEqualTo(12);
        assertThat(store.sessionLength(ALICE, "other")).isZero();
        assertThat(store.recentTurns(ALICE, "other", 3)).isEmpty();
    }

    // ------------------------------------------------------------ episodic recall (archived turns)

    private SessionTurn archived(Scope scope, String session, long seq, String speaker, String text, int days) {
        return new SessionTurn(scope, session, seq, session + ":" + seq, Role.USER, speaker, text,
                T0.plusSeconds(days * 86_400L));
    }

    @Test
    void should_find_archived_turns_by_text_and_speaker_within_the_scope() {
        SessionTurn paint = archived(ALICE, "s1", 0, "Priya", "I painted a sunrise over the lake last week", 0);
        SessionTurn other = archived(ALICE, "s1", 1, "Lena", "The kids loved the pottery workshop", 0);
        SessionTurn noSpeaker = archived(ALICE, "s2", 0, null, "Sunrise hikes are my favourite", 3);
        store.write(WriteBatch.of(ALICE).archive(paint).archive(other).archive(noSpeaker));
        store.write(WriteBatch.of(BOB).archive(archived(BOB, "s1", 0, "Priya", "sunrise painting by Bob", 0)));

        List<Scored<SessionTurn>> hits = store.searchTurns(ALICE, "What did Priya paint at sunrise?", 10);
        assertThat(hits).extracting(h -> h.item().turnId()).containsExactlyInAnyOrder("s1:0", "s2:0");
        assertThat(hits.get(0).item()).isEqualTo(paint);
        assertThat(hits.get(0).score()).isGreaterThan(hits.get(1).score());
        assertThat(store.searchTurns(ALICE, "Lena", 10)).extracting(h -> h.item().turnId())
                .containsExactly("s1:1");
        assertThat(store.searchTurns(ALICE, "sunrise", 1)).hasSize(1);
        assertThat(store.searchTurns(ALICE_OTHER_AGENT, "sunrise", 10)).isEmpty();
        assertThat(store.searchTurns(ALICE_OTHER_TENANT, "sunrise", 10)).isEmpty();
        for (String q : List.of("", "  ", "\"\"", "NEAR(a b)", "*", "sunrise AND NOT", "'; DROP TABLE archive_turns; --")) {
            assertThat(store.searchTurns(ALICE, q, 5)).as(q).isNotNull();
        }
        reopen();
        assertThat(store.searchTurns(ALICE, "pottery", 10)).extracting(Scored::item).containsExactly(other);
    }

    @Test
    void should_replace_an_archived_turn_and_its_search_entry() {
        store.write(WriteBatch.of(ALICE).archive(archived(ALICE, "s1", 0, null, "first version about tulips", 0)));
        store.write(WriteBatch.of(ALICE).archive(archived(ALICE, "s1", 0, null, "second version about roses", 0)));
        assertThat(store.searchTurns(ALICE, "tulips", 5)).isEmpty();
        assertThat(store.searchTurns(ALICE, "roses", 5)).hasSize(1);
        assertThat(store.archivedTurns(ALICE, "s1")).hasSize(1);
    }

    @Test
    void should_list_archived_neighbours_by_seq_range() {
        WriteBatch b = WriteBatch.of(ALICE);
        for (int i = 0; i < 10; i++) {
            b.archive(archived(ALICE, "s1", i, null, "turn number " + i, 0));
        }
        store.write(b);
        assertThat(store.archivedTurns(ALICE, "s1", 3, 5)).extracting(SessionTurn::seq).containsExactly(3L, 4L, 5L);
        assertThat(store.archivedTurns(ALICE, "s1", 8, 20)).extracting(SessionTurn::seq).containsExactly(8L, 9L);
        assertThat(store.archivedTurns(BOB, "s1", 0, 9)).isEmpty();
    }

    @Test
    void should_list_the_neighbours_of_several_turns_in_one_read() {
        WriteBatch b = WriteBatch.of(ALICE);
        for (int i = 0; i < 10; i++) {
            b.archive(archived(ALICE, "s1", i, null, "turn number " + i, 0));
            b.archive(archived(ALICE, "s2", i, null, "other turn " + i, 0));
        }
        store.write(b);
        store.write(WriteBatch.of(BOB).archive(archived(BOB, "s1", 4, null, "bob's turn", 0)));
        // overlapping ranges give each turn once; sessions in order, then seqs; another user's turns never
        List<TurnRange> ranges = List.of(new TurnRange("s2", 8, 12), new TurnRange("s1", 3, 5),
                new TurnRange("s1", 4, 6), new TurnRange("s1", 9, 3), new TurnRange("nope", 0, 9));
        assertThat(store.archivedTurns(ALICE, ranges)).extracting(t -> t.sessionId() + ":" + t.seq())
                .containsExactly("s1:3", "s1:4", "s1:5", "s1:6", "s2:8", "s2:9");
        assertThat(store.archivedTurns(ALICE, List.of())).isEmpty();
        assertThat(store.archivedTurns(BOB, ranges)).extracting(SessionTurn::text).containsExactly("bob's turn");
    }

    @Test
    void should_return_search_hits_equal_to_the_archived_turns() {
        // the manager takes a neighbour window's turns from the search hits instead of reading them
        // again, so a hit must be the archived turn itself: every field, by text and by vector
        SessionTurn named = new SessionTurn(ALICE, "s1", 0, "t-0", Role.USER, "Priya",
                "We sailed along the coast at sunrise", T0.plusNanos(123_456_789));
        SessionTurn reply = new SessionTurn(ALICE, "s1", 1, "t-1", Role.ASSISTANT, null,
                "A sunrise sail sounds lovely", T0.plusSeconds(61));
        SessionTurn old = new SessionTurn(ALICE, "s2", 4, "t-0", Role.TOOL, "weather",
                "Sunrise at 06:12, wind 12 knots", Instant.parse("1969-07-20T20:17:40.000000001Z"));
        store.write(WriteBatch.of(ALICE).archive(named, Embedding.of(new float[] {1, 0, 0}))
                .archive(reply, Embedding.of(new float[] {0.8f, 0.6f, 0}))
                .archive(old, Embedding.of(new float[] {0.6f, 0.8f, 0})));
        for (int round = 0; round < 2; round++) {
            List<SessionTurn> byText = store.searchTurns(ALICE, "sunrise sail", 10).stream().map(Scored::item).toList();
            List<SessionTurn> byVector = store.searchTurnsByVector(ALICE, new float[] {1, 0, 0}, 10).stream()
                    .map(Scored::item).toList();
            assertThat(byText).containsExactlyInAnyOrder(named, reply, old);
            assertThat(byVector).containsExactlyInAnyOrder(named, reply, old);
            for (SessionTurn hit : byText) {
                assertThat(store.archivedTurns(ALICE, hit.sessionId(), hit.seq(), hit.seq())).containsExactly(hit);
            }
            reopen();
        }
    }

    @Test
    void should_find_archived_turns_by_vector() {
        store.write(WriteBatch.of(ALICE)
                .archive(archived(ALICE, "s1", 0, null, "near turn", 0), Embedding.of(new float[] {1, 0, 0}))
                .archive(archived(ALICE, "s1", 1, null, "far turn", 0), Embedding.of(new float[] {0, 1, 0}))
                .archive(archived(ALICE, "s1", 2, null, "turn without a vector", 0)));
        store.write(WriteBatch.of(BOB)
                .archive(archived(BOB, "s1", 0, null, "bob's turn", 0), Embedding.of(new float[] {1, 0, 0})));
        List<Scored<SessionTurn>> hits = store.searchTurnsByVector(ALICE, new float[] {0.9f, 0.1f, 0}, 10);
        assertThat(hits).extracting(h -> h.item().seq()).containsExactly(0L, 1L);
        assertThat(hits.get(0).score()).isGreaterThan(hits.get(1).score());
        assertThat(store.searchTurnsByVector(BOB, new float[] {1, 0, 0}, 10)).hasSize(1);
        assertThatThrownBy(() -> store.searchTurnsByVector(ALICE, new float[] {1, 0}, 5))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("dimension");
        reopen();
        assertThat(store.searchTurnsByVector(ALICE, new float[] {1, 0, 0}, 1)).extracting(h -> h.item().seq())
                .containsExactly(0L);
    }

    @Test
    void should_purge_archived_turns_past_their_retention_and_erase_them() {
        store.write(WriteBatch.of(ALICE)
                .archive(archived(ALICE, "s1", 0, null, "old violin lesson", 0))
                .archive(archived(ALICE, "s2", 0, null, "new violin concert", 30)));
        store.write(WriteBatch.of(BOB).archive(archived(BOB, "s1", 0, null, "bob's old violin", 0)));
        store.write(WriteBatch.of(ALICE).purgeArchiveBefore(T0.plusSeconds(10 * 86_400L)));
        assertThat(store.searchTurns(ALICE, "violin", 10)).extracting(h -> h.item().text())
                .containsExactly("new violin concert");
        assertThat(store.archivedTurns(ALICE, "s1")).isEmpty();
        assertThat(store.searchTurns(BOB, "violin", 10)).hasSize(1);
        store.erase(ALICE);
        assertThat(store.searchTurns(ALICE, "violin", 10)).isEmpty();
        assertThat(store.searchTurns(BOB, "violin", 10)).hasSize(1);
    }

    // ------------------------------------------------------------ lifecycle

    @Test
    void should_keep_everything_after_reopen() {
        Memory m = memory(ALICE, "survives reopen", 0);
        Observation o = observation(BOB, "also survives", 0);
        put(ALICE, m);
        put(BOB, o);
        reopen();
        assertThat(store.memory(ALICE, m.id())).contains(m);
        assertThat(store.observation(BOB, o.id())).contains(o);
        assertThat(store.searchMemories(ALICE, "reopen", EnumSet.of(MemoryStatus.ACTIVE),
                EnumSet.allOf(MemoryKind.class), 5)).hasSize(1);
    }

    @Test
    void should_allow_close_twice_and_refuse_use_after_close() {
        store.close();
        store.close();
        assertThatThrownBy(() -> store.memories(ALICE, MemoryFilter.all())).isInstanceOf(StoreClosedException.class);
        assertThatThrownBy(() -> store.write(WriteBatch.of(ALICE).put(memory(ALICE, "x", 0))))
                .isInstanceOf(StoreClosedException.class);
        assertThatThrownBy(() -> store.searchMemories(ALICE, "x", Set.of(MemoryStatus.ACTIVE),
                Set.of(MemoryKind.FACT), 1)).isInstanceOf(StoreClosedException.class);
        store = openStore(folder);
    }

    @Test
    void should_reject_bad_arguments_clearly() {
        assertThatThrownBy(() -> store.searchMemories(ALICE, "x", Set.of(MemoryStatus.ACTIVE), Set.of(MemoryKind.FACT), 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("limit");
        assertThatThrownBy(() -> store.memories(null, MemoryFilter.all()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("scope");
        assertThatThrownBy(() -> store.write(null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("batch");
    }

    @Test
    void should_accept_concurrent_writers_and_readers() throws Exception {
        int threads = 4;
        int perThread = 25;
        List<Thread> workers = new ArrayList<>();
        List<Throwable> errors = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int t = 0; t < threads; t++) {
            Scope s = Scope.of("clinic-1", "receptionist", "user" + t);
            workers.add(new Thread(() -> {
                try {
                    for (int i = 0; i < perThread; i++) {
                        put(s, memory(s, "concurrent fact " + i, i));
                        store.searchMemories(s, "concurrent fact", Set.of(MemoryStatus.ACTIVE),
                                EnumSet.allOf(MemoryKind.class), 5);
                    }
                } catch (Throwable e) {
                    errors.add(e);
                }
            }));
        }
        workers.forEach(Thread::start);
        for (Thread w : workers) {
            w.join();
        }
        assertThat(errors).isEmpty();
        for (int t = 0; t < threads; t++) {
            assertThat(store.memories(Scope.of("clinic-1", "receptionist", "user" + t), MemoryFilter.all()))
                    .hasSize(perThread);
        }
    }

    // ------------------------------------------------------------ turns numbered inside the write, leases

    private static SessionTurn offsetTurn(Scope scope, String session, long offset, String turnId) {
        return new SessionTurn(scope, session, offset, turnId, Role.USER, null, "turn " + turnId, T0);
    }

    @Test
    void should_number_turns_appended_at_the_session_end_inside_the_write() {
        store.write(WriteBatch.of(ALICE).append(offsetTurn(ALICE, "s1", 0, "a")).append(offsetTurn(ALICE, "s1", 1, "b")));
        WriteBatch b = WriteBatch.of(ALICE);
        for (int i = 0; i < 2; i++) {
            SessionTurn t = offsetTurn(ALICE, "s1", i, "c" + i);
            b.appendAtSessionEnd(t).archiveAtSessionEnd(t);
        }
        b.appendAtSessionEnd(offsetTurn(ALICE, "s2", 0, "d0"));
        store.write(b);

        assertThat(b.assignedSeq("s1")).isEqualTo(2);
        assertThat(b.assignedSeq("s2")).isZero();
        assertThat(store.sessionTurns(ALICE, "s1", 0, 10)).extracting(t -> t.seq() + ":" + t.turnId())
                .containsExactly("0:a", "1:b", "2:c0", "3:c1");
        assertThat(store.archivedTurns(ALICE, "s1")).extracting(t -> t.seq() + ":" + t.turnId())
                .containsExactly("2:c0", "3:c1");
        assertThat(store.sessionTurns(ALICE, "s2", 0, 10)).extracting(SessionTurn::seq).containsExactly(0L);
        assertThatThrownBy(() -> b.assignedSeq("s3")).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void should_never_give_two_concurrent_batches_the_same_seq() throws Exception {
        int threads = 4;
        int perThread = 20;
        List<Thread> workers = new ArrayList<>();
        List<Throwable> errors = java.util.Collections.synchronizedList(new ArrayList<>());
        java.util.Set<Long> firsts = java.util.concurrent.ConcurrentHashMap.newKeySet();
        java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
        for (int t = 0; t < threads; t++) {
            int thread = t;
            workers.add(new Thread(() -> {
                try {
                    start.await();
                    for (int i = 0; i < perThread; i++) {
                        WriteBatch b = WriteBatch.of(ALICE);
                        for (int k = 0; k < 2; k++) {
                            SessionTurn turn = offsetTurn(ALICE, "shared", k, "w" + thread + "-" + i + "-" + k);
                            b.appendAtSessionEnd(turn).archiveAtSessionEnd(turn);
                        }
                        store.write(b);
                        firsts.add(b.assignedSeq("shared"));
                    }
                } catch (Throwable e) {
                    errors.add(e);
                }
            }));
        }
        workers.forEach(Thread::start);
        start.countDown();
        for (Thread w : workers) {
            w.join();
        }
        assertThat(errors).isEmpty();
        int total = threads * perThread * 2;
        assertThat(firsts).hasSize(threads * perThread);
        assertThat(store.sessionLength(ALICE, "shared")).isEqualTo(total);
        List<SessionTurn> turns = store.sessionTurns(ALICE, "shared", 0, total + 1);
        assertThat(turns).extracting(SessionTurn::seq).containsExactlyElementsOf(
                java.util.stream.LongStream.range(0, total).boxed().toList());
        // each batch's two turns are adjacent, and the archive holds the same turn under the same seq
        for (int i = 0; i < total; i += 2) {
            assertThat(turns.get(i).turnId()).endsWith("-0");
            assertThat(turns.get(i + 1).turnId()).isEqualTo(turns.get(i).turnId().replaceAll("-0$", "-1"));
        }
        assertThat(store.archivedTurns(ALICE, "shared")).containsExactlyElementsOf(turns);
    }

    @Test
    void should_grant_a_lease_to_one_holder_until_it_expires_or_is_released() {
        Instant until = T0.plusSeconds(60);
        assertThat(store.tryLease(ALICE, "dream", "a", T0, until)).isTrue();
        assertThat(store.tryLease(ALICE, "dream", "b", T0.plusSeconds(59), T0.plusSeconds(120))).isFalse();
        assertThat(store.tryLease(ALICE, "dream", "a", T0.plusSeconds(30), T0.plusSeconds(90))).isTrue();
        // other scopes and other lease names are independent
        assertThat(store.tryLease(BOB, "dream", "b", T0, until)).isTrue();
        assertThat(store.tryLease(ALICE_OTHER_TENANT, "dream", "b", T0, until)).isTrue();
        assertThat(store.tryLease(ALICE, "other", "b", T0, until)).isTrue();
        // a lease that expired is taken over (a crashed holder blocks nobody for long)
        assertThat(store.tryLease(ALICE, "dream", "b", T0.plusSeconds(89), T0.plusSeconds(200))).isFalse();
        assertThat(store.tryLease(ALICE, "dream", "b", T0.plusSeconds(90), T0.plusSeconds(200))).isTrue();
        assertThat(store.tryLease(ALICE, "dream", "a", T0.plusSeconds(100), T0.plusSeconds(300))).isFalse();
        // only the holder can release it
        store.releaseLease(ALICE, "dream", "a");
        assertThat(store.tryLease(ALICE, "dream", "a", T0.plusSeconds(100), T0.plusSeconds(300))).isFalse();
        store.releaseLease(ALICE, "dream", "b");
        assertThat(store.tryLease(ALICE, "dream", "a", T0.plusSeconds(100), T0.plusSeconds(300))).isTrue();
        // erasing the scope drops its leases
        store.erase(ALICE);
        assertThat(store.tryLease(ALICE, "dream", "c", T0.plusSeconds(100), T0.plusSeconds(300))).isTrue();
    }

    @Test
    void should_take_and_release_several_leases_at_once_as_one_by_one() {
        Instant until = T0.plusSeconds(60);
        assertThat(store.tryLease(BOB, "dream", "other", T0, until)).isTrue();

        // BOB is held by another holder; the rest are granted, in the order given
        assertThat(store.tryLeases(List.of(ALICE_OTHER_AGENT, BOB, ALICE, ALICE_OTHER_TENANT), "dream", "a", T0, until))
                .containsExactly(ALICE_OTHER_AGENT, ALICE, ALICE_OTHER_TENANT);
        assertThat(store.tryLease(ALICE, "dream", "b", T0.plusSeconds(10), T0.plusSeconds(70))).isFalse();
        assertThat(store.tryLeases(List.of(), "dream", "a", T0, until)).isEmpty();
        // the holder renews them all; an expired lease is taken over
        assertThat(store.tryLeases(List.of(ALICE, BOB, ALICE_OTHER_AGENT), "dream", "a", T0.plusSeconds(60),
                T0.plusSeconds(120))).containsExactly(ALICE, BOB, ALICE_OTHER_AGENT);

        // releasing gives up only what the holder holds
        store.releaseLeases(List.of(ALICE, ALICE_OTHER_TENANT, ALICE_OTHER_AGENT), "dream", "b");
        assertThat(store.tryLease(ALICE, "dream", "b", T0.plusSeconds(61), T0.plusSeconds(120))).isFalse();
        store.releaseLeases(List.of(ALICE, ALICE_OTHER_TENANT), "dream", "a");
        assertThat(store.tryLeases(List.of(ALICE, ALICE_OTHER_TENANT, ALICE_OTHER_AGENT), "dream", "b",
                T0.plusSeconds(61), T0.plusSeconds(120))).containsExactly(ALICE, ALICE_OTHER_TENANT);
        assertThatThrownBy(() -> store.tryLeases(List.of(ALICE), " ", "a", T0, until))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
