package dev.reverie;

import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.MemoryStores;
import dev.reverie.spi.TokenCounter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import static dev.reverie.GovernanceFixtures.T0;
import static dev.reverie.GovernanceFixtures.memory;
import static dev.reverie.GovernanceFixtures.put;
import static org.assertj.core.api.Assertions.assertThat;

/** Every alert of DESIGN §10 fires on a scenario built for it and stays quiet on its near miss. */
class LayerHealthTest {

    static final Scope ALICE = Scope.of("clinic-42", "receptionist", "alice");
    static final Scope BOB = Scope.of("clinic-42", "receptionist", "bob");
    static final Scope NURSE_ALICE = Scope.of("clinic-42", "nurse", "alice");
    static final String SYSTEM = "You are the clinic's receptionist. Be brief and kind.";
    static final String SCRATCHPAD = "calendar tool: Friday 10:00 and 14:00 free, Dr. Rossi in room 4B";

    @TempDir
    Path dir;
    MemoryStore store;
    MutableClock clock;
    List<ContextManager> managers = new ArrayList<>();

    @BeforeEach
    void setUp() {
        store = MemoryStores.open("sqlite:" + dir);
        clock = new MutableClock(T0);
        put(store, ALICE, memory(ALICE, "m1", "Prefers Friday appointments", List.of("t1"), T0),
                memory(ALICE, "m2", "Allergic to dipyrone", List.of("t2"), T0));
    }

    @AfterEach
    void tearDown() {
        managers.forEach(ContextManager::close);
        store.close();
    }

    ContextManager manager(Consumer<ContextManager.Builder> config) {
        ContextManager.Builder b = ContextManager.builder().store(store).clock(clock);
        config.accept(b);
        ContextManager m = b.build();
        managers.add(m);
        return m;
    }

    ContextManager healthyManager() {
        return manager(b -> b.immutable(ImmutableLayer.of(SYSTEM)));
    }

    static AssembledContext ask(ContextManager m, Scope scope, String query) {
        return m.buildContext(ContextRequest.builder(scope, "s1").query(query).budgetTokens(4_000).build());
    }

    static LayerHealth.AgentHealth receptionist(LayerHealth h) {
        return h.agent("clinic-42", "receptionist").orElseThrow();
    }

    // ------------------------------------------------------------------ healthy

    @Test
    void a_healthy_workload_raises_no_alert_and_reports_its_metrics() {
        ContextManager m = healthyManager();
        for (int i = 0; i < 12; i++) {
            m.buildContext(ContextRequest.builder(ALICE, "s1").query("Can I come on Friday?")
                    .scratchpad(SCRATCHPAD).budgetTokens(4_000).build());
            m.recordTurn(ALICE, "s1", Turn.user("Can I come on Friday?"), Turn.assistant("Yes, Friday at ten works."));
        }

        LayerHealth h = m.health();

        assertThat(h.alerts()).isEmpty();
        assertThat(h.healthy()).isTrue();
        LayerHealth.AgentHealth a = receptionist(h);
        assertThat(a.immutableLayer().calls()).isEqualTo(12);
        assertThat(a.immutableLayer().comparisons()).isEqualTo(11);
        assertThat(a.immutableLayer().prefixStability()).isEqualTo(1.0);
        assertThat(a.immutableLayer().sizeTokens()).isEqualTo(TokenCounter.o200k().countMessage(SYSTEM));
        assertThat(a.persistentLayer().retrievals()).isEqualTo(12);
        assertThat(a.persistentLayer().nullRetrievalRate()).isZero();
        assertThat(a.temporalLayer().turns()).isEqualTo(24);
        assertThat(a.temporalLayer().maxTokensPerTurn()).isEqualTo(Math.max(TokenCounter.o200k().count("Can I come on Friday?"),
                TokenCounter.o200k().count("Yes, Friday at ten works.")));
        assertThat(a.temporalLayer().longUncompactedSessions()).isZero();
        assertThat(a.transientLayer().scratchpadEntries()).isEqualTo(12);
        assertThat(a.transientLayer().leaks()).isZero();
        assertThat(h.since()).isEqualTo(T0);
        assertThat(h.at()).isEqualTo(T0);
    }

    // ------------------------------------------------------------------ IMMUTABLE

    @Test
    void prefix_stability_below_80_percent_alerts_and_exactly_80_percent_does_not() {
        // without an IMMUTABLE layer the first message is the memory block, which follows the query
        ContextManager m = manager(b -> { });
        List<String> queries = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            queries.add("Friday");
        }
        for (int i = 0; i < 3; i++) {
            queries.add("dipyrone");
        }
        for (int i = 0; i < 3; i++) {
            queries.add("Friday");
        }
        for (String q : queries) {
            ask(m, ALICE, q);
        }
        LayerHealth nearMiss = m.health();
        assertThat(receptionist(nearMiss).immutableLayer().comparisons()).isEqualTo(10);
        assertThat(receptionist(nearMiss).immutableLayer().prefixStability()).isEqualTo(0.8);
        assertThat(nearMiss.alerts(HealthAlert.Type.PREFIX_UNSTABLE)).isEmpty();

        ask(m, ALICE, "dipyrone");

        List<HealthAlert> alerts = m.health().alerts(HealthAlert.Type.PREFIX_UNSTABLE);
        assertThat(alerts).hasSize(1);
        HealthAlert a = alerts.get(0);
        assertThat(a.layer()).isEqualTo(Layer.IMMUTABLE);
        assertThat(a.tenantId()).isEqualTo("clinic-42");
        assertThat(a.agentId()).isEqualTo("receptionist");
        assertThat(a.value()).isEqualTo(8.0 / 11);
        assertThat(a.threshold()).isEqualTo(0.8);
        assertThat(a.message()).contains("72.7%", "8 of 11", "IMMUTABLE");
    }

    @Test
    void an_immutable_layer_keeps_the_prefix_stable_whatever_the_queries() {
        ContextManager m = healthyManager();
        for (int i = 0; i < 12; i++) {
            ask(m, ALICE, i % 2 == 0 ? "Friday" : "dipyrone");
        }
        assertThat(receptionist(m.health()).immutableLayer().prefixStability()).isEqualTo(1.0);
        assertThat(m.health().alerts()).isEmpty();
    }

    @Test
    void an_immutable_layer_over_10k_tokens_alerts_and_one_under_does_not() {
        ContextManager big = manager(b -> b.immutable(ImmutableLayer.of("Rule: be kind. ".repeat(2_100))));
        ContextManager small = manager(b -> b.immutable(ImmutableLayer.of("Rule: be kind. ".repeat(1_900))));

        LayerHealth bigHealth = big.health();
        assertThat(bigHealth.immutableTokens()).isGreaterThan(10_000);
        assertThat(bigHealth.alerts()).hasSize(1);
        HealthAlert a = bigHealth.alerts().get(0);
        assertThat(a.type()).isEqualTo(HealthAlert.Type.IMMUTABLE_TOO_LARGE);
        assertThat(a.tenantId()).isNull();
        assertThat(a.value()).isEqualTo(bigHealth.immutableTokens());
        assertThat(a.threshold()).isEqualTo(10_000);

        LayerHealth smallHealth = small.health();
        assertThat(smallHealth.immutableTokens()).isBetween(8_000, 10_000);
        assertThat(smallHealth.alerts()).isEmpty();
    }

    // ------------------------------------------------------------------ PERSISTENT

    @Test
    void null_retrieval_above_20_percent_alerts_and_exactly_20_percent_does_not() {
        ContextManager m = healthyManager();
        for (int i = 0; i < 8; i++) {
            ask(m, ALICE, "Friday appointment");
        }
        ask(m, ALICE, "weather in Tokyo");
        ask(m, ALICE, "weather in Tokyo");
        // neither a blank query nor ON_DEMAND recall counts as a retrieval
        m.buildContext(ContextRequest.builder(ALICE, "s1").build());
        m.buildContext(ContextRequest.builder(ALICE, "s1").query("weather").recallMode(RecallMode.ON_DEMAND).build());

        LayerHealth nearMiss = m.health();
        assertThat(receptionist(nearMiss).persistentLayer().retrievals()).isEqualTo(10);
        assertThat(receptionist(nearMiss).persistentLayer().nullRetrievals()).isEqualTo(2);
        assertThat(nearMiss.alerts(HealthAlert.Type.NULL_RETRIEVAL_HIGH)).isEmpty();

        ask(m, ALICE, "weather in Tokyo");

        List<HealthAlert> alerts = m.health().alerts(HealthAlert.Type.NULL_RETRIEVAL_HIGH);
        assertThat(alerts).hasSize(1);
        assertThat(alerts.get(0).value()).isEqualTo(3.0 / 11);
        assertThat(alerts.get(0).layer()).isEqualTo(Layer.PERSISTENT);
        assertThat(alerts.get(0).message()).contains("27.3%", "3 of 11");
    }

    @Test
    void few_calls_never_alert_on_a_rate() {
        ContextManager m = manager(b -> { });
        for (int i = 0; i < 9; i++) {
            ask(m, ALICE, "nothing matches " + i);
        }
        LayerHealth h = m.health();
        assertThat(receptionist(h).persistentLayer().nullRetrievalRate()).isEqualTo(1.0);
        assertThat(h.alerts()).isEmpty();
    }

    @Test
    void persistent_counts_ages_and_unrecalled_memories_come_from_the_store() {
        clock.set(T0.plus(Duration.ofDays(100)));
        put(store, BOB,
                memory(BOB, "b1", "Old and never recalled", List.of("t1"), T0),
                memory(BOB, "b2", "Old but recalled yesterday", List.of("t2"), T0).toBuilder()
                        .lastRetrievedAt(T0.plus(Duration.ofDays(99))).retrievalCount(1).build(),
                memory(BOB, "b3", "Recent", List.of("t3"), T0.plus(Duration.ofDays(90))),
                memory(BOB, "b4", "Expired", List.of("t4"), T0).toBuilder().expiresAt(T0.plus(Duration.ofDays(1)))
                        .build(),
                memory(BOB, "b5", "Deprecated", List.of("t5"), T0).toBuilder().status(MemoryStatus.DEPRECATED)
                        .build());
        ContextManager m = healthyManager();
        ask(m, BOB, "Recent");

        LayerHealth.PersistentMetrics p = receptionist(m.health()).persistentLayer();

        assertThat(p.endUsers()).isEqualTo(2);
        assertThat(p.sampledEndUsers()).isEqualTo(2);
        // alice's two (created at T0) and bob's three unexpired ACTIVE ones
        assertThat(p.activeMemories()).isEqualTo(5);
        assertThat(p.estimatedActiveMemories()).isEqualTo(5);
        assertThat(p.meanAge()).isEqualTo(Duration.ofDays((100 + 100 + 100 + 100 + 10) / 5));
        // alice's two and bob's b1: neither created nor recalled in the last 30 days
        assertThat(p.notRecalled()).isEqualTo(3);
        assertThat(p.notRecalledFor()).isEqualTo(Duration.ofDays(30));
    }

    // ------------------------------------------------------------------ TEMPORAL

    @Test
    void a_turn_over_50k_tokens_alerts_and_one_under_does_not() {
        ContextManager m = healthyManager();
        String under = "lorem ipsum ".repeat(24_000);
        String over = "lorem ipsum ".repeat(25_200);
        TokenCounter counter = TokenCounter.o200k();
        assertThat(counter.count(under)).isBetween(45_000, 50_000);
        assertThat(counter.count(over)).isGreaterThan(50_000);

        m.recordTurn(ALICE, "s1", Turn.tool("search", under));
        assertThat(m.health().alerts(HealthAlert.Type.TURN_TOO_LARGE)).isEmpty();

        m.recordTurn(ALICE, "s1", Turn.user("short"), Turn.tool("search", over));

        LayerHealth h = m.health();
        List<HealthAlert> alerts = h.alerts(HealthAlert.Type.TURN_TOO_LARGE);
        assertThat(alerts).hasSize(1);
        assertThat(alerts.get(0).value()).isEqualTo(counter.count(over));
        assertThat(alerts.get(0).layer()).isEqualTo(Layer.TEMPORAL);
        assertThat(receptionist(h).temporalLayer().turns()).isEqualTo(3);
        assertThat(receptionist(h).temporalLayer().meanTokensPerTurn())
                .isEqualTo((counter.count(under) + counter.count("short") + counter.count(over)) / 3.0);
    }

    static Turn[] shortTurns(int n) {
        Turn[] turns = new Turn[n];
        for (int i = 0; i < n; i++) {
            turns[i] = i % 2 == 0 ? Turn.user("ok " + i) : Turn.assistant("fine " + i);
        }
        return turns;
    }

    @Test
    void a_session_past_200_turns_that_never_compacted_alerts_and_one_at_200_does_not() {
        ContextManager m = healthyManager();
        m.recordTurn(ALICE, "s-at-200", shortTurns(200));
        m.buildContext(ContextRequest.builder(ALICE, "s-at-200").query("Friday").budgetTokens(100_000).build());
        assertThat(m.health().alerts(HealthAlert.Type.LONG_SESSION_NOT_COMPACTED)).isEmpty();

        m.recordTurn(ALICE, "s-at-201", shortTurns(201));
        for (int i = 0; i < 3; i++) { // the same session counts once
            m.buildContext(ContextRequest.builder(ALICE, "s-at-201").query("Friday").budgetTokens(100_000).build());
        }

        LayerHealth h = m.health();
        assertThat(receptionist(h).temporalLayer().compactions()).isZero();
        assertThat(receptionist(h).temporalLayer().longUncompactedSessions()).isEqualTo(1);
        List<HealthAlert> alerts = h.alerts(HealthAlert.Type.LONG_SESSION_NOT_COMPACTED);
        assertThat(alerts).hasSize(1);
        assertThat(alerts.get(0).message()).contains("more than 200 turns");
    }

    @Test
    void a_long_session_that_compacts_does_not_alert_and_reports_turns_before_compaction() {
        ContextManager m = healthyManager();
        m.recordTurn(ALICE, "s1", shortTurns(201));

        m.buildContext(ContextRequest.builder(ALICE, "s1").query("Friday").budgetTokens(600).build());

        LayerHealth h = m.health();
        assertThat(receptionist(h).temporalLayer().compactions()).isEqualTo(1);
        assertThat(receptionist(h).temporalLayer().meanTurnsBeforeCompaction()).isEqualTo(201);
        assertThat(h.alerts()).isEmpty();
    }

    @Test
    void erasing_a_user_drops_its_long_session_from_the_counters() {
        ContextManager m = healthyManager();
        m.recordTurn(ALICE, "s1", shortTurns(201));
        m.buildContext(ContextRequest.builder(ALICE, "s1").query("Friday").budgetTokens(100_000).build());
        assertThat(receptionist(m.health()).temporalLayer().longUncompactedSessions()).isEqualTo(1);

        m.admin().eraseEndUser(ALICE);

        assertThat(receptionist(m.health()).temporalLayer().longUncompactedSessions()).isZero();
    }

    // ------------------------------------------------------------------ TRANSIENT

    @Test
    void scratchpad_text_recorded_into_the_conversation_is_a_leak() {
        ContextManager m = healthyManager();
        m.buildContext(ContextRequest.builder(ALICE, "s1").query("Friday?").scratchpad(SCRATCHPAD).build());

        m.recordTurn(ALICE, "s1", Turn.user("Friday?"), Turn.tool("calendar", SCRATCHPAD));

        List<HealthAlert> alerts = m.health().alerts(HealthAlert.Type.TRANSIENT_LEAK);
        assertThat(alerts).hasSize(1);
        assertThat(alerts.get(0).value()).isEqualTo(1);
        assertThat(alerts.get(0).layer()).isEqualTo(Layer.TRANSIENT);

        // case and spacing do not hide it
        m.recordTurn(ALICE, "s1", Turn.assistant("As the CALENDAR tool:   Friday 10:00 and\n14:00 free, said."));
        assertThat(receptionist(m.health()).transientLayer().leaks()).isEqualTo(2);
    }

    @Test
    void near_miss_a_paraphrase_or_a_short_entry_is_not_a_leak() {
        ContextManager m = healthyManager();
        m.buildContext(ContextRequest.builder(ALICE, "s1").query("Friday?").scratchpad(SCRATCHPAD)
                .scratchpad("Friday 10:00 free").build());

        m.recordTurn(ALICE, "s1", Turn.user("Friday?"),
                Turn.assistant("Friday at ten or two works, with Dr. Rossi in room 4B."),
                // 31 of the 32 characters of the fingerprinted chunk
                Turn.assistant("calendar tool: friday 10:00 and"),
                // the short entry verbatim: too short to be told from chance
                Turn.assistant("Friday 10:00 free"));

        LayerHealth h = m.health();
        assertThat(receptionist(h).transientLayer().leaks()).isZero();
        assertThat(receptionist(h).transientLayer().scratchpadEntries()).isEqualTo(2);
        assertThat(h.alerts()).isEmpty();
    }

    // ------------------------------------------------------------------ window, scope, publishing

    @Test
    void reset_starts_a_new_window() {
        ContextManager m = healthyManager();
        m.buildContext(ContextRequest.builder(ALICE, "s1").query("Friday?").scratchpad(SCRATCHPAD).build());
        m.recordTurn(ALICE, "s1", Turn.tool("calendar", SCRATCHPAD));
        assertThat(m.health().alerts(HealthAlert.Type.TRANSIENT_LEAK)).hasSize(1);

        clock.advance(Duration.ofMinutes(1));
        m.resetHealth();

        LayerHealth h = m.health();
        assertThat(h.since()).isEqualTo(T0.plus(Duration.ofMinutes(1)));
        assertThat(h.alerts()).isEmpty();
        assertThat(receptionist(h).immutableLayer().calls()).isZero();
        assertThat(receptionist(h).temporalLayer().turns()).isZero();
        // the previous prefix and the scratchpad fingerprints survive the reset
        ask(m, ALICE, "Friday");
        assertThat(receptionist(m.health()).immutableLayer().comparisons()).isEqualTo(1);
        m.recordTurn(ALICE, "s1", Turn.tool("calendar", SCRATCHPAD));
        assertThat(receptionist(m.health()).transientLayer().leaks()).isEqualTo(1);
    }

    @Test
    void counters_are_kept_per_tenant_and_agent_and_published_as_a_map() {
        ContextManager m = healthyManager();
        for (int i = 0; i < 10; i++) {
            ask(m, NURSE_ALICE, "nothing known here");
        }
        ask(m, ALICE, "Friday");

        LayerHealth h = m.health();
        assertThat(h.agents()).extracting(LayerHealth.AgentHealth::agentId).containsExactly("nurse", "receptionist");
        assertThat(h.agent("clinic-42", "nurse").orElseThrow().persistentLayer().nullRetrievalRate()).isEqualTo(1.0);
        assertThat(receptionist(h).persistentLayer().nullRetrievalRate()).isZero();
        assertThat(h.alerts()).extracting(HealthAlert::agentId).containsExactly("nurse");
        assertThat(h.agent("clinic-42", "nurse").orElseThrow().alerts()).isEqualTo(1);

        var map = h.toMap();
        assertThat(map.get("reverie.alerts")).isEqualTo(1);
        assertThat(map.get("reverie.persistent.null_retrieval_rate{tenant=clinic-42,agent=nurse}")).isEqualTo(1.0);
        assertThat(map.get("reverie.persistent.null_retrieval_rate{tenant=clinic-42,agent=receptionist}"))
                .isEqualTo(0.0);
        assertThat(map.get("reverie.immutable.calls{tenant=clinic-42,agent=receptionist}")).isEqualTo(1L);
        assertThat(receptionist(h).toMap()).containsKeys("reverie.immutable.prefix_stability",
                "reverie.persistent.mean_age_days", "reverie.temporal.tokens_per_turn_max",
                "reverie.temporal.long_uncompacted_sessions", "reverie.transient.leaks");
    }
}
