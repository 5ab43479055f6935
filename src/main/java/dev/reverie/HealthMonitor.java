package dev.reverie;

import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.TokenCounter;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * The counters behind {@link LayerHealth}, kept per tenant and agent and updated on the hot path
 * at a cost of a few atomic increments per call (plus a hash of the first message when it is not
 * the IMMUTABLE layer's text, token counting of recorded turns, and a rolling hash over recorded
 * turns while scratchpad fingerprints are held). Memory is bounded: at most {@link #MAX_AGENTS}
 * tenant/agent pairs (least recently used evicted), {@link #MAX_FINGERPRINTS} scratchpad
 * fingerprints and {@link #MAX_TRACKED_SESSIONS} long-session hashes per pair. No user text is
 * kept: scratchpad entries and session keys are held as 64-bit hashes only.
 *
 * <p>Transient-leak detection: each scratchpad entry of a buildContext request is normalized
 * (lower case, whitespace runs collapsed to one space, trimmed) and its first
 * {@link #MAX_CHUNKS_PER_ENTRY} consecutive {@link #CHUNK}-character chunks are fingerprinted;
 * entries shorter than one chunk are not tracked, since short strings occur in conversation by
 * chance. A recorded turn (any role) whose normalized text contains one of those chunks anywhere
 * counts as one leak: scratchpad text reached the session store. Hash collisions (64-bit) aside,
 * there are no false positives in that sense; a turn that quotes a scratchpad passage of 32 or more
 * characters verbatim is a leak by this definition, since the text is now stored. Text shorter than
 * a chunk, or paraphrased, is not detected.
 *
 * <p>Thread-safe. Not API.
 */
final class HealthMonitor {

    /** Most tenant/agent pairs with counters. */
    static final int MAX_AGENTS = 1_024;
    /** Most scratchpad chunk fingerprints held per tenant and agent (oldest evicted first). */
    static final int MAX_FINGERPRINTS = 4_096;
    /** Characters per fingerprinted scratchpad chunk, after normalization. */
    static final int CHUNK = 32;
    /** Chunks fingerprinted per scratchpad entry. */
    static final int MAX_CHUNKS_PER_ENTRY = 8;
    /** Most distinct long uncompacted sessions counted per tenant and agent in one window. */
    static final int MAX_TRACKED_SESSIONS = 1_024;
    /** Most end users per tenant and agent whose memories a snapshot reads. */
    static final int SAMPLE_END_USERS = 100;
    /** Most memories per sampled end user a snapshot reads. */
    static final int MAX_MEMORIES_PER_USER = 10_000;
    /** The "not recalled in N days" window. */
    static final Duration NOT_RECALLED_FOR = Duration.ofDays(30);
    /** Fewest observations before a rate (prefix stability, null retrieval) may raise an alert. */
    static final int MIN_SAMPLE_FOR_RATES = 10;

    private static final long BASE = 0x100000001B3L;
    private static final long BASE_POW_CHUNK_MINUS_1;

    static {
        long p = 1;
        for (int i = 0; i < CHUNK - 1; i++) {
            p *= BASE;
        }
        BASE_POW_CHUNK_MINUS_1 = p;
    }

    private record Key(String tenantId, String agentId) {
    }

    /** The IMMUTABLE text last seen and its hash, so the common case hashes nothing. */
    private record Prefix(String content, long hash) {
    }

    /** The counters of one window; replaced whole on reset. */
    private static final class Window {
        final LongAdder calls = new LongAdder();
        final LongAdder comparisons = new LongAdder();
        final LongAdder stable = new LongAdder();
        final LongAdder retrievals = new LongAdder();
        final LongAdder nullRetrievals = new LongAdder();
        final LongAdder turns = new LongAdder();
        final LongAdder tokens = new LongAdder();
        final AtomicInteger maxTokens = new AtomicInteger();
        final LongAdder compactions = new LongAdder();
        final LongAdder turnsBeforeCompaction = new LongAdder();
        final Set<Long> longSessions = ConcurrentHashMap.newKeySet();
        final LongAdder scratchpadEntries = new LongAdder();
        final LongAdder leaks = new LongAdder();
    }

    private static final class Agent {
        /** When it was last used (a use counter): the least recently used pair is evicted first. */
        volatile long lastUsed;
        volatile Window window = new Window();
        final AtomicReference<Long> lastPrefixHash = new AtomicReference<>();
        volatile Prefix immutablePrefix;
        final Set<Long> fingerprints = ConcurrentHashMap.newKeySet();
        final Queue<Long> fingerprintOrder = new ConcurrentLinkedQueue<>();
    }

    private final MemoryStore store;
    private final MemoryPolicy policy;
    private final TokenCounter tokenCounter;
    private final Clock clock;
    private final int immutableTokens;
    private final RecallMode defaultMode;
    /** Lock-free on the hot path: a lookup and a volatile write; only evicting takes {@link #evicting}. */
    private final ConcurrentHashMap<Key, Agent> agents = new ConcurrentHashMap<>();
    private final AtomicLong uses = new AtomicLong();
    private final Object evicting = new Object();
    private volatile Instant since;
    private volatile java.util.function.Supplier<LayerHealth.Failures> failures = () -> LayerHealth.Failures.NONE;
    /** The failure counters at the start of the window. */
    private volatile LayerHealth.Failures failuresBase = LayerHealth.Failures.NONE;

    HealthMonitor(MemoryStore store, MemoryPolicy policy, TokenCounter tokenCounter, Clock clock,
                         int immutableTokens, RecallMode defaultMode) {
        this.store = store;
        this.policy = policy;
        this.tokenCounter = tokenCounter;
        this.clock = clock;
        this.immutableTokens = immutableTokens;
        this.defaultMode = defaultMode;
        this.since = clock.instant();
    }

    private Agent agent(Scope scope) {
        Key key = new Key(scope.tenantId(), scope.agentId());
        Agent a = agents.get(key);
        if (a == null) {
            a = agents.computeIfAbsent(key, k -> new Agent());
            if (agents.size() > MAX_AGENTS) {
                evictLeastRecentlyUsed(key);
            }
        }
        a.lastUsed = uses.incrementAndGet();
        return a;
    }

    /** Drops the least recently used pairs beyond {@link #MAX_AGENTS} (never {@code keep}, just added). */
    private void evictLeastRecentlyUsed(Key keep) {
        synchronized (evicting) {
            while (agents.size() > MAX_AGENTS) {
                Map.Entry<Key, Agent> oldest = null;
                for (Map.Entry<Key, Agent> e : agents.entrySet()) {
                    if (!e.getKey().equals(keep) && (oldest == null || e.getValue().lastUsed < oldest.getValue().lastUsed)) {
                        oldest = e;
                    }
                }
                if (oldest == null) {
                    return;
                }
                agents.remove(oldest.getKey(), oldest.getValue());
            }
        }
    }

    /** Counts one buildContext call. */
    void onAssembly(ContextRequest request, ContextAssembler.Assembly assembly) {
        Agent agent = agent(request.scope());
        Window w = agent.window;
        w.calls.increment();
        List<ContextMessage> messages = assembly.context().messages();
        if (!messages.isEmpty()) {
            long hash = prefixHash(agent, messages.get(0));
            Long previous = agent.lastPrefixHash.getAndSet(hash);
            if (previous != null) {
                w.comparisons.increment();
                if (previous == hash) {
                    w.stable.increment();
                }
            }
        }
        RecallMode mode = request.recallMode() != null ? request.recallMode() : defaultMode;
        if (mode == RecallMode.INJECT && !request.query().isBlank()) {
            w.retrievals.increment();
            if (assembly.nullRetrieval()) {
                w.nullRetrievals.increment();
            }
        }
        if (assembly.compacted()) {
            w.compactions.increment();
            w.turnsBeforeCompaction.add(assembly.turnsBeforeCompaction());
        } else if (assembly.temporalTurns() > policy.longSessionTurns()
                && w.longSessions.size() < MAX_TRACKED_SESSIONS) {
            w.longSessions.add(sessionHash(request.scope(), request.sessionId()));
        }
        for (String entry : request.scratchpad()) {
            w.scratchpadEntries.increment();
            for (long fp : fingerprints(entry)) {
                if (agent.fingerprints.add(fp)) {
                    agent.fingerprintOrder.add(fp);
                }
            }
        }
        while (agent.fingerprints.size() > MAX_FINGERPRINTS) {
            Long oldest = agent.fingerprintOrder.poll();
            if (oldest == null) {
                break;
            }
            agent.fingerprints.remove(oldest);
        }
    }

    private static long prefixHash(Agent agent, ContextMessage first) {
        if (first.layer() != Layer.IMMUTABLE) {
            return hash(first.content());
        }
        Prefix known = agent.immutablePrefix;
        // the IMMUTABLE text is one String instance per manager: identity makes the common case free
        if (known != null && known.content() == first.content()) {
            return known.hash();
        }
        long h = hash(first.content());
        agent.immutablePrefix = new Prefix(first.content(), h);
        return h;
    }

    /** Counts recorded turns: their tokens and whether they carry scratchpad text. */
    void onTurns(Scope scope, List<Turn> turns) {
        Agent agent = agent(scope);
        Window w = agent.window;
        for (Turn t : turns) {
            int n = tokenCounter.count(t.text());
            w.turns.increment();
            w.tokens.add(n);
            w.maxTokens.accumulateAndGet(n, Math::max);
            if (!agent.fingerprints.isEmpty() && containsFingerprint(t.text(), agent.fingerprints)) {
                w.leaks.increment();
            }
        }
    }

    /** Drops what the counters hold about an erased end user (the hashes of its long sessions). */
    void forget(Scope scope, List<String> sessionIds) {
        Agent agent = agents.get(new Key(scope.tenantId(), scope.agentId()));
        if (agent != null) {
            for (String sessionId : sessionIds) {
                agent.window.longSessions.remove(sessionHash(scope, sessionId));
            }
        }
    }

    /** Starts a new window: every counter restarts from zero; fingerprints and the last prefix stay. */
    void reset() {
        for (Agent a : agents.values()) {
            a.window = new Window();
        }
        failuresBase = failures.get();
        since = clock.instant();
    }

    /** Where the manager's absorbed failures are counted (cumulative; the window subtracts its start). */
    void failures(java.util.function.Supplier<LayerHealth.Failures> source) {
        failures = java.util.Objects.requireNonNull(source, "source");
        failuresBase = source.get();
    }

    /** The metrics and alerts now; reads PERSISTENT figures from the store (bounded, see the constants). */
    LayerHealth snapshot() {
        Instant now = clock.instant();
        List<Map.Entry<Key, Agent>> entries = new ArrayList<>(agents.entrySet());
        entries.sort(Comparator.comparing((Map.Entry<Key, Agent> e) -> e.getKey().tenantId())
                .thenComparing(e -> e.getKey().agentId()));
        List<HealthAlert> alerts = new ArrayList<>();
        if (immutableTokens > policy.immutableSizeAlert()) {
            alerts.add(new HealthAlert(HealthAlert.Type.IMMUTABLE_TOO_LARGE, null, null, immutableTokens,
                    policy.immutableSizeAlert(), "the IMMUTABLE layer has " + immutableTokens
                    + " tokens, above the " + policy.immutableSizeAlert() + "-token alert: every call pays for it;"
                    + " move rarely needed rules into memories or shorten the specs"));
        }
        List<LayerHealth.AgentHealth> out = new ArrayList<>(entries.size());
        for (Map.Entry<Key, Agent> e : entries) {
            Key key = e.getKey();
            Window w = e.getValue().window;
            LayerHealth.ImmutableMetrics im = new LayerHealth.ImmutableMetrics(immutableTokens, w.calls.sum(),
                    w.comparisons.sum(), w.stable.sum());
            LayerHealth.PersistentMetrics pm = persistent(key, w, now);
            long turns = w.turns.sum();
            long compactions = w.compactions.sum();
            LayerHealth.TemporalMetrics tm = new LayerHealth.TemporalMetrics(turns,
                    turns == 0 ? 0 : (double) w.tokens.sum() / turns, w.maxTokens.get(), compactions,
                    compactions == 0 ? 0 : (double) w.turnsBeforeCompaction.sum() / compactions,
                    w.longSessions.size());
            LayerHealth.TransientMetrics xm = new LayerHealth.TransientMetrics(w.scratchpadEntries.sum(),
                    w.leaks.sum());
            List<HealthAlert> mine = alerts(key, im, pm, tm, xm);
            alerts.addAll(mine);
            out.add(new LayerHealth.AgentHealth(key.tenantId(), key.agentId(), im, pm, tm, xm, mine.size()));
        }
        return new LayerHealth(since, now, immutableTokens, out, alerts, failures.get().minus(failuresBase));
    }

    private LayerHealth.PersistentMetrics persistent(Key key, Window w, Instant now) {
        List<Scope> users = store.endUsers(key.tenantId(), key.agentId());
        List<Scope> sample = new ArrayList<>();
        if (users.size() <= SAMPLE_END_USERS) {
            sample.addAll(users);
        } else {
            for (int i = 0; i < SAMPLE_END_USERS; i++) {
                sample.add(users.get((int) ((long) i * users.size() / SAMPLE_END_USERS)));
            }
        }
        long count = 0;
        long ageMillis = 0;
        long notRecalled = 0;
        Instant recallCutoff = now.minus(NOT_RECALLED_FOR);
        for (Scope user : sample) {
            for (Memory m : store.memories(user, MemoryFilter.active().page(0, MAX_MEMORIES_PER_USER))) {
                if (m.expired(now)) {
                    continue;
                }
                count++;
                ageMillis += Math.max(0, Duration.between(m.createdAt(), now).toMillis());
                Instant touched = m.lastRetrievedAt() != null && m.lastRetrievedAt().isAfter(m.createdAt())
                        ? m.lastRetrievedAt() : m.createdAt();
                if (touched.isBefore(recallCutoff)) {
                    notRecalled++;
                }
            }
        }
        return new LayerHealth.PersistentMetrics(w.retrievals.sum(), w.nullRetrievals.sum(), users.size(),
                sample.size(), count, count == 0 ? Duration.ZERO : Duration.ofMillis(ageMillis / count), notRecalled,
                NOT_RECALLED_FOR);
    }

    private List<HealthAlert> alerts(Key key, LayerHealth.ImmutableMetrics im, LayerHealth.PersistentMetrics pm,
                                     LayerHealth.TemporalMetrics tm, LayerHealth.TransientMetrics xm) {
        String who = key.tenantId() + "/" + key.agentId();
        List<HealthAlert> out = new ArrayList<>();
        if (im.comparisons() >= MIN_SAMPLE_FOR_RATES && im.prefixStability() < policy.prefixStabilityAlert()) {
            out.add(alert(HealthAlert.Type.PREFIX_UNSTABLE, key, im.prefixStability(), policy.prefixStabilityAlert(),
                    "prefix stability of " + who + " is " + percent(im.prefixStability()) + " (" + im.stableCalls()
                            + " of " + im.comparisons() + " calls began with the previous call's first message),"
                            + " below the " + percent(policy.prefixStabilityAlert()) + " alert: the prompt cache"
                            + " cannot hit; keep a non-empty IMMUTABLE layer that is byte-identical between calls"));
        }
        if (pm.retrievals() >= MIN_SAMPLE_FOR_RATES && pm.nullRetrievalRate() > policy.nullRetrievalAlert()) {
            out.add(alert(HealthAlert.Type.NULL_RETRIEVAL_HIGH, key, pm.nullRetrievalRate(),
                    policy.nullRetrievalAlert(), "null-retrieval rate of " + who + " is "
                            + percent(pm.nullRetrievalRate()) + " (" + pm.nullRetrievals() + " of " + pm.retrievals()
                            + " retrieving calls recalled nothing), above the " + percent(policy.nullRetrievalAlert())
                            + " alert: memories are missing or the queries do not match them; check extraction"
                            + " and the dream cycle's cutoff"));
        }
        if (tm.maxTokensPerTurn() > policy.tokensPerTurnAlert()) {
            out.add(alert(HealthAlert.Type.TURN_TOO_LARGE, key, tm.maxTokensPerTurn(), policy.tokensPerTurnAlert(),
                    "a turn recorded for " + who + " had " + tm.maxTokensPerTurn() + " tokens, above the "
                            + policy.tokensPerTurnAlert() + "-token alert: large tool output belongs in the"
                            + " scratchpad, not in the conversation"));
        }
        if (tm.longUncompactedSessions() > 0) {
            out.add(alert(HealthAlert.Type.LONG_SESSION_NOT_COMPACTED, key, tm.longUncompactedSessions(), 0,
                    tm.longUncompactedSessions() + " session(s) of " + who
                            + " were assembled with more than " + policy.longSessionTurns()
                            + " turns and no compaction: the temporal budget is so large that compaction never"
                            + " triggers, so every call re-sends the whole session"));
        }
        if (xm.leaks() > 0) {
            out.add(alert(HealthAlert.Type.TRANSIENT_LEAK, key, xm.leaks(), 0, xm.leaks() + " recorded turn(s) of "
                    + who + " contained scratchpad text: TRANSIENT content reached the store; record the answer,"
                    + " not the tool output you passed as scratchpad"));
        }
        return out;
    }

    private static HealthAlert alert(HealthAlert.Type type, Key key, double value, double threshold, String message) {
        return new HealthAlert(type, key.tenantId(), key.agentId(), value, threshold, message);
    }

    private static String percent(double share) {
        return String.format(Locale.ROOT, "%.1f%%", share * 100);
    }

    // ------------------------------------------------------------------ hashing

    private static long sessionHash(Scope scope, String sessionId) {
        return hash(scope.tenantId() + '\u0000' + scope.agentId() + '\u0000' + scope.endUserId() + '\u0000'
                + sessionId);
    }

    /** FNV-1a over the UTF-16 units of {@code s}. */
    static long hash(String s) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < s.length(); i++) {
            h ^= s.charAt(i);
            h *= 0x100000001b3L;
        }
        return h;
    }

    /** Lower case, whitespace runs as one space, trimmed; stops after {@code limit} characters. */
    static String normalize(String text, int limit) {
        StringBuilder sb = new StringBuilder(Math.min(text.length(), limit));
        boolean pendingSpace = false;
        for (int i = 0; i < text.length() && sb.length() < limit; i++) {
            char c = Character.toLowerCase(text.charAt(i));
            if (Character.isWhitespace(c)) {
                pendingSpace = sb.length() > 0;
            } else {
                if (pendingSpace) {
                    sb.append(' ');
                    pendingSpace = false;
                    if (sb.length() >= limit) {
                        break;
                    }
                }
                sb.append(c);
            }
        }
        return sb.toString();
    }

    /** The fingerprints of an entry's first chunks (none when shorter than one chunk). */
    static long[] fingerprints(String entry) {
        String n = normalize(entry, CHUNK * MAX_CHUNKS_PER_ENTRY);
        int chunks = Math.min(n.length() / CHUNK, MAX_CHUNKS_PER_ENTRY);
        long[] out = new long[chunks];
        for (int c = 0; c < chunks; c++) {
            long h = 0;
            for (int i = c * CHUNK; i < (c + 1) * CHUNK; i++) {
                h = h * BASE + n.charAt(i);
            }
            out[c] = h;
        }
        return out;
    }

    /** Whether any {@link #CHUNK}-character window of the normalized text has a fingerprint in the set. */
    static boolean containsFingerprint(String text, Set<Long> fingerprints) {
        String n = normalize(text, Integer.MAX_VALUE);
        if (n.length() < CHUNK) {
            return false;
        }
        long h = 0;
        for (int i = 0; i < CHUNK; i++) {
            h = h * BASE + n.charAt(i);
        }
        if (fingerprints.contains(h)) {
            return true;
        }
        for (int i = CHUNK; i < n.length(); i++) {
            h = (h - n.charAt(i - CHUNK) * BASE_POW_CHUNK_MINUS_1) * BASE + n.charAt(i);
            if (fingerprints.contains(h)) {
                return true;
            }
        }
        return false;
    }
}
