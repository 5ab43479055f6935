package dev.reverie;

import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.MemoryStores;
import dev.reverie.spi.SessionTurn;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static dev.reverie.GovernanceFixtures.T0;
import static dev.reverie.GovernanceFixtures.memory;
import static dev.reverie.GovernanceFixtures.observation;
import static dev.reverie.GovernanceFixtures.put;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MemoryAdminTest {

    static final Scope ALICE = Scope.of("clinic-42", "receptionist", "alice");
    static final Scope BOB = Scope.of("clinic-42", "receptionist", "bob");

    @TempDir
    Path dir;
    MemoryStore store;
    MutableClock clock;
    ContextManager memory;
    MemoryAdmin admin;

    @BeforeEach
    void setUp() {
        store = MemoryStores.open("sqlite:" + dir);
        clock = new MutableClock(T0);
        memory = ContextManager.builder().store(store).clock(clock)
                .immutable(ImmutableLayer.of("You are the clinic's receptionist.")).build();
        admin = memory.admin();
    }

    @AfterEach
    void tearDown() {
        memory.close();
        store.close();
    }

    AssembledContext ask(Scope scope, String query) {
        return memory.buildContext(ContextRequest.builder(scope, "s1").query(query).budgetTokens(2_000).build());
    }

    // ------------------------------------------------------------------ L3

    @Test
    void lists_deletes_and_clears_observations_of_one_user_only() {
        put(store, ALICE, observation(ALICE, "o1", "Lives in Porto", "t1", T0),
                observation(ALICE, "o2", "Works as a nurse", "t2", T0.plusSeconds(1)),
                observation(ALICE, "o3", "Has a cat", "t3", T0.plusSeconds(2)));
        put(store, BOB, observation(BOB, "o1", "Lives in Lisbon", "t1", T0));

        assertThat(admin.observations(ALICE)).extracting(Observation::id).containsExactly("o1", "o2", "o3");
        assertThat(admin.observation(ALICE, "o2")).map(Observation::text).contains("Works as a nurse");
        assertThat(admin.observation(ALICE, "nope")).isEmpty();

        admin.deleteObservation(ALICE, "o2");
        assertThat(admin.observations(ALICE)).extracting(Observation::id).containsExactly("o1", "o3");

        assertThat(admin.clearObservations(ALICE)).isEqualTo(2);
        assertThat(admin.observations(ALICE)).isEmpty();
        assertThat(admin.observations(BOB)).extracting(Observation::text).containsExactly("Lives in Lisbon");
    }

    @Test
    void deleting_an_unknown_observation_fails_naming_the_id() {
        assertThatThrownBy(() -> admin.deleteObservation(ALICE, "o-404"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("observation id 'o-404'").hasMessageContaining("clinic-42/receptionist/alice");
        assertThatThrownBy(() -> admin.deleteObservation(ALICE, "bad id!"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("observation id");
    }

    // ------------------------------------------------------------------ remember

    @Test
    void remember_adds_an_active_operator_memory_with_a_created_event() {
        List<Memory> added = admin.remember(ALICE,
                MemoryDraft.of(MemoryKind.FACT, "Allergic to dipyrone").withSubject("user.allergy")
                        .withValue("dipyrone").withPermanent(true).withImportance(95),
                MemoryDraft.of(MemoryKind.PREFERENCE, "Prefers morning appointments"));

        assertThat(added).hasSize(2);
        Memory allergy = admin.memory(ALICE, added.get(0).id()).orElseThrow();
        assertThat(allergy).isEqualTo(added.get(0));
        assertThat(allergy.status()).isEqualTo(MemoryStatus.ACTIVE);
        assertThat(allergy.provenance().source()).isEqualTo(Source.OPERATOR);
        assertThat(allergy.permanent()).isTrue();
        assertThat(allergy.importance()).isEqualTo(95);
        assertThat(allergy.subject()).isEqualTo("user.allergy");
        assertThat(allergy.value()).isEqualTo("dipyrone");
        assertThat(allergy.createdAt()).isEqualTo(T0);
        assertThat(allergy.expiresAt()).isNull();
        Memory pref = added.get(1);
        assertThat(pref.subject()).isEqualTo("user.preference");
        assertThat(pref.importance()).isEqualTo(MemoryDraft.DEFAULT_IMPORTANCE);

        List<MemoryEvent> history = admin.history(ALICE, allergy.id());
        assertThat(history).hasSize(1);
        assertThat(history.get(0).type()).isEqualTo(MemoryEventType.CREATED);
        assertThat(history.get(0).at()).isEqualTo(T0);
        assertThat(history.get(0).before()).isNull();
        assertThat(history.get(0).after()).isEqualTo("Allergic to dipyrone");
        assertThat(history.get(0).cause()).isEqualTo("operator");

        // a permanent operator fact is pinned into every context
        assertThat(ask(ALICE, "hello").recalled()).extracting(RecalledMemory::text).contains("Allergic to dipyrone");
        assertThat(admin.memories(BOB)).isEmpty();
    }

    @Test
    void remember_validates_every_draft_before_writing_any() {
        assertThatThrownBy(() -> admin.remember(ALICE, MemoryDraft.of(MemoryKind.FACT, "fine"), null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("drafts[1]");
        assertThat(admin.memories(ALICE, MemoryFilter.all())).isEmpty();
        assertThatThrownBy(() -> admin.remember(ALICE))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("drafts must not be empty");
    }

    @Test
    void drafts_reject_bad_fields_with_a_message_naming_them() {
        assertThatThrownBy(() -> MemoryDraft.of(MemoryKind.FACT, " "))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("text must not be blank");
        assertThatThrownBy(() -> MemoryDraft.of(null, "x"))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("kind must not be null");
        assertThatThrownBy(() -> MemoryDraft.of(MemoryKind.FACT, "x").withImportance(150))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("importance").hasMessageContaining("150");
        assertThatThrownBy(() -> MemoryDraft.of(MemoryKind.FACT, "x").withTtl(Duration.ofDays(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("ttl must be positive, was PT-24H");
        assertThatThrownBy(() -> new MemoryDraft(MemoryKind.FACT, "x", null, null, null, 50, false, T0,
                Duration.ofDays(1))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not both");
        assertThatThrownBy(() -> MemoryDraft.of(MemoryKind.FACT, "x".repeat(MemoryDraft.MAX_TEXT_LENGTH + 1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("text must be at most 10000");
        // the last of ttl and expiresAt set wins instead of mixing
        MemoryDraft d = MemoryDraft.of(MemoryKind.FACT, "x").withTtl(Duration.ofDays(1)).withExpiresAt(T0);
        assertThat(d.ttl()).isNull();
        assertThat(d.expiresAt()).isEqualTo(T0);
    }

    // ------------------------------------------------------------------ edit and delete

    @Test
    void edit_changes_the_text_in_place_and_keeps_the_old_text_in_history() {
        Memory m = admin.remember(ALICE, MemoryDraft.of(MemoryKind.FACT, "Lives in Porto")).get(0);
        clock.advance(Duration.ofHours(2));

        Memory edited = admin.edit(ALICE, m.id(), "Lives in Braga");

        assertThat(edited.id()).isEqualTo(m.id());
        assertThat(edited.text()).isEqualTo("Lives in Braga");
        assertThat(edited.updatedAt()).isEqualTo(T0.plus(Duration.ofHours(2)));
        assertThat(edited.createdAt()).isEqualTo(T0);
        assertThat(admin.memory(ALICE, m.id())).contains(edited);
        List<MemoryEvent> history = admin.history(ALICE, m.id());
        assertThat(history).extracting(MemoryEvent::type)
                .containsExactly(MemoryEventType.CREATED, MemoryEventType.EDITED);
        MemoryEvent e = history.get(1);
        assertThat(e.before()).isEqualTo("Lives in Porto");
        assertThat(e.after()).isEqualTo("Lives in Braga");
        assertThat(e.cause()).isEqualTo("operator");
        assertThat(e.at()).isEqualTo(T0.plus(Duration.ofHours(2)));

        // the index follows the edit: the new text is found, the old one no longer is
        assertThat(ask(ALICE, "Braga").recalled()).extracting(RecalledMemory::text).containsExactly("Lives in Braga");
        assertThat(ask(ALICE, "Porto").recalled()).isEmpty();
    }

    @Test
    void editing_to_the_same_text_writes_no_event() {
        Memory m = admin.remember(ALICE, MemoryDraft.of(MemoryKind.FACT, "Lives in Porto")).get(0);
        assertThat(admin.edit(ALICE, m.id(), "Lives in Porto")).isEqualTo(m);
        assertThat(admin.history(ALICE, m.id())).hasSize(1);
    }

    @Test
    void edit_recomputes_the_embedding_when_an_embedder_is_set() {
        memory.close();
        ContextManager withEmbedder = ContextManager.builder().store(store).clock(clock)
                .embedder(new dev.reverie.spi.Embedder() {
                    @Override
                    public int dimension() {
                        return 2;
                    }

                    @Override
                    public float[] embed(String text) {
                        return new float[] {text.length(), 1};
                    }
                }).build();
        try {
            MemoryAdmin a = withEmbedder.admin();
            Memory m = a.remember(ALICE, MemoryDraft.of(MemoryKind.FACT, "abc")).get(0);
            assertThat(m.embedding()).isEqualTo(Embedding.of(new float[] {3, 1}));
            assertThat(a.edit(ALICE, m.id(), "abcdef").embedding()).isEqualTo(Embedding.of(new float[] {6, 1}));
            assertThat(a.memory(ALICE, m.id()).orElseThrow().embedding()).isEqualTo(Embedding.of(new float[] {6, 1}));
        } finally {
            withEmbedder.close();
        }
    }

    @Test
    void edit_and_delete_of_an_unknown_memory_fail_naming_id_and_scope() {
        assertThatThrownBy(() -> admin.edit(ALICE, "m-404", "x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("memory id 'm-404' does not exist in scope clinic-42/receptionist/alice");
        assertThatThrownBy(() -> admin.deleteMemory(ALICE, "m-404"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'m-404'");
        assertThatThrownBy(() -> admin.history(ALICE, "m-404"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no memory and no history");
        assertThatThrownBy(() -> admin.edit(ALICE, "m-1", " "))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("newText must not be blank");
        assertThat(admin.memory(ALICE, "m-404")).isEmpty();
        // another user's memory is unknown in this scope
        Memory bobs = admin.remember(BOB, MemoryDraft.of(MemoryKind.FACT, "Bob's fact")).get(0);
        assertThatThrownBy(() -> admin.edit(ALICE, bobs.id(), "hijacked")).isInstanceOf(IllegalArgumentException.class);
        assertThat(admin.memory(BOB, bobs.id()).orElseThrow().text()).isEqualTo("Bob's fact");
    }

    @Test
    void delete_appends_a_deleted_event_that_outlives_the_memory() {
        Memory m = admin.remember(ALICE, MemoryDraft.of(MemoryKind.FACT, "Lives in Porto")).get(0);
        clock.advance(Duration.ofMinutes(5));

        admin.deleteMemory(ALICE, m.id());

        assertThat(admin.memory(ALICE, m.id())).isEmpty();
        assertThat(admin.memories(ALICE, MemoryFilter.all())).isEmpty();
        List<MemoryEvent> history = admin.history(ALICE, m.id());
        assertThat(history).extracting(MemoryEvent::type)
                .containsExactly(MemoryEventType.CREATED, MemoryEventType.DELETED);
        assertThat(history.get(1).before()).isEqualTo("Lives in Porto");
        assertThat(history.get(1).after()).isNull();
        assertThat(history.get(1).cause()).isEqualTo("operator");
        assertThat(history.get(1).at()).isEqualTo(T0.plus(Duration.ofMinutes(5)));
        assertThat(ask(ALICE, "Porto").recalled()).isEmpty();
    }

    // ------------------------------------------------------------------ listing and TTL at read

    @Test
    void memories_filter_by_status_kind_text_and_time() {
        put(store, ALICE,
                memory(ALICE, "m1", "Lives in Porto", List.of("t1"), T0),
                memory(ALICE, "m2", "Works as a nurse", List.of("t2"), T0.plusSeconds(10)).toBuilder()
                        .status(MemoryStatus.DEPRECATED).build(),
                memory(ALICE, "m3", "Likes jazz", List.of("t3"), T0.plusSeconds(20)).toBuilder()
                        .kind(MemoryKind.PREFERENCE).build(),
                memory(ALICE, "m4", "Old address in Porto", List.of("t4"), T0.plusSeconds(30)).toBuilder()
                        .status(MemoryStatus.SUPERSEDED).supersededBy("m1").build());

        assertThat(admin.memories(ALICE)).extracting(Memory::id).containsExactly("m1", "m3");
        assertThat(admin.memories(ALICE, MemoryFilter.all())).extracting(Memory::id)
                .containsExactly("m1", "m2", "m3", "m4");
        assertThat(admin.memories(ALICE, MemoryFilter.all().withStatuses(MemoryStatus.DEPRECATED)))
                .extracting(Memory::id).containsExactly("m2");
        assertThat(admin.memories(ALICE, MemoryFilter.all().withKinds(MemoryKind.PREFERENCE)))
                .extracting(Memory::id).containsExactly("m3");
        assertThat(admin.memories(ALICE, MemoryFilter.all().withText("porto")))
                .extracting(Memory::id).containsExactly("m1", "m4");
        assertThat(admin.memories(ALICE, MemoryFilter.all().createdBetween(T0.plusSeconds(10), T0.plusSeconds(30))))
                .extracting(Memory::id).containsExactly("m2", "m3");
    }

    @Test
    void ttl_at_read_hides_a_memory_from_the_default_listing_and_from_recall_exactly_at_its_deadline() {
        Memory ttl = admin.remember(ALICE, MemoryDraft.of(MemoryKind.EVENT, "Appointment moved to Friday")
                .withTtl(Duration.ofHours(1))).get(0);
        Memory pinned = admin.remember(ALICE, MemoryDraft.of(MemoryKind.FACT, "Temporary badge number 4471")
                .withPermanent(true).withExpiresAt(T0.plus(Duration.ofHours(1)))).get(0);
        Memory lasting = admin.remember(ALICE, MemoryDraft.of(MemoryKind.EVENT, "Appointment history is on file"))
                .get(0);
        assertThat(ttl.expiresAt()).isEqualTo(T0.plus(Duration.ofHours(1)));

        // near miss: one millisecond before the deadline it is still listed and recalled
        clock.set(T0.plus(Duration.ofHours(1)).minusMillis(1));
        assertThat(admin.memories(ALICE)).extracting(Memory::id)
                .containsExactlyInAnyOrder(ttl.id(), pinned.id(), lasting.id());
        assertThat(ask(ALICE, "appointment Friday").recalled()).extracting(RecalledMemory::memoryId)
                .contains(ttl.id(), pinned.id());

        // at the deadline it is gone from the listing and from every context, but kept for audit
        clock.set(T0.plus(Duration.ofHours(1)));
        assertThat(admin.memories(ALICE)).extracting(Memory::id).containsExactly(lasting.id());
        assertThat(ask(ALICE, "appointment Friday").recalled()).extracting(RecalledMemory::memoryId)
                .doesNotContain(ttl.id(), pinned.id()).contains(lasting.id());
        assertThat(admin.memory(ALICE, ttl.id())).isPresent();
        assertThat(admin.memories(ALICE, MemoryFilter.all())).extracting(Memory::id)
                .contains(ttl.id(), pinned.id());
        assertThat(admin.memory(ALICE, ttl.id()).orElseThrow().expired(clock.instant())).isTrue();
    }

    // ------------------------------------------------------------------ profile and conversation

    @Test
    void shows_style_profile_sessions_and_the_archived_conversation() {
        put(store, ALICE, new StyleProfile(ALICE, "short", "informal", "pt", true, "direct",
                "Short, informal, in Portuguese", 4, T0));
        memory.recordTurn(ALICE, "s1", Turn.user("Bom dia!").withId("D1:1"), Turn.assistant("Olá!").withId("D1:2"));
        memory.recordTurn(ALICE, "s2", Turn.user("Outra conversa"));

        assertThat(admin.styleProfile(ALICE)).map(StyleProfile::language).contains("pt");
        assertThat(admin.styleProfile(BOB)).isEmpty();
        assertThat(admin.sessions(ALICE)).containsExactly("s1", "s2");
        List<SessionTurn> conversation = admin.conversation(ALICE, "s1");
        assertThat(conversation).extracting(SessionTurn::turnId).containsExactly("D1:1", "D1:2");
        assertThat(conversation).extracting(SessionTurn::text).containsExactly("Bom dia!", "Olá!");
        assertThat(admin.conversation(ALICE, "unknown-session")).isEmpty();
        assertThat(admin.conversation(BOB, "s1")).isEmpty();
    }

    @Test
    void admin_refuses_work_after_the_manager_closed() {
        MemoryAdmin a = memory.admin();
        memory.close();
        assertThatThrownBy(() -> a.memories(ALICE)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
        assertThatThrownBy(memory::admin).isInstanceOf(IllegalStateException.class);
    }

    // ------------------------------------------------------------------ concurrency

    @Test
    void operator_edits_never_lose_a_concurrent_retrieval_update_or_the_reverse() throws Exception {
        Memory m = admin.remember(ALICE, MemoryDraft.of(MemoryKind.FACT, "allergy note v0")).get(0);
        int rounds = 40;
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<Integer> reader = pool.submit(() -> {
                int recalled = 0;
                for (int i = 0; i < rounds; i++) {
                    if (ask(ALICE, "allergy").recalled().stream().anyMatch(r -> r.memoryId().equals(m.id()))) {
                        recalled++;
                    }
                }
                return recalled;
            });
            Future<?> editor = pool.submit(() -> {
                for (int i = 1; i <= rounds; i++) {
                    admin.edit(ALICE, m.id(), "allergy note v" + i);
                }
            });
            editor.get(60, TimeUnit.SECONDS);
            int recalled = reader.get(60, TimeUnit.SECONDS);
            memory.flush();

            Memory last = admin.memory(ALICE, m.id()).orElseThrow();
            assertThat(last.text()).isEqualTo("allergy note v" + rounds);
            assertThat(last.retrievalCount()).isEqualTo(recalled);
            assertThat(recalled).isEqualTo(rounds);
            assertThat(admin.history(ALICE, m.id())).hasSize(1 + rounds);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void a_deleted_memory_does_not_come_back_through_consolidate() {
        memory.recordTurn(ALICE, "s1", Turn.user("I live in Olinda and I'm allergic to dipyrone."));
        memory.dream(ALICE);
        Memory olinda = admin.memories(ALICE).stream().filter(m -> m.subject().equals("user.location"))
                .findFirst().orElseThrow();
        assertThat(olinda.sourceObservationIds()).isNotEmpty();

        admin.deleteMemory(ALICE, olinda.id());
        memory.consolidate(ALICE);
        memory.dream(ALICE);

        assertThat(admin.memories(ALICE, MemoryFilter.all()))
                .noneMatch(m -> m.subject().equals(olinda.subject()) && m.kind() == olinda.kind())
                .anyMatch(m -> m.subject().equals("user.allergy"));
        for (String o : olinda.sourceObservationIds()) {
            assertThat(store.observation(ALICE, o)).isEmpty();
        }
    }
}
