package dev.reverie;

import dev.reverie.dream.DreamCycle;
import dev.reverie.dream.DreamListener;
import dev.reverie.dream.DreamReport;
import dev.reverie.extract.LlmExtractor;
import dev.reverie.extract.RuleBasedExtractor;
import dev.reverie.internal.Checks;
import dev.reverie.internal.Ids;
import dev.reverie.internal.ScopeLocks;
import dev.reverie.spi.Embedder;
import dev.reverie.spi.Extractor;
import dev.reverie.spi.LanguageModel;
import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.MemoryStores;
import dev.reverie.spi.ReferenceValidator;
import dev.reverie.spi.Summarizer;
import dev.reverie.spi.TokenCounter;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The facade a host application talks to: {@link #buildContext} before each LLM request,
 * {@link #recordTurn} after it, {@code dream()} between conversations. It composes the layers, the
 * store and the dream cycle; the logic lives in the packages that own it. Build one with
 * {@link #builder()} and share it: it is thread-safe, and {@link #close()} releases what it created
 * (a store opened from a URI) but not what the caller passed in.
 */
public final class ContextManager implements AutoCloseable {

    private final MemoryStore store;
    private final boolean ownsStore;
    private final MemoryPolicy policy;
    private final Clock clock;
    private final Embedder embedder;
    private final RecallMode recallMode;
    private final ContextAssembler assembler;
    private final Retriever retriever;
    private final WritePipeline writes;
    private final RetrievalRecorder retrievals;
    private final DreamCycle dreams;
    private final ScopeLocks locks = new ScopeLocks(1024);
    private final AtomicBoolean closed = new AtomicBoolean();
    private final HealthMonitor health;
    private final MemoryAdmin admin;

    private ContextManager(Builder b, MemoryStore store, boolean ownsStore) {
        this.store = store;
        this.ownsStore = ownsStore;
        this.policy = b.policy;
        this.clock = b.clock;
        this.embedder = b.embedder;
        this.recallMode = b.recallMode;
        Summarizer summarizer = b.summarizer != null ? b.summarizer
                : Summarizers.standard(b.languageModel, b.tokenCounter);
        this.assembler = new ContextAssembler(store, policy, b.tokenCounter, summarizer, embedder, clock, b.immutable);
        this.retriever = assembler.retriever();
        SecretRedactor redactor = new SecretRedactor();
        Ids ids = b.idSeed == null ? Ids.random() : Ids.seeded(b.idSeed);
        this.writes = new WritePipeline(store, clock, redactor, extractor(b), locks,
                b.archive, embedder, ids);
        this.retrievals = new RetrievalRecorder(store, locks);
        DreamCycle.Builder dream = DreamCycle.builder(store).policy(policy).clock(clock)
                .referenceValidator(b.referenceValidator).scopeLocks(locks::lockFor);
        if (embedder != null) {
            dream.embedder(embedder);
        }
        if (b.languageModel != null) {
            dream.languageModel(b.languageModel);
        }
        this.dreams = dream.build();
        this.health = new HealthMonitor(store, policy, b.tokenCounter, clock, assembler.immutableTokens(), recallMode);
        health.failures(writes::failures);
        this.admin = new MemoryAdmin(store, clock, locks, embedder, redactor, health, this::flush, this::ensureOpen,
                ids);
    }

    /** The configured extractor, else the LLM extractor when a model is set, else the rule-based one. */
    private static Extractor extractor(Builder b) {
        if (b.extractor != null) {
            return b.extractor;
        }
        RuleBasedExtractor rules = new RuleBasedExtractor();
        return b.languageModel != null ? new LlmExtractor(b.languageModel, rules) : rules;
    }

    /** A builder; only the store is required. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Assembles the context for one LLM request: IMMUTABLE first, then PERSISTENT and TEMPORAL within
     * their shares of the budget, TRANSIENT (scratchpad and query) last. The total never exceeds the
     * request's budget; a budget too small for IMMUTABLE plus TRANSIENT fails with
     * {@link ContextBudgetException} giving both numbers.
     */
    public AssembledContext buildContext(ContextRequest request) {
        Checks.notNull("request", request);
        ensureOpen();
        ContextAssembler.Assembly a = assembler.assemble(request, recallMode);
        health.onAssembly(request, a);
        List<String> recalledIds = new ArrayList<>();
        for (RecalledMemory r : a.context().recalled()) {
            if (r.origin() == RecalledMemory.Origin.MEMORY) {
                recalledIds.add(r.memoryId());
            }
        }
        retrievals.recalled(request.scope(), recalledIds, clock.instant());
        return a.context();
    }

    /**
     * Records turns after an LLM call: secrets are redacted first, the turns are appended to the
     * session and to the verbatim archive (episodic recall) and typed observations are extracted into
     * L3 with provenance, all in one atomic write. With an embedder, the new observations and
     * archived turns get their vectors asynchronously; {@link #flush()} waits for them.
     */
    public TurnReceipt recordTurn(Scope scope, String sessionId, Turn... turns) {
        Checks.notNull("turns", turns);
        return recordTurn(scope, sessionId, Arrays.asList(turns));
    }

    /** As {@link #recordTurn(Scope, String, Turn...)} with a list. */
    public TurnReceipt recordTurn(Scope scope, String sessionId, List<Turn> turns) {
        ensureOpen();
        TurnReceipt receipt = writes.record(scope, sessionId, turns);
        health.onTurns(scope, turns);
        return receipt;
    }

    /**
     * Reports how the run that produced a turn ended. A FAILED outcome lowers the trust of what came
     * from that turn: its observations are never promoted on their own, and every ACTIVE memory whose
     * source turns all come from failed runs becomes DEPRECATED, with a history event whose cause is
     * {@code failed run <turnId>} (DESIGN §8, criterion 4). A memory that another, not failed, turn
     * also supports stays ACTIVE.
     */
    public void reportOutcome(Scope scope, String turnId, Outcome outcome) {
        ensureOpen();
        writes.reportRun(scope, turnId, outcome);
    }

    /** The operator's admin API: inspect, delete, edit, add, export, import and erase memories. */
    public MemoryAdmin admin() {
        ensureOpen();
        return admin;
    }

    /**
     * Per-layer health metrics and alerts (DESIGN §10), counted per tenant and agent since the build
     * or the last {@link #resetHealth()}; see {@link LayerHealth}. The counters cost a few atomic
     * increments per call; this method also reads memory counts and ages from the store, over a
     * bounded sample of end users, so call it on a scrape schedule rather than per request.
     *
     * <p>The TRANSIENT leak count is the number of recorded turns that contain, verbatim after
     * lower-casing and collapsing whitespace, one of the first eight 32-character chunks of a
     * scratchpad entry seen by a recent buildContext of the same tenant and agent (entries shorter
     * than 32 characters are not tracked; only 64-bit fingerprints are kept, never the text).
     */
    public LayerHealth health() {
        ensureOpen();
        return health.snapshot();
    }

    /** Starts a new health window: every counter restarts from zero. */
    public void resetHealth() {
        ensureOpen();
        health.reset();
    }

    /**
     * Runs the dream cycle (light sleep, deep sleep, REM, prune) for one end user and returns what it
     * did. Schedule it between conversations; it never blocks other users' turns.
     */
    public DreamReport dream(Scope scope) {
        return dream(scope, DreamListener.NONE);
    }

    /** As {@link #dream(Scope)}, reporting each phase's start, progress and end to {@code listener}. */
    public DreamReport dream(Scope scope, DreamListener listener) {
        beforeDream();
        return dreams.run(scope, listener);
    }

    /**
     * Runs the dream cycle for every end user of a tenant and agent, one at a time (no phase ever
     * mixes two people), reporting progress to {@code listener}; returns the summed report.
     */
    public DreamReport dream(String tenantId, String agentId, DreamListener listener) {
        beforeDream();
        return dreams.runAll(tenantId, agentId, listener);
    }

    /**
     * Reprocesses the end user's whole L3 stack, already-consolidated observations included (to
     * migrate a backlog); idempotent, it never duplicates durable memories.
     */
    public DreamReport consolidate(Scope scope) {
        return consolidate(scope, DreamListener.NONE);
    }

    /** As {@link #consolidate(Scope)}, reporting each phase's start, progress and end to {@code listener}. */
    public DreamReport consolidate(Scope scope, DreamListener listener) {
        beforeDream();
        return dreams.consolidate(scope, listener);
    }

    /** A recall tool sealed to {@code scope}, for {@link RecallMode#ON_DEMAND} function calling. */
    public MemoryTool recallTool(Scope scope) {
        Checks.notNull("scope", scope);
        ensureOpen();
        return new MemoryTool(scope, retriever, embedder, clock);
    }

    /** The store this manager reads and writes. */
    public MemoryStore store() {
        return store;
    }

    /** The policy in force. */
    public MemoryPolicy policy() {
        return policy;
    }

    /**
     * Waits for background work (embeddings, retrieval statistics) queued so far;
     * for tests and shutdown.
     */
    public void flush() {
        writes.flushEmbeddings();
        retrievals.flush();
    }

    /** Checks the manager is open and writes the pending retrieval statistics, which the dream reads. */
    private void beforeDream() {
        ensureOpen();
        retrievals.flush();
    }

    private void ensureOpen() {
        if (closed.get()) {
            throw new StoreClosedException("this ContextManager is closed: build a new one with ContextManager.builder()");
        }
    }

    /** Drains background writers and closes the store if this manager opened it. Safe to call twice. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        writes.close();
        retrievals.close();
        if (ownsStore) {
            store.close();
        }
    }

    /**
     * Configures a {@link ContextManager}. Every part but the store has a default: JTokkit
     * {@code o200k_base} token counts, the system clock, the design's {@link MemoryPolicy}, the
     * extractive summarizer, no embedder (lexical retrieval), no language model. Setters fail fast on
     * null; {@link #build()} checks the combination. Not thread-safe.
     */
    public static final class Builder {
        private MemoryStore store;
        private String storeUri;
        private ImmutableLayer immutable = ImmutableLayer.empty();
        private MemoryPolicy policy = MemoryPolicy.defaults();
        private Clock clock = Clock.systemUTC();
        private TokenCounter tokenCounter;
        private Embedder embedder;
        private LanguageModel languageModel;
        private Extractor extractor;
        private Summarizer summarizer;
        private ReferenceValidator referenceValidator = ReferenceValidator.acceptAll();
        private RecallMode recallMode = RecallMode.INJECT;
        private boolean archive = true;
        private Long idSeed;

        private Builder() {
        }

        /** The store to use; the caller keeps ownership and closes it. */
        public Builder store(MemoryStore memoryStore) {
            this.store = Checks.notNull("store", memoryStore);
            return this;
        }

        /** A store URI such as {@code sqlite:./reverie-data}, opened at build() and closed with the manager. */
        public Builder store(String uri) {
            this.storeUri = Checks.notBlank("store uri", uri);
            return this;
        }

        public Builder immutable(ImmutableLayer layer) {
            this.immutable = Checks.notNull("immutable", layer);
            return this;
        }

        public Builder policy(MemoryPolicy memoryPolicy) {
            this.policy = Checks.notNull("policy", memoryPolicy);
            return this;
        }

        public Builder clock(Clock c) {
            this.clock = Checks.notNull("clock", c);
            return this;
        }

        public Builder tokenCounter(TokenCounter counter) {
            this.tokenCounter = Checks.notNull("tokenCounter", counter);
            return this;
        }

        public Builder embedder(Embedder e) {
            this.embedder = Checks.notNull("embedder", e);
            return this;
        }

        public Builder languageModel(LanguageModel model) {
            this.languageModel = Checks.notNull("languageModel", model);
            return this;
        }

        public Builder extractor(Extractor e) {
            this.extractor = Checks.notNull("extractor", e);
            return this;
        }

        public Builder summarizer(Summarizer s) {
            this.summarizer = Checks.notNull("summarizer", s);
            return this;
        }

        public Builder referenceValidator(ReferenceValidator v) {
            this.referenceValidator = Checks.notNull("referenceValidator", v);
            return this;
        }

        /** The default recall mode (INJECT unless set); a request may override it. */
        public Builder recallMode(RecallMode mode) {
            this.recallMode = Checks.notNull("recallMode", mode);
            return this;
        }

        /** Whether to keep the verbatim (redacted) conversation archive, the source of episodic recall; on by default. */
        public Builder archive(boolean enabled) {
            this.archive = enabled;
            return this;
        }

        /**
         * Ids this manager mints (turns recorded without one, observations, memories the operator
         * adds, history events) come from a fixed sequence drawn from {@code seed} instead of random
         * UUIDs, so a test or an evaluation that makes the same calls in the same order on a fresh store
         * gets the same ids, and so the same ranking ties (the retriever orders equal scores by id), in
         * every run; what the dream writes has ids derived from its inputs either way. For tests and
         * evaluations only: a seed must never mint into a store that already holds ids of that seed
         * (another manager with it, or the same one after a restart), since new observations are
         * written as new ({@code WriteBatch.putNew}): SQLite then fails the write, other stores may keep
         * two records or replace one. By default ids are random.
         */
        public Builder idSeed(long seed) {
            this.idSeed = seed;
            return this;
        }

        /**
         * Builds the manager.
         *
         * @throws ConfigurationException when no store was given, when both a store instance and a URI
         *                                were given, when the embedder reports a non-positive dimension,
         *                                or when the store URI finds no (or more than one) provider
         */
        public ContextManager build() {
            if (store == null && storeUri == null) {
                throw new ConfigurationException("no store configured: call store(MemoryStores.open(\"sqlite:./reverie-data\")) "
                        + "or store(\"sqlite:./reverie-data\") on the builder; schemes found: " + MemoryStores.schemes());
            }
            if (store != null && storeUri != null) {
                throw new ConfigurationException("both a store instance (" + store.describe() + ") and a store uri ("
                        + storeUri + ") were configured: call only one of store(MemoryStore) and store(String)");
            }
            if (embedder != null && embedder.dimension() <= 0) {
                throw new ConfigurationException("embedder " + embedder.getClass().getName()
                        + " reports dimension " + embedder.dimension() + ", which must be positive: fix the embedder's "
                        + "dimension() or leave the embedder out for lexical recall only");
            }
            if (tokenCounter == null) {
                tokenCounter = TokenCounter.o200k();
            }
            boolean owns = store == null;
            MemoryStore s = owns ? MemoryStores.open(storeUri) : store;
            return new ContextManager(this, s, owns);
        }
    }
}
