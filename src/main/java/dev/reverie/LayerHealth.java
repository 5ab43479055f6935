package dev.reverie;

import dev.reverie.internal.Checks;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The per-layer health of a {@link ContextManager} (DESIGN §10), as returned by
 * {@link ContextManager#health()}: metrics for each tenant and agent the manager served in the
 * window, and the alerts they raise.
 *
 * <p><b>Window.</b> Counters cover the calls since {@link #since()}: the manager's build or its last
 * {@link ContextManager#resetHealth()}. A host that wants rates per scrape interval reads
 * {@code health()} and then calls {@code resetHealth()} on its schedule. PERSISTENT memory counts and
 * ages are not counters: they are read from the store when {@code health()} is called, over at most
 * {@code PersistentMetrics.sampledEndUsers} end users per tenant and agent.
 *
 * <p><b>Publishing.</b> {@link #toMap()} flattens everything into metric name → number, with the
 * tenant and agent as tags in the name ({@code reverie.persistent.null_retrieval_rate{tenant=t,agent=a}});
 * {@link AgentHealth#toMap()} gives the untagged names for one tenant and agent, ready to register
 * as gauges with tags (see {@code docs/governance.md}). Immutable and thread-safe.
 *
 * @param since           start of the counting window
 * @param at              when this snapshot was taken
 * @param immutableTokens tokens of the manager's IMMUTABLE layer
 * @param agents          one entry per tenant and agent seen in the window, sorted by tenant then agent
 * @param alerts          every alert that fired, manager-wide ones first
 * @param failures        background and fallback failures of the manager in the window (never thrown at
 *                        the caller, so counted here)
 */
public record LayerHealth(Instant since, Instant at, int immutableTokens, List<AgentHealth> agents,
                          List<HealthAlert> alerts, Failures failures) {

    public LayerHealth {
        Checks.notNull("since", since);
        Checks.notNull("at", at);
        Checks.nonNegative("immutableTokens", immutableTokens);
        agents = List.copyOf(Checks.notNull("agents", agents));
        alerts = List.copyOf(Checks.notNull("alerts", alerts));
        Checks.notNull("failures", failures);
    }

    /** A snapshot without failure counters (all zero). */
    public LayerHealth(Instant since, Instant at, int immutableTokens, List<AgentHealth> agents,
                       List<HealthAlert> alerts) {
        this(since, at, immutableTokens, agents, alerts, Failures.NONE);
    }

    /**
     * Failures the manager absorbed instead of throwing them at the caller, counted over the window.
     * Each is also logged once as a warning; a rising count is the signal to look at the logs.
     * Immutable and thread-safe.
     *
     * @param extractorErrors     turns whose extractor threw: the turn was recorded without observations
     * @param extractionFallbacks turns the LLM extractor handed to its rule-based fallback (the model
     *                            threw or answered malformed JSON)
     * @param embeddingFailures   recorded calls whose background embedding failed: their observations
     *                            and archived turns stay lexically searchable, without vectors
     * @param embeddingDrops      recorded calls whose embedding was dropped because the queue was full
     *                            or the manager was closing
     */
    public record Failures(long extractorErrors, long extractionFallbacks, long embeddingFailures,
                           long embeddingDrops) {

        /** No failure. */
        public static final Failures NONE = new Failures(0, 0, 0, 0);

        /** These counters minus {@code base} (an earlier reading), never below zero. */
        public Failures minus(Failures base) {
            return new Failures(Math.max(0, extractorErrors - base.extractorErrors),
                    Math.max(0, extractionFallbacks - base.extractionFallbacks),
                    Math.max(0, embeddingFailures - base.embeddingFailures),
                    Math.max(0, embeddingDrops - base.embeddingDrops));
        }

        /** Whether every counter is zero. */
        public boolean none() {
            return extractorErrors == 0 && extractionFallbacks == 0 && embeddingFailures == 0 && embeddingDrops == 0;
        }
    }

    /** Whether any alert fired. */
    public boolean healthy() {
        return alerts.isEmpty();
    }

    /** The alerts of one type. */
    public List<HealthAlert> alerts(HealthAlert.Type type) {
        return alerts.stream().filter(a -> a.type() == type).toList();
    }

    /** The metrics of one tenant and agent, if it was seen in the window. */
    public java.util.Optional<AgentHealth> agent(String tenantId, String agentId) {
        return agents.stream().filter(a -> a.tenantId().equals(tenantId) && a.agentId().equals(agentId)).findFirst();
    }

    /**
     * Every metric as name → number: {@code reverie.alerts} (all alerts),
     * {@code reverie.immutable.size_tokens}, the manager-wide {@code reverie.failures.*} counters, then each agent's metrics with
     * {@code {tenant=...,agent=...}} appended to the name. Insertion-ordered.
     */
    public Map<String, Number> toMap() {
        Map<String, Number> out = new LinkedHashMap<>();
        out.put("reverie.alerts", alerts.size());
        out.put("reverie.immutable.size_tokens", immutableTokens);
        out.put("reverie.failures.extractor_errors", failures.extractorErrors());
        out.put("reverie.failures.extraction_fallbacks", failures.extractionFallbacks());
        out.put("reverie.failures.embedding_failures", failures.embeddingFailures());
        out.put("reverie.failures.embedding_drops", failures.embeddingDrops());
        for (AgentHealth a : agents) {
            String tags = "{tenant=" + a.tenantId() + ",agent=" + a.agentId() + "}";
            a.toMap().forEach((name, value) -> out.put(name + tags, value));
        }
        return out;
    }

    /**
     * The metrics of one tenant and agent, by layer. Immutable and thread-safe.
     *
     * @param tenantId        the tenant
     * @param agentId         the agent
     * @param immutableLayer  IMMUTABLE metrics
     * @param persistentLayer PERSISTENT metrics
     * @param temporalLayer   TEMPORAL metrics
     * @param transientLayer  TRANSIENT metrics
     * @param alerts          how many alerts fired for this tenant and agent
     */
    public record AgentHealth(String tenantId, String agentId, ImmutableMetrics immutableLayer,
                              PersistentMetrics persistentLayer, TemporalMetrics temporalLayer,
                              TransientMetrics transientLayer, int alerts) {

        public AgentHealth {
            Checks.id("tenantId", tenantId);
            Checks.id("agentId", agentId);
            Checks.notNull("immutableLayer", immutableLayer);
            Checks.notNull("persistentLayer", persistentLayer);
            Checks.notNull("temporalLayer", temporalLayer);
            Checks.notNull("transientLayer", transientLayer);
            Checks.nonNegative("alerts", alerts);
        }

        /** This agent's metrics as untagged name → number, insertion-ordered. */
        public Map<String, Number> toMap() {
            Map<String, Number> m = new LinkedHashMap<>();
            m.put("reverie.alerts", alerts);
            m.put("reverie.immutable.size_tokens", immutableLayer.sizeTokens());
            m.put("reverie.immutable.calls", immutableLayer.calls());
            m.put("reverie.immutable.prefix_stability", immutableLayer.prefixStability());
            m.put("reverie.persistent.retrievals", persistentLayer.retrievals());
            m.put("reverie.persistent.null_retrievals", persistentLayer.nullRetrievals());
            m.put("reverie.persistent.null_retrieval_rate", persistentLayer.nullRetrievalRate());
            m.put("reverie.persistent.end_users", persistentLayer.endUsers());
            m.put("reverie.persistent.sampled_end_users", persistentLayer.sampledEndUsers());
            m.put("reverie.persistent.active_memories", persistentLayer.activeMemories());
            m.put("reverie.persistent.estimated_active_memories", persistentLayer.estimatedActiveMemories());
            m.put("reverie.persistent.mean_age_days", persistentLayer.meanAge().toMillis() / 86_400_000.0);
            m.put("reverie.persistent.not_recalled", persistentLayer.notRecalled());
            m.put("reverie.temporal.turns", temporalLayer.turns());
            m.put("reverie.temporal.tokens_per_turn_mean", temporalLayer.meanTokensPerTurn());
            m.put("reverie.temporal.tokens_per_turn_max", temporalLayer.maxTokensPerTurn());
            m.put("reverie.temporal.compactions", temporalLayer.compactions());
            m.put("reverie.temporal.turns_before_compaction_mean", temporalLayer.meanTurnsBeforeCompaction());
            m.put("reverie.temporal.long_uncompacted_sessions", temporalLayer.longUncompactedSessions());
            m.put("reverie.transient.scratchpad_entries", transientLayer.scratchpadEntries());
            m.put("reverie.transient.leaks", transientLayer.leaks());
            return m;
        }
    }

    /**
     * IMMUTABLE metrics. Immutable and thread-safe.
     *
     * @param sizeTokens      tokens of the IMMUTABLE layer
     * @param calls           buildContext calls in the window
     * @param comparisons     calls that had a previous call to compare their first message with
     * @param stableCalls     of those, calls whose first message was byte-identical to the previous call's
     */
    public record ImmutableMetrics(int sizeTokens, long calls, long comparisons, long stableCalls) {

        /** {@code stableCalls / comparisons}, or 1 when nothing was compared yet. */
        public double prefixStability() {
            return comparisons == 0 ? 1.0 : (double) stableCalls / comparisons;
        }
    }

    /**
     * PERSISTENT metrics; immutable and thread-safe. The first two come from counters; the rest from the store, read when the
     * snapshot is taken over {@code sampledEndUsers} of the {@code endUsers} (evenly spread by id).
     *
     * @param retrievals      calls that retrieved by relevance (INJECT mode with a non-blank query)
     * @param nullRetrievals  of those, calls whose persistent layer recalled nothing but pins
     * @param endUsers        end users of the tenant and agent with any data in the store
     * @param sampledEndUsers end users whose memories were read for the figures below
     * @param activeMemories  ACTIVE, unexpired memories of the sampled end users
     * @param meanAge         mean time since creation of those memories
     * @param notRecalled     of those, memories neither created nor recalled within {@code notRecalledFor}
     * @param notRecalledFor  the "not recalled in N days" window
     */
    public record PersistentMetrics(long retrievals, long nullRetrievals, int endUsers, int sampledEndUsers,
                                    long activeMemories, Duration meanAge, long notRecalled,
                                    Duration notRecalledFor) {

        public PersistentMetrics {
            Checks.notNull("meanAge", meanAge);
            Checks.notNull("notRecalledFor", notRecalledFor);
        }

        /** {@code nullRetrievals / retrievals}, or 0 without retrievals. */
        public double nullRetrievalRate() {
            return retrievals == 0 ? 0.0 : (double) nullRetrievals / retrievals;
        }

        /** {@code activeMemories} scaled from the sample to all end users (exact when all were sampled). */
        public long estimatedActiveMemories() {
            return sampledEndUsers == 0 ? 0 : Math.round((double) activeMemories * endUsers / sampledEndUsers);
        }
    }

    /**
     * TEMPORAL metrics. Immutable and thread-safe.
     *
     * @param turns                     turns recorded in the window
     * @param meanTokensPerTurn         mean tokens of a recorded turn's text
     * @param maxTokensPerTurn          tokens of the largest recorded turn
     * @param compactions               buildContext calls that compacted a session
     * @param meanTurnsBeforeCompaction mean uncompacted turns a session had when it was compacted
     * @param longUncompactedSessions   distinct sessions assembled with more than the policy's
     *                                  {@code longSessionTurns} turns since their last compaction (or ever)
     */
    public record TemporalMetrics(long turns, double meanTokensPerTurn, int maxTokensPerTurn, long compactions,
                                  double meanTurnsBeforeCompaction, int longUncompactedSessions) {
    }

    /**
     * TRANSIENT metrics. Immutable and thread-safe.
     *
     * @param scratchpadEntries scratchpad entries seen in buildContext requests in the window
     * @param leaks             recorded turns that contained scratchpad text (see {@code ContextManager.health()})
     */
    public record TransientMetrics(long scratchpadEntries, long leaks) {
    }
}
