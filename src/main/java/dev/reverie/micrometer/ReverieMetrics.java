package dev.reverie.micrometer;

import dev.reverie.AssembledContext;
import dev.reverie.ContextManager;
import dev.reverie.ContextRequest;
import dev.reverie.HealthAlert;
import dev.reverie.Layer;
import dev.reverie.LayerHealth;
import dev.reverie.Scope;
import dev.reverie.Turn;
import dev.reverie.TurnReceipt;
import dev.reverie.dream.DreamListener;
import dev.reverie.dream.DreamReport;
import dev.reverie.internal.Checks;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * Reverie's figures as Micrometer meters, usable with or without Spring: bind it to a registry
 * ({@code ReverieMetrics.of(manager).bindTo(registry)}; Spring Boot binds every {@link MeterBinder}
 * bean by itself) and route calls through it to time them.
 *
 * <p><b>Gauges from {@link ContextManager#health()}</b> (DESIGN §10): {@code reverie.alerts} (all
 * alerts), {@code reverie.layer.alerts{layer}}, {@code reverie.immutable.size_tokens}, and for each
 * tenant and agent the manager served, every figure of {@link LayerHealth.AgentHealth#toMap()}
 * ({@code reverie.persistent.null_retrieval_rate}, {@code reverie.temporal.tokens_per_turn_max},
 * ...) tagged {@code tenant} and {@code agent}, its alert count as {@code reverie.agent.alerts}.
 * The health snapshot reads the store, so one snapshot serves every gauge for
 * {@link Builder#healthTtl(Duration)} (30 s by default); a tenant and agent gets its gauges when a
 * snapshot first shows it or a timed call first names it. End users are never a tag.
 *
 * <p><b>Timers and counters</b>, for calls made through this object (the least invasive place: the
 * core stays free of Micrometer): {@code reverie.build_context}, {@code reverie.record_turn} and
 * {@code reverie.dream} timers tagged {@code tenant}, {@code agent} and {@code outcome}
 * ({@code success} or {@code error}); after each dream, counters {@code reverie.dream.<counter>}
 * ({@code considered}, {@code promoted}, {@code forgotten}, ...) with the report's figures. Give
 * {@code ReverieAdvisor} these calls with
 * {@code .operations(ReverieAdvisor.Operations.of(metrics::buildContext, metrics::recordTurn))}.
 *
 * <p>Thread-safe.
 */
public final class ReverieMetrics implements MeterBinder {

    private static final Logger LOG = LoggerFactory.getLogger(ReverieMetrics.class);

    /** The per-agent figure names, as {@link LayerHealth.AgentHealth#toMap()} names them. */
    private static final List<String> AGENT_FIGURES = new LayerHealth.AgentHealth("t", "a",
            new LayerHealth.ImmutableMetrics(0, 0, 0, 0),
            new LayerHealth.PersistentMetrics(0, 0, 0, 0, 0, Duration.ZERO, 0, Duration.ZERO),
            new LayerHealth.TemporalMetrics(0, 0, 0, 0, 0, 0),
            new LayerHealth.TransientMetrics(0, 0), 0).toMap().keySet().stream().toList();

    private static final Map<String, ToLongFunction<DreamReport>> DREAM_COUNTERS = Map.ofEntries(
            Map.entry("considered", DreamReport::considered),
            Map.entry("duplicates", DreamReport::duplicates),
            Map.entry("promoted", DreamReport::promoted),
            Map.entry("discarded", DreamReport::discarded),
            Map.entry("reinforced", DreamReport::reinforced),
            Map.entry("superseded", DreamReport::superseded),
            Map.entry("decayed", DreamReport::decayed),
            Map.entry("forgotten", DreamReport::forgotten),
            Map.entry("deprecated", DreamReport::deprecated),
            Map.entry("synthesized", DreamReport::synthesized),
            Map.entry("pruned", DreamReport::pruned),
            Map.entry("llm_fallbacks", DreamReport::llmFallbacks),
            Map.entry("end_users", DreamReport::endUsers),
            Map.entry("failed", DreamReport::failed));

    private final ContextManager manager;
    private final Duration healthTtl;
    private final Clock clock;
    private final List<MeterRegistry> registries = new CopyOnWriteArrayList<>();
    private final Set<String> agentsWithGauges = ConcurrentHashMap.newKeySet();
    private final Object snapshotLock = new Object();
    private volatile Snapshot snapshot;

    private ReverieMetrics(Builder b) {
        this.manager = b.manager;
        this.healthTtl = b.healthTtl;
        this.clock = b.clock;
    }

    /** Metrics of {@code manager} with the defaults. */
    public static ReverieMetrics of(ContextManager manager) {
        return builder(manager).build();
    }

    /** A builder over {@code manager}. */
    public static Builder builder(ContextManager manager) {
        return new Builder(manager);
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Checks.notNull("registry", registry);
        if (registries.contains(registry)) {
            return;
        }
        registries.add(registry);
        Gauge.builder("reverie.alerts", this, m -> m.figure(h -> h.alerts().size()))
                .description("Reverie health alerts that fired in the current window").register(registry);
        for (Layer layer : Layer.values()) {
            Gauge.builder("reverie.layer.alerts", this,
                            m -> m.figure(h -> h.alerts().stream().filter(a -> a.layer() == layer).count()))
                    .tag("layer", layer.name()).description("Reverie health alerts about one layer").register(registry);
        }
        Gauge.builder("reverie.immutable.size_tokens", this, m -> m.figure(LayerHealth::immutableTokens))
                .description("Tokens of the IMMUTABLE layer").baseUnit("tokens").register(registry);
        for (String agent : agentsWithGauges) {
            String[] ta = agent.split("/", 2);
            registerAgentGauges(registry, ta[0], ta[1]);
        }
        health(); // a first snapshot registers the agents known now
    }

    // ------------------------------------------------------------------ timed calls

    /** {@link ContextManager#buildContext}, timed. */
    public AssembledContext buildContext(ContextRequest request) {
        Checks.notNull("request", request);
        return timed("reverie.build_context", request.scope().tenantId(), request.scope().agentId(),
                () -> manager.buildContext(request));
    }

    /** {@link ContextManager#recordTurn(Scope, String, List)}, timed. */
    public TurnReceipt recordTurn(Scope scope, String sessionId, List<Turn> turns) {
        Checks.notNull("scope", scope);
        return timed("reverie.record_turn", scope.tenantId(), scope.agentId(),
                () -> manager.recordTurn(scope, sessionId, turns));
    }

    /** {@link ContextManager#recordTurn(Scope, String, Turn...)}, timed. */
    public TurnReceipt recordTurn(Scope scope, String sessionId, Turn... turns) {
        return recordTurn(scope, sessionId, Arrays.asList(Checks.notNull("turns", turns)));
    }

    /** {@link ContextManager#dream(Scope)}, timed and counted. */
    public DreamReport dream(Scope scope) {
        Checks.notNull("scope", scope);
        return counted(scope.tenantId(), scope.agentId(),
                timed("reverie.dream", scope.tenantId(), scope.agentId(), () -> manager.dream(scope)));
    }

    /** {@link ContextManager#dream(String, String, DreamListener)}, timed and counted. */
    public DreamReport dream(String tenantId, String agentId, DreamListener listener) {
        Checks.id("tenantId", tenantId);
        Checks.id("agentId", agentId);
        return counted(tenantId, agentId,
                timed("reverie.dream", tenantId, agentId, () -> manager.dream(tenantId, agentId, listener)));
    }

    private <T> T timed(String name, String tenant, String agent, Supplier<T> call) {
        noteAgent(tenant, agent);
        if (registries.isEmpty()) {
            return call.get();
        }
        long start = System.nanoTime();
        String outcome = "error";
        try {
            T result = call.get();
            outcome = "success";
            return result;
        } finally {
            long nanos = System.nanoTime() - start;
            Tags tags = Tags.of("tenant", tenant, "agent", agent, "outcome", outcome);
            for (MeterRegistry r : registries) {
                Timer.builder(name).tags(tags).register(r).record(Duration.ofNanos(nanos));
            }
        }
    }

    private DreamReport counted(String tenant, String agent, DreamReport report) {
        Tags tags = Tags.of("tenant", tenant, "agent", agent);
        for (MeterRegistry r : registries) {
            DREAM_COUNTERS.forEach((figure, value) ->
                    Counter.builder("reverie.dream." + figure).tags(tags).register(r).increment(value.applyAsLong(report)));
        }
        return report;
    }

    // ------------------------------------------------------------------ health gauges

    /** The cached health snapshot, refreshed when older than the TTL; empty when it could not be read. */
    private java.util.Optional<LayerHealth> health() {
        Snapshot s = snapshot;
        Instant now = clock.instant();
        if (s == null || !now.isBefore(s.at().plus(healthTtl))) {
            synchronized (snapshotLock) {
                s = snapshot;
                if (s == null || !now.isBefore(s.at().plus(healthTtl))) {
                    LayerHealth h;
                    try {
                        h = manager.health();
                    } catch (RuntimeException e) {
                        LOG.warn("Reverie health could not be read for metrics: {}", e.toString());
                        h = null;
                    }
                    s = new Snapshot(now, h);
                    snapshot = s;
                    if (h != null) {
                        for (LayerHealth.AgentHealth a : h.agents()) {
                            noteAgent(a.tenantId(), a.agentId());
                        }
                    }
                }
            }
        }
        return java.util.Optional.ofNullable(s.health());
    }

    private void noteAgent(String tenant, String agent) {
        if (agentsWithGauges.add(tenant + "/" + agent)) {
            for (MeterRegistry r : registries) {
                registerAgentGauges(r, tenant, agent);
            }
        }
    }

    private void registerAgentGauges(MeterRegistry registry, String tenant, String agent) {
        for (String figure : AGENT_FIGURES) {
            if (figure.equals("reverie.immutable.size_tokens")) {
                continue; // manager-wide, registered untagged
            }
            String name = figure.equals("reverie.alerts") ? "reverie.agent.alerts" : figure;
            Gauge.builder(name, this, m -> m.agentFigure(tenant, agent, figure))
                    .tags("tenant", tenant, "agent", agent).register(registry);
        }
    }

    private double figure(java.util.function.ToDoubleFunction<LayerHealth> f) {
        return health().map(f::applyAsDouble).orElse(Double.NaN);
    }

    private double agentFigure(String tenant, String agent, String figure) {
        return health().flatMap(h -> h.agent(tenant, agent))
                .map(a -> a.toMap().get(figure))
                .map(Number::doubleValue)
                .orElse(Double.NaN);
    }

    /** Forgets the cached health snapshot, so the next gauge read takes a new one. */
    public void refresh() {
        snapshot = null;
    }

    /** Alerts of the cached snapshot (taking one if needed), for hosts that log them. */
    public List<HealthAlert> alerts() {
        return health().map(LayerHealth::alerts).orElse(List.of());
    }

    private record Snapshot(Instant at, LayerHealth health) {
    }

    /** Configures {@link ReverieMetrics}; setters fail fast. Not thread-safe. */
    public static final class Builder {
        private final ContextManager manager;
        private Duration healthTtl = Duration.ofSeconds(30);
        private Clock clock = Clock.systemUTC();

        private Builder(ContextManager manager) {
            this.manager = Checks.notNull("manager", manager);
        }

        /** How long one health snapshot serves the gauges (default 30 s; zero reads it on every gauge). */
        public Builder healthTtl(Duration ttl) {
            Checks.notNull("healthTtl", ttl);
            if (ttl.isNegative()) {
                throw new IllegalArgumentException("healthTtl must not be negative, was " + ttl);
            }
            this.healthTtl = ttl;
            return this;
        }

        /** The clock that ages health snapshots (the system UTC clock by default). */
        public Builder clock(Clock c) {
            this.clock = Checks.notNull("clock", c);
            return this;
        }

        public ReverieMetrics build() {
            return new ReverieMetrics(this);
        }
    }
}
