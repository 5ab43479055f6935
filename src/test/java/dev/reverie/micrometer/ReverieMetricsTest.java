package dev.reverie.micrometer;

import dev.reverie.ContextManager;
import dev.reverie.ContextRequest;
import dev.reverie.MutableClock;
import dev.reverie.Scope;
import dev.reverie.Turn;
import dev.reverie.dream.DreamListener;
import dev.reverie.dream.DreamReport;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReverieMetricsTest {

    static final Scope ALICE = Scope.of("clinic-42", "receptionist", "alice");

    @TempDir
    Path dir;
    MutableClock clock;
    ContextManager memory;
    SimpleMeterRegistry registry;
    ReverieMetrics metrics;

    @BeforeEach
    void setUp() {
        clock = new MutableClock(Instant.parse("2026-03-02T09:00:00Z"));
        memory = ContextManager.builder().store("sqlite:" + dir).clock(clock).build();
        registry = new SimpleMeterRegistry();
        metrics = ReverieMetrics.builder(memory).clock(clock).healthTtl(Duration.ofSeconds(30)).build();
        metrics.bindTo(registry);
    }

    @AfterEach
    void tearDown() {
        memory.close();
    }

    Gauge agentGauge(String name) {
        return registry.find(name).tags("tenant", "clinic-42", "agent", "receptionist").gauge();
    }

    @Test
    void calls_through_the_metrics_are_timed_per_tenant_agent_and_outcome() {
        metrics.buildContext(ContextRequest.builder(ALICE, "s1").query("Friday?").build());
        metrics.recordTurn(ALICE, "s1", Turn.user("I'd like Friday."), Turn.assistant("Noted."));
        assertThatThrownBy(() -> metrics.recordTurn(ALICE, "bad session", Turn.user("x")))
                .isInstanceOf(IllegalArgumentException.class);

        Timer build = registry.find("reverie.build_context").tags("tenant", "clinic-42", "agent", "receptionist",
                "outcome", "success").timer();
        assertThat(build).isNotNull();
        assertThat(build.count()).isEqualTo(1);
        assertThat(registry.find("reverie.record_turn").tag("outcome", "success").timer().count()).isEqualTo(1);
        assertThat(registry.find("reverie.record_turn").tag("outcome", "error").timer().count()).isEqualTo(1);
    }

    @Test
    void health_figures_are_gauges_per_layer_and_agent() {
        metrics.recordTurn(ALICE, "s1", Turn.user("I'm allergic to dipyrone."), Turn.assistant("Noted."));
        metrics.buildContext(ContextRequest.builder(ALICE, "s1").query("anything about penicillin?").build());
        metrics.refresh();

        assertThat(registry.find("reverie.alerts").gauge().value()).isGreaterThanOrEqualTo(0);
        assertThat(registry.find("reverie.layer.alerts").tag("layer", "PERSISTENT").gauge()).isNotNull();
        assertThat(registry.find("reverie.immutable.size_tokens").gauge().value()).isEqualTo(0);
        assertThat(agentGauge("reverie.temporal.turns").value()).isEqualTo(2);
        assertThat(agentGauge("reverie.persistent.retrievals").value()).isEqualTo(1);
        assertThat(agentGauge("reverie.persistent.null_retrieval_rate").value()).isBetween(0.0, 1.0);
        assertThat(agentGauge("reverie.temporal.tokens_per_turn_max").value()).isPositive();
        assertThat(agentGauge("reverie.agent.alerts")).isNotNull();
        assertThat(agentGauge("reverie.transient.leaks").value()).isZero();
    }

    @Test
    void one_health_snapshot_serves_the_gauges_until_it_ages_out() {
        metrics.recordTurn(ALICE, "s1", Turn.user("Hello."), Turn.assistant("Hi."));
        metrics.refresh();
        assertThat(agentGauge("reverie.temporal.turns").value()).isEqualTo(2);

        metrics.recordTurn(ALICE, "s1", Turn.user("Friday?"), Turn.assistant("Yes."));
        assertThat(agentGauge("reverie.temporal.turns").value()).as("cached").isEqualTo(2);
        clock.advance(Duration.ofSeconds(31));
        assertThat(agentGauge("reverie.temporal.turns").value()).isEqualTo(4);
    }

    @Test
    void dreams_are_timed_and_their_report_counted() {
        metrics.recordTurn(ALICE, "s1", Turn.user("I'm allergic to dipyrone."), Turn.assistant("Noted."));
        clock.advance(Duration.ofHours(1));

        DreamReport report = metrics.dream("clinic-42", "receptionist", DreamListener.NONE);

        assertThat(registry.find("reverie.dream").tag("outcome", "success").timer().count()).isEqualTo(1);
        assertThat(registry.find("reverie.dream.considered").tags("tenant", "clinic-42", "agent", "receptionist")
                .counter().count()).isEqualTo(report.considered());
        assertThat(registry.find("reverie.dream.end_users").counter().count()).isEqualTo(report.endUsers());
    }

    @Test
    void binding_twice_to_one_registry_registers_nothing_twice() {
        int meters = registry.getMeters().size();
        metrics.bindTo(registry);
        assertThat(registry.getMeters()).hasSize(meters);
    }
}
